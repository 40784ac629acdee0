import { describe, expect, it } from "vitest";
import { NOT_FOUND_HEAD, ROUTE_HEADS, type RoutePage } from "../src/shared/page-head.js";
import { routePagesModule } from "./vite-route-table.js";

// The build loads src/web/app/route-pages.ts as its rows written out (docs/decisions/055-one-route-table.md):
// what the built router sees must be what the module computes in development and in tests.

// Through a variable: the web module is type-checked with the web app (tsconfig.web.json), not here.
const routePagesPath = "../src/web/app/route-pages.js";
const { NOT_FOUND_PAGE, PAGE_LOADERS, ROUTE_PAGES } = (await import(routePagesPath)) as {
  NOT_FOUND_PAGE: RoutePage;
  PAGE_LOADERS: Record<string, unknown>;
  ROUTE_PAGES: RoutePage[];
};

const [rows, notFound, loaders] = routePagesModule().split("\n");
const constant = (line: string | undefined, name: string) => {
  const prefix = `export const ${name} = `;
  expect(line?.startsWith(prefix), line).toBe(true);
  return line?.slice(prefix.length, -1) ?? "";
};

describe("the build's route-pages module", () => {
  it("holds the same rows as the module it replaces, and no head tags", () => {
    expect(JSON.parse(constant(rows, "ROUTE_PAGES"))).toEqual(ROUTE_PAGES);
    expect(JSON.parse(constant(notFound, "NOT_FOUND_PAGE"))).toEqual(NOT_FOUND_PAGE);
    for (const { description } of ROUTE_HEADS) expect(routePagesModule()).not.toContain(description);
  });

  it("loads each page the table names, from the module the router would load it from", () => {
    const pages = new Set([...ROUTE_HEADS, NOT_FOUND_HEAD].map((r) => r.page));
    const written = [...constant(loaders, "PAGE_LOADERS").matchAll(/"([\w-]+)": \(\) => import\("\.\/routes\/([\w-]+)\.tsx"\)/g)];
    expect(written.map((m) => m[1])).toEqual([...pages]);
    for (const [, page, file] of written) {
      expect(file).toBe(page);
      expect(PAGE_LOADERS, page).toHaveProperty(page ?? "");
    }
  });
});
