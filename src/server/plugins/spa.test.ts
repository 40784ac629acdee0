import { describe, expect, it } from "vitest";
import { injectPreloads, type RoutePreloads } from "./spa.js";

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
