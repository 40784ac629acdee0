import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NOT_FOUND_HEAD, ROUTE_HEADS, type PageRoute } from "../src/shared/page-head.js";
import { routePagesModule } from "./vite-route-table.js";

// The build loads src/web/app/route-pages.ts as its rows written out (docs/decisions/055-one-route-table.md):
// what the built router sees must be what the module computes in development and in tests.

interface Row {
  pattern: string;
  access: string;
  signInPrompt?: unknown;
  load: () => unknown;
}
type RouterModule = { ROUTER_ROWS: Row[]; NOT_FOUND_ROW: Row };

const PAGES_DIR = join(import.meta.dirname, "../src/web/app/routes");

/** Runs the written module's source without loading any page (its imports are inside the loaders). */
function runWritten(source: string): RouterModule {
  const exported: Partial<RouterModule> = {};
  new Function("exported", source.replace(/^export const (\w+) =/gm, "exported.$1 ="))(exported);
  return exported as RouterModule;
}

// Through a variable: the web module is type-checked with the web app (tsconfig.web.json), not here.
const routePagesPath = "../src/web/app/route-pages.js";
const actual = (await import(routePagesPath)) as RouterModule;
const written = runWritten(routePagesModule(PAGES_DIR));

const withoutLoader = ({ load: _load, ...row }: Row) => row;
const expectedRow = ({ pattern, access, signInPrompt }: PageRoute) => ({ pattern, access, ...(signInPrompt ? { signInPrompt } : {}) });

describe("the build's route-pages module", () => {
  it("holds the same rows as the module it replaces, and no head tags", () => {
    expect(written.ROUTER_ROWS.map(withoutLoader)).toEqual(ROUTE_HEADS.map(expectedRow));
    expect(actual.ROUTER_ROWS.map(withoutLoader)).toEqual(ROUTE_HEADS.map(expectedRow));
    expect(withoutLoader(written.NOT_FOUND_ROW)).toEqual(withoutLoader(actual.NOT_FOUND_ROW));
    for (const { description } of ROUTE_HEADS) expect(routePagesModule(PAGES_DIR)).not.toContain(description);
  });

  it("loads each row's page module, one loader per module", () => {
    const rows = [...written.ROUTER_ROWS, written.NOT_FOUND_ROW];
    [...ROUTE_HEADS, NOT_FOUND_HEAD].forEach(({ page }, i) => expect(String(rows[i]?.load)).toContain(`"./routes/${page}.tsx"`));
    const jobs = rows.filter((r) => r.pattern === "/jobs" || r.pattern === "/job-board");
    expect(jobs[0]?.load).toBe(jobs[1]?.load);
  });

  it("fails the build for a page without a module", () => {
    expect(() => routePagesModule(join(PAGES_DIR, "nowhere"))).toThrow(/no module in .* for the pages landing/);
  });
});
