import { describe, expect, it } from "vitest";
import { NOT_FOUND_HEAD, ROUTE_HEADS } from "@shared/page-head";

// The router renders the route table (src/shared/page-head.ts, docs/decisions/055-one-route-table.md);
// a row naming a page module that does not exist would stop the web app at its first line.

const pageModules = Object.keys(import.meta.glob("./routes/*.tsx"));

describe("the route table", () => {
  it("names an existing page module in every row", () => {
    expect(ROUTE_HEADS.length).toBeGreaterThan(30);
    for (const route of [...ROUTE_HEADS, NOT_FOUND_HEAD]) expect(pageModules, route.pattern).toContain(`./routes/${route.page}.tsx`);
  });

  it("has each pattern once", () => {
    const patterns = ROUTE_HEADS.map((r) => r.pattern);
    expect(new Set(patterns).size).toBe(patterns.length);
  });

  it("prerenders only public pages without a subject", () => {
    for (const route of ROUTE_HEADS.filter((r) => r.prerender)) {
      expect(route.access, route.pattern).toBe("public");
      expect(route.subject, route.pattern).toBeUndefined();
    }
  });

  it("keeps the sign-in prompt for pages behind sign-in", () => {
    for (const route of ROUTE_HEADS.filter((r) => r.signInPrompt)) expect(route.access, route.pattern).toBe("signed-in");
  });
});
