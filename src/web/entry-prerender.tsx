// The build's server renderer (docs/decisions/033-prerendered-public-pages.md): the public pages
// that show no data are rendered to HTML once per build, so a phone paints them before any
// JavaScript has run; main.tsx hydrates that HTML. Only scripts/prerender.mjs imports this, from
// the SSR bundle `vite build --ssr` makes of it.
import "./lib/zod-jitless";
import { StrictMode } from "react";
import { prerender } from "react-dom/static";
import { Router } from "wouter";
import { prerenderedPaths } from "@shared/page-head";
import { App } from "./app/app";

export { prerenderedPaths };

/** The markup of the app at `path` as a signed-out visitor's first render sees it (the user still loading). */
export async function renderPage(path: string): Promise<string> {
  const { prelude } = await prerender(
    <StrictMode>
      <Router ssrPath={path} ssrSearch="">
        <App />
      </Router>
    </StrictMode>,
    // Never outline a large boundary for progressive streaming: that needs an inline script to
    // reveal it, which the Content-Security-Policy (script-src 'self') rightly blocks.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  return await new Response(prelude).text();
}
