import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { brotliCompress, constants as zlib } from "node:zlib";
import fastifyStatic from "@fastify/static";
import type { FastifyBaseLogger } from "fastify";
import fp from "fastify-plugin";
import { PAGE_DATA_ELEMENT_ID, type DataPageRenderer, type PageDataRequest } from "../../shared/page-data.js";
import { matchRoute } from "../../shared/page-head.js";
import { WEB_DIST_DIR } from "../paths.js";

// The built SPA: hashed assets are cached for a year, index.html never; unknown /api paths are a
// JSON 404 and every other unknown path gets index.html so the client router shows the page
// (or its 404 page). Each page's head tags (title, description, robots, Open Graph) are put into
// index.html on the way out, so crawlers and link previews, which run no JavaScript, read them
// (docs/decisions/028-head-tags-from-the-server.md). The job board's first page and a task page are
// rendered per request with their data by the build's server renderer, so a phone paints them before
// any script has run (docs/decisions/036-server-rendered-data-pages.md).

/** An API answer a page is rendered from: its JSON text, and a tag that changes whenever the text does. */
export interface PageDataAnswer {
  json: string | Buffer;
  etag: string;
}

export interface SpaOptions {
  /** The head tags of a path (no query string), HTML-escaped; without it index.html goes as built. */
  pageHead?: (path: string) => Promise<string>;
  /**
   * The answer a server-rendered page shows, as a signed-out visitor gets it, or null when there is
   * none (an unknown task): the page then loads as before. Without it no page is rendered per request.
   */
  pageData?: (request: PageDataRequest) => Promise<PageDataAnswer | null>;
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

/**
 * JSON as the text of a `<script type="application/json">`: `<`, `>` and `&` (and the two line
 * separators JavaScript once refused) written as \uXXXX escapes, so no user-written text ("</script>",
 * "<!--") can end the element or start markup; JSON.parse reads the same value back.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * index.html with a server-rendered page's markup inside <div id="root"> and, right after it, the
 * answers it was rendered from, for the web app to adopt before it hydrates.
 */
export function injectDataPage(indexHtml: string, markup: string, stateJson: string): string {
  if (!indexHtml.includes(ROOT_ELEMENT)) return indexHtml;
  const data = `<script type="application/json" id="${PAGE_DATA_ELEMENT_ID}">${stateJson}</script>`;
  return indexHtml.replace(ROOT_ELEMENT, () => `<div id="root">${markup}</div>${data}`);
}

/** Where the build puts the server renderer (vite.config.ts, SSR_OUT_DIR), inside the web build it renders. */
const RENDERER_FILE = join(".vite", "ssr", "entry-server.js");

/** The build's server renderer, or null (a build without one, or one that fails to load): pages then load as before. */
async function loadRenderer(webDist: string, log: FastifyBaseLogger): Promise<DataPageRenderer | null> {
  const file = join(webDist, RENDERER_FILE);
  if (!existsSync(file)) return null;
  try {
    const module = (await import(pathToFileURL(file).href)) as Partial<DataPageRenderer>;
    const { pageDataRequest, renderDataPage } = module;
    if (typeof pageDataRequest === "function" && typeof renderDataPage === "function") return { pageDataRequest, renderDataPage };
    log.warn({ file }, "the server renderer lacks pageDataRequest or renderDataPage; pages load without server rendering");
  } catch (error) {
    log.warn({ err: error, file }, "the server renderer failed to load; pages load without server rendering");
  }
  return null;
}

/** A page rendered with an answer, kept while the answer stays the same (at most RENDERED_PAGE_MAX_AGE_MS). */
interface RenderedPage {
  answerEtag: string;
  renderedAt: number;
  markup: string;
  stateJson: string;
}

/**
 * The job board's answers are kept as long (docs/decisions/035-job-board-cache.md); a page's relative
 * times ("5 minutes ago") are at most this old in its HTML, and the browser writes them anew after hydrating.
 */
const RENDERED_PAGE_MAX_AGE_MS = 10_000;
/** Each address (search included) is an entry, of about 200 KB of markup and JSON for a 30-card board. */
const MAX_RENDERED_PAGES = 64;

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
    const renderer = hasBuild && options.pageData ? await loadRenderer(webDist, app.log) : null;
    /** Address (with its search) -> the page last rendered there; least recently used first. */
    const renderedPages = new Map<string, RenderedPage>();
    /** ETag -> the Brotli bytes of that prerendered or server-rendered page's HTML. */
    const brotliPages = new Map<string, Buffer>();

    /** The page's markup and answers, rendered now or kept from a render of the same answer; null when it is not rendered here. */
    async function dataPage(path: string, search: string): Promise<RenderedPage | null> {
      const request = renderer?.pageDataRequest(path, search);
      if (!renderer || !request || !options.pageData) return null;
      const answer = await options.pageData(request);
      if (!answer) return null;
      const key = `${path}?${search}`;
      const now = app.ctx.now();
      const kept = renderedPages.get(key);
      renderedPages.delete(key);
      if (kept && kept.answerEtag === answer.etag && now.getTime() - kept.renderedAt < RENDERED_PAGE_MAX_AGE_MS) {
        renderedPages.set(key, kept);
        return kept;
      }
      const data: unknown = JSON.parse(answer.json.toString());
      const { markup, state } = await renderer.renderDataPage(path, search, request, data, now);
      const page = { answerEtag: answer.etag, renderedAt: now.getTime(), markup, stateJson: scriptJson(state) };
      renderedPages.set(key, page);
      if (renderedPages.size > MAX_RENDERED_PAGES) {
        const oldest = renderedPages.keys().next();
        if (!oldest.done) renderedPages.delete(oldest.value);
      }
      return page;
    }

    app.setNotFoundHandler(async (request, reply) => {
      const queryAt = request.url.indexOf("?");
      const path = queryAt === -1 ? request.url : request.url.slice(0, queryAt);
      const search = queryAt === -1 ? "" : request.url.slice(queryAt + 1);
      // HEAD answers like GET (monitors and link checkers use it); Fastify sends no body for it.
      if (path.startsWith("/api/") || path === "/api" || (request.method !== "GET" && request.method !== "HEAD")) {
        return reply.code(404).send({ message: `Not found: ${request.method} ${path}` });
      }
      if (!indexHtml) {
        return reply.code(404).type("text/plain").send("The web app is not built. Run `npm run build`.");
      }
      // The head and the page's data are looked up side by side: a task page needs both.
      const [head, page] = await Promise.all([
        options.pageHead?.(path).catch((error: unknown) => {
          // The database away must not take the page with it: the app still loads, with the
          // build's generic title, and shows its own error once its API calls fail.
          request.log.warn({ err: error }, "page head lookup failed; serving index.html as built");
          return undefined;
        }),
        dataPage(path, search).catch((error: unknown) => {
          // Nor with the page's data or its rendering: the app then loads and asks for the data itself.
          request.log.warn({ err: error }, "server rendering failed; serving the page without its markup");
          return null;
        }),
      ]);
      // A server-rendered page paints from its HTML; its page's chunks only make it interactive.
      // Named in the head they were fetched beside the CSS and held the first paint back (Lighthouse
      // mobile LCP 2.2-3.1 s with them, 1.6-1.8 s without), so the entry asks for them when it runs.
      const withBody = page
        ? injectDataPage(indexHtml, page.markup, page.stateJson)
        : injectPrerendered(injectPreloads(indexHtml, preloads, path), prerendered, path);
      const html = head === undefined ? withBody : injectHead(withBody, head);
      // no-cache, not max-age: the page's title and content follow its task, which its poster may
      // change or close at any moment, and the HTML names this build's hashed assets. The ETag (of
      // the whole HTML, data included) lets a browser or CDN revalidate it with a 304 instead of the
      // body. The HTML is the same whoever asks (head and data hold only what a signed-out visitor
      // sees), so it does not vary by cookie.
      const etag = `"${createHash("sha256").update(html).digest("base64url").slice(0, 27)}"`;
      reply.header("cache-control", "no-cache").header("etag", etag);
      if (ifNoneMatch(request.headers["if-none-match"], etag)) return reply.code(304).send();
      reply.code(200).type("text/html; charset=utf-8").header("vary", "accept-encoding");
      // A prerendered page is 12-34 KB of markup, the same for every visitor of this build; a
      // server-rendered board about 200 KB with its data, the same for everyone while its answer
      // is: sent Brotli-compressed (a fifth to a fortieth), compressed once per distinct HTML and
      // kept. Server-rendered pages change with their data, so they are compressed at a quality
      // that costs about a millisecond.
      const rendered = page !== null || Object.hasOwn(prerendered, path);
      if (rendered && acceptsBrotli(request.headers["accept-encoding"])) {
        let compressed = brotliPages.get(etag);
        if (compressed) {
          brotliPages.delete(etag);
        } else {
          compressed = await brotli(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: page ? 5 : 9 } });
        }
        brotliPages.set(etag, compressed);
        if (brotliPages.size > MAX_COMPRESSED_PAGES) {
          const oldest = brotliPages.keys().next();
          if (!oldest.done) brotliPages.delete(oldest.value);
        }
        return reply.header("content-encoding", "br").send(compressed);
      }
      return reply.send(html);
    });
  },
  { name: "spa" },
);

/** Bounds the cache of compressed pages (each page's head, data and build make one entry); least recently used go first. */
const MAX_COMPRESSED_PAGES = 128;

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
