// The last step of `vite build` for the web app (docs/decisions/033-prerendered-public-pages.md):
// renders each prerendered page of the route table with the server renderer (the SSR bundle of
// src/web/entry-server.tsx) and writes {path: markup} to dist/web/.vite/prerendered.json, which the
// server puts inside <div id="root"> of that page's HTML. The renderer stays in the build: the server
// loads it to render the pages that show data per request (docs/decisions/036-server-rendered-data-pages.md).
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const bundle = fileURLToPath(new URL("../dist/web/.vite/ssr/entry-server.js", import.meta.url));
const out = fileURLToPath(new URL("../dist/web/.vite/prerendered.json", import.meta.url));

const { prerenderedPaths, renderPage } = await import(bundle);
const pages = {};
for (const path of prerenderedPaths()) {
  const markup = await renderPage(path);
  // A page that rendered only its loading fallback would hydrate into a flash: fail the build instead.
  if (!markup.includes("<h1")) throw new Error(`prerender: ${path} rendered no <h1>`);
  // An unfinished or outlined boundary needs React's inline script to show, which the CSP blocks.
  if (/<script|<template|<!--\$[?!]-->/.test(markup)) throw new Error(`prerender: ${path} left a boundary for an inline script`);
  pages[path] = markup;
}
writeFileSync(out, JSON.stringify(pages));
console.log(`prerendered ${Object.keys(pages).length} pages into ${out}`);
