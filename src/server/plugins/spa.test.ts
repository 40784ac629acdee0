import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import Fastify, { type FastifyInstance } from "fastify";
import { describe, expect, it, vi } from "vitest";
import type { AppContext } from "../context.js";
import spa, { injectDataPage, injectPrerendered, injectPreloads, scriptJson, type RoutePreloads, type SpaOptions } from "./spa.js";

// The page's chunks named in its HTML (issue 17, docs/decisions/029-lighter-first-load.md).

const INDEX = '<html><head><script type="module" src="/assets/index-1.js"></script></head><body></body></html>';
const PRELOADS: RoutePreloads = {
  "/": ["/assets/landing-1.js", "/assets/icon-1.js"],
  "/task/:id": ["/assets/task-detail-1.js"],
};

describe("injectPreloads", () => {
  it("names the matched route's chunks before </head>, after the entry", () => {
    const html = injectPreloads(INDEX, PRELOADS, "/");
    expect(html).toContain(
      '<script type="module" src="/assets/index-1.js"></script><link rel="modulepreload" crossorigin href="/assets/landing-1.js">\n<link rel="modulepreload" crossorigin href="/assets/icon-1.js">\n</head>',
    );
  });

  it("matches patterns with parameters, and leaves pages it has no chunks for alone", () => {
    expect(injectPreloads(INDEX, PRELOADS, "/task/8f1c2d34-0000-4000-8000-000000000000")).toContain('href="/assets/task-detail-1.js"');
    expect(injectPreloads(INDEX, PRELOADS, "/dashboard")).toBe(INDEX);
    expect(injectPreloads(INDEX, PRELOADS, "/no/such/page")).toBe(INDEX);
    expect(injectPreloads(INDEX, {}, "/")).toBe(INDEX);
  });
});

// A public page's markup rendered at build time (docs/decisions/033-prerendered-public-pages.md).
describe("injectPrerendered", () => {
  const page = '<body><div id="root"></div><script type="module" src="/assets/index-1.js"></script></body>';
  const pages = { "/pricing": "<main><h1>Pricing</h1><p>$5 and $$ stay as written</p></main>" };

  it("puts the page's markup inside the root element, as built (no $-pattern rewriting)", () => {
    expect(injectPrerendered(page, pages, "/pricing")).toBe(
      '<body><div id="root"><main><h1>Pricing</h1><p>$5 and $$ stay as written</p></main></div><script type="module" src="/assets/index-1.js"></script></body>',
    );
  });

  it("leaves every other address, and object keys that are not pages, with the empty root", () => {
    expect(injectPrerendered(page, pages, "/pricing/")).toBe(page);
    expect(injectPrerendered(page, pages, "/dashboard")).toBe(page);
    expect(injectPrerendered(page, pages, "/__proto__")).toBe(page);
    expect(injectPrerendered(page, pages, "/constructor")).toBe(page);
    expect(injectPrerendered("<body></body>", pages, "/pricing")).toBe("<body></body>");
  });
});

// The job board's first page and a task page rendered per request with their data
// (docs/decisions/036-server-rendered-data-pages.md): the data goes into the HTML as JSON that no
// user-written text can break out of.
describe("scriptJson", () => {
  it("escapes what could end the element or start markup, and reads back as the same value", () => {
    const value = { title: "</script><script>alert(1)</script>", note: "<!-- & -->", lines: "a\u2028b\u2029c" };
    const text = scriptJson(value);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(text).toContain("\\u003c/script\\u003e");
    expect(JSON.parse(text)).toEqual(value);
  });

  it("holds for any JSON value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string(), (value, text) => {
        for (const input of [value, { text }]) {
          const out = scriptJson(input);
          expect(out).not.toMatch(/[<>&\u2028\u2029]/);
          expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(input)));
        }
      }),
    );
  });
});

describe("injectDataPage", () => {
  const page = '<body><div id="root"></div><script type="module" src="/assets/index-1.js"></script></body>';

  it("puts the markup inside the root and the data element right after it, as given", () => {
    expect(injectDataPage(page, "<main><h1>$45 and $$</h1></main>", '{"a":"$&"}')).toBe(
      '<body><div id="root"><main><h1>$45 and $$</h1></main></div><script type="application/json" id="page-data">{"a":"$&"}</script><script type="module" src="/assets/index-1.js"></script></body>',
    );
  });

  it("leaves a page without the root element alone", () => {
    expect(injectDataPage("<body></body>", "<main></main>", "{}")).toBe("<body></body>");
  });
});

/** A built web app in a temporary folder: index.html, and the server renderer's module when given. */
function webBuild(renderer?: string): string {
  const dir = mkdtempSync(join(tmpdir(), "errandly-spa-"));
  writeFileSync(
    join(dir, "index.html"),
    '<html><head><!-- page-head --><title>Build title</title><!-- /page-head --></head><body><div id="root"></div></body></html>',
  );
  mkdirSync(join(dir, ".vite", "ssr"), { recursive: true });
  writeFileSync(join(dir, ".vite", "route-preloads.json"), JSON.stringify({ "/task/:id": ["/assets/task-detail-1.js"] }));
  if (renderer !== undefined) writeFileSync(join(dir, ".vite", "ssr", "entry-server.js"), renderer);
  return dir;
}

/** A renderer that renders every /task/:id page and fails for the task "broken". */
const RENDERER = `
export function pageDataRequest(path) {
  const id = /^\\/task\\/([^/]+)$/.exec(path)?.[1];
  return id ? { kind: "task", id } : null;
}
export async function renderDataPage(path, search, request, data, renderedAt) {
  if (request.id === "broken") throw new Error("render failed");
  return { markup: "<main><h1>" + data.title + "</h1></main>", state: { renderedAt: renderedAt.toISOString(), queries: [{ key: ["/api/tasks", request.id], data }] } };
}
`;

/** The spa plugin alone, on a web build, with the app's two lookups given by the test. */
async function spaApp(webDist: string, options: SpaOptions): Promise<FastifyInstance> {
  const app = Fastify();
  app.decorate("ctx", { env: { WEB_DIST_DIR: webDist }, now: () => new Date("2026-06-01T12:00:00Z") } as unknown as AppContext);
  await app.register(spa, options);
  await app.ready();
  return app;
}

const unreachable = () => Promise.reject(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }));
const TITLE_TAGS = "<title>Task | Errandly</title>";

describe("spa plugin: server-rendered pages", () => {
  it("renders a page with its answer and sends that answer along", async () => {
    const app = await spaApp(webBuild(RENDERER), {
      pageHead: async () => TITLE_TAGS,
      pageData: async () => ({ json: JSON.stringify({ title: "Walk the dog" }), etag: "v1" }),
    });
    const res = await app.inject({ url: "/task/1" });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root"><main><h1>Walk the dog</h1></main></div><script type="application/json" id="page-data">');
    expect(res.body).toContain(TITLE_TAGS);
    const state = /id="page-data">([^<]*)<\/script>/.exec(res.body)?.[1] ?? "";
    expect(JSON.parse(state)).toEqual({ renderedAt: "2026-06-01T12:00:00.000Z", queries: [{ key: ["/api/tasks", "1"], data: { title: "Walk the dog" } }] });
    await app.close();
  });

  it("serves the page as before when the database is away: no markup, no data, the build's title", async () => {
    const app = await spaApp(webBuild(RENDERER), { pageHead: unreachable, pageData: unreachable });
    const res = await app.inject({ url: "/task/1" });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root"></div>');
    expect(res.body).not.toContain("page-data");
    expect(res.body).toContain("<title>Build title</title>");
    await app.close();
  });

  it("serves the page as before when the renderer fails, or when there is no answer", async () => {
    const app = await spaApp(webBuild(RENDERER), {
      pageData: async (request) => (request.kind === "task" && request.id === "gone" ? null : { json: '{"title":"x"}', etag: "v1" }),
    });
    for (const url of ["/task/broken", "/task/gone"]) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('<div id="root"></div>');
      expect(res.body, url).not.toContain("page-data");
      expect(res.body, url).toContain('<link rel="modulepreload" crossorigin href="/assets/task-detail-1.js">');
    }
    await app.close();
  });

  it("names no page chunk to preload in a page that paints from its HTML", async () => {
    const app = await spaApp(webBuild(RENDERER), { pageData: async () => ({ json: '{"title":"x"}', etag: "v1" }) });
    const res = await app.inject({ url: "/task/1" });
    expect(res.body).toContain("<h1>x</h1>");
    expect(res.body).not.toContain("modulepreload");
    await app.close();
  });

  it("starts without a renderer, or with one that cannot load, and never asks for data then", async () => {
    const pageData = vi.fn(async () => ({ json: '{"title":"x"}', etag: "v1" }));
    for (const dist of [webBuild(), webBuild("export const broken = ;"), webBuild("throw new Error('no');")]) {
      const app = await spaApp(dist, { pageData });
      const res = await app.inject({ url: "/task/1" });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<div id="root"></div>');
      await app.close();
    }
    expect(pageData).not.toHaveBeenCalled();
  });
});
