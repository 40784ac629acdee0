import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants as zlib } from "node:zlib";
import fastifyStatic from "@fastify/static";
import fp from "fastify-plugin";
import { matchRoute } from "../../shared/page-head.js";
import { WEB_DIST_DIR } from "../paths.js";

// The built SPA: hashed assets are cached for a year, index.html never; unknown /api paths are a
// JSON 404 and every other unknown path gets index.html so the client router shows the page
// (or its 404 page). Each page's head tags (title, description, robots, Open Graph) are put into
// index.html on the way out, so crawlers and link previews, which run no JavaScript, read them
// (docs/decisions/028-head-tags-from-the-server.md).

export interface SpaOptions {
  /** The head tags of a path (no query string), HTML-escaped; without it index.html goes as built. */
  pageHead?: (path: string) => Promise<string>;
}

/** Where src/web/index.html marks the tags a page replaces (its title and description). */
const HEAD_START = "<!-- page-head -->";
const HEAD_END = "<!-- /page-head -->";

/** index.html with the page's tags between the markers, or before </head> in a page without them. */
export function injectHead(indexHtml: string, tags: string): string {
  const start = indexHtml.indexOf(HEAD_START);
  const end = indexHtml.indexOf(HEAD_END);
  if (start !== -1 && end > start) return `${indexHtml.slice(0, start)}${tags}${indexHtml.slice(end + HEAD_END.length)}`;
  const close = indexHtml.indexOf("</head>");
  return close === -1 ? indexHtml : `${indexHtml.slice(0, close)}${tags}${indexHtml.slice(close)}`;
}

/** Route pattern -> the page's chunks, written by the build (vite.config.ts, routePreloads). */
export type RoutePreloads = Record<string, string[]>;

/**
 * index.html with `<link rel="modulepreload">` for the page of `path` before </head>, so the
 * browser fetches the page's chunks beside the entry instead of after the entry has run and asked
 * for them (issue 17, docs/decisions/029-lighter-first-load.md). The file names come from our own
 * build, never from the request.
 */
export function injectPreloads(indexHtml: string, preloads: RoutePreloads, path: string): string {
  const files = preloads[matchRoute(path).route.pattern] ?? [];
  const close = indexHtml.indexOf("</head>");
  if (files.length === 0 || close === -1) return indexHtml;
  const links = files.map((file) => `<link rel="modulepreload" crossorigin href="${file}">\n`).join("");
  return `${indexHtml.slice(0, close)}${links}${indexHtml.slice(close)}`;
}

/** Path -> the markup the build rendered for it (scripts/prerender.mjs). */
export type PrerenderedPages = Record<string, string>;

const ROOT_ELEMENT = '<div id="root"></div>';

/**
 * index.html with the page's prerendered markup inside <div id="root">, so a public page paints
 * before its scripts run; the web app then hydrates it (docs/decisions/033-prerendered-public-pages.md).
 * The path is looked up as asked ("/pricing/" is not "/pricing", and gets the empty root).
 */
export function injectPrerendered(indexHtml: string, pages: PrerenderedPages, path: string): string {
  const markup = Object.hasOwn(pages, path) ? pages[path] : undefined;
  if (!markup || !indexHtml.includes(ROOT_ELEMENT)) return indexHtml;
  return indexHtml.replace(ROOT_ELEMENT, () => `<div id="root">${markup}</div>`);
}

function readBuildJson<T>(webDist: string, name: string): T | Record<string, never> {
  const file = join(webDist, ".vite", name);
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as T) : {};
}

export default fp<SpaOptions>(
  async (app, options) => {
    const webDist = app.ctx.env.WEB_DIST_DIR ?? WEB_DIST_DIR;
    const indexPath = join(webDist, "index.html");
    const hasBuild = existsSync(indexPath);
    if (hasBuild) {
      await app.register(fastifyStatic, {
        root: webDist,
        wildcard: false,
        index: false,
        // The build writes .br and .gz beside every asset (vite.config.ts): served by Accept-Encoding
        // with Vary, so no CPU goes on compressing the same bytes per request.
        preCompressed: true,
        setHeaders(reply, path) {
          reply.header("cache-control", path.includes("/assets/") ? "public, max-age=31536000, immutable" : "no-cache");
        },
      });
    }
    const indexHtml = hasBuild ? readFileSync(indexPath, "utf8") : null;
    const preloads = hasBuild ? readBuildJson<RoutePreloads>(webDist, "route-preloads.json") : {};
    const prerendered = hasBuild ? readBuildJson<PrerenderedPages>(webDist, "prerendered.json") : {};
    /** ETag -> the Brotli bytes of that prerendered page's HTML. */
    const brotliPages = new Map<string, Buffer>();

    app.setNotFoundHandler(async (request, reply) => {
      const path = request.url.split("?")[0] ?? "";
      // HEAD answers like GET (monitors and link checkers use it); Fastify sends no body for it.
      if (path.startsWith("/api/") || path === "/api" || (request.method !== "GET" && request.method !== "HEAD")) {
        return reply.code(404).send({ message: `Not found: ${request.method} ${path}` });
      }
      if (!indexHtml) {
        return reply.code(404).type("text/plain").send("The web app is not built. Run `npm run build`.");
      }
      const withPreloads = injectPrerendered(injectPreloads(indexHtml, preloads, path), prerendered, path);
      let html = withPreloads;
      if (options.pageHead) {
        try {
          html = injectHead(withPreloads, await options.pageHead(path));
        } catch (error) {
          // The database away must not take the page with it: the app still loads, with the
          // build's generic title, and shows its own error once its API calls fail.
          request.log.warn({ err: error }, "page head lookup failed; serving index.html as built");
        }
      }
      // no-cache, not max-age: the page's title follows its task, which its poster may change or
      // close at any moment, and the HTML names this build's hashed assets. The ETag lets a browser
      // or CDN revalidate it with a 304 instead of the body. The HTML is the same whoever asks (the
      // head holds only what a signed-out visitor sees), so it does not vary by cookie.
      const etag = `"${createHash("sha256").update(html).digest("base64url").slice(0, 27)}"`;
      reply.header("cache-control", "no-cache").header("etag", etag);
      if (ifNoneMatch(request.headers["if-none-match"], etag)) return reply.code(304).send();
      reply.code(200).type("text/html; charset=utf-8").header("vary", "accept-encoding");
      // A prerendered page is 12-34 KB of markup, the same for every visitor of this build: sent
      // Brotli-compressed (about a fifth), compressed once per distinct page and kept.
      if (Object.hasOwn(prerendered, path) && acceptsBrotli(request.headers["accept-encoding"])) {
        let compressed = brotliPages.get(etag);
        if (!compressed) {
          compressed = await brotli(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9 } });
          if (brotliPages.size < MAX_COMPRESSED_PAGES) brotliPages.set(etag, compressed);
        }
        return reply.header("content-encoding", "br").send(compressed);
      }
      return reply.send(html);
    });
  },
  { name: "spa" },
);

/** Bounds the cache of compressed pages (each page's head and build make one entry). */
const MAX_COMPRESSED_PAGES = 64;

const brotli = promisify(brotliCompress);

function acceptsBrotli(header: string | undefined): boolean {
  return (header ?? "").split(",").some((part) => {
    const [coding, ...params] = part.trim().split(";");
    return coding?.trim() === "br" && !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p));
  });
}

function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}
