import { describe, expect, it } from "vitest";
import { injectPrerendered, injectPreloads, type RoutePreloads } from "./spa.js";

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
