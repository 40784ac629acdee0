import { describe, expect, it } from "vitest";
import { ROUTE_HEADS } from "@shared/page-head";
import routerSource from "./router.tsx?raw";

// Every page's title and description live in the shared route table (src/shared/page-head.ts),
// which the server writes into the HTML; a route added to the router without a row there would
// get the not-found title and noindex from the server (docs/decisions/028-head-tags-from-the-server.md).

describe("the route table", () => {
  it("has exactly the router's routes", () => {
    const routerPatterns = [...routerSource.matchAll(/<Route path="([^"]+)"/g)].map((m) => m[1]);
    expect(routerPatterns.length).toBeGreaterThan(30);
    expect(ROUTE_HEADS.map((r) => r.pattern).sort()).toEqual([...routerPatterns].sort());
  });
});
