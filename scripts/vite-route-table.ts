import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Plugin } from "vite";
import { NOT_FOUND_HEAD, ROUTE_HEADS, type PageRoute } from "../src/shared/page-head.js";

/**
 * The source of src/web/app/route-pages.ts as the build writes it: a loader per page module the table
 * names, and the router's rows as short arrays naming their loader (no head tags, no page names, no
 * repeated keys: about 0.2 KB of every first load), made into the same objects as the module it
 * replaces. Fails the build when a row names a missing module.
 */
export function routePagesModule(pagesDir: string): string {
  const rows = [...ROUTE_HEADS, NOT_FOUND_HEAD];
  const pages = [...new Set(rows.map((r) => r.page))];
  const missing = pages.filter((page) => !existsSync(join(pagesDir, `${page}.tsx`)));
  if (missing.length > 0) throw new Error(`route-table: no module in ${pagesDir} for the pages ${missing.join(", ")}.`);
  const written = ({ pattern, page, access, signInPrompt }: PageRoute) =>
    `[${[JSON.stringify(pattern), `page${pages.indexOf(page)}`, JSON.stringify(access), ...(signInPrompt ? [JSON.stringify(signInPrompt)] : [])].join(", ")}]`;
  return [
    ...pages.map((page, i) => `const page${i} = () => import(${JSON.stringify(`./routes/${page}.tsx`)});`),
    "const row = ([pattern, load, access, signInPrompt]) => ({ pattern, access, ...(signInPrompt ? { signInPrompt } : {}), load });",
    `export const ROUTER_ROWS = [${ROUTE_HEADS.map(written).join(", ")}].map(row);`,
    `export const NOT_FOUND_ROW = row(${written(NOT_FOUND_HEAD)});`,
  ].join("\n");
}

/**
 * The build's side of the route table (src/shared/page-head.ts, docs/decisions/055-one-route-table.md):
 * - `routePages` (src/web/app/route-pages.ts) is loaded as its rows and page loaders written out, in
 *   the client and the server build alike, so every page's title and description stay out of the
 *   first load (issue 17);
 * - in the client build, writes `.vite/route-preloads.json`: for each public page of the table, its
 *   page chunk and the chunks that page imports, less what index.html already loads. The server puts
 *   them in the page's HTML as `<link rel="modulepreload">` (src/server/plugins/spa.ts), so the
 *   browser fetches the page's code beside the entry instead of after it has run (issue 17, decision
 *   029). Pages behind sign-in are left out: the HTML is the same for everyone, and a visitor never
 *   loads their chunks.
 */
export function routeTable({ routePages, pagesDir }: { routePages: string; pagesDir: string }): Plugin {
  let ssr = false;
  return {
    name: "errandly:route-table",
    configResolved(config) {
      ssr = Boolean(config.build.ssr);
    },
    load(id) {
      return id === routePages ? { code: routePagesModule(pagesDir), map: null } : null;
    },
    generateBundle(_options, bundle) {
      if (ssr) return;
      const chunks = Object.values(bundle).filter((c) => c.type === "chunk");
      const entry = chunks.find((c) => c.isEntry);
      if (!entry) return this.error("route-table: no entry chunk");
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const closure = (start: string[]): Set<string> => {
        const seen = new Set<string>();
        const visit = (file: string) => {
          if (seen.has(file)) return;
          seen.add(file);
          for (const next of byFile.get(file)?.imports ?? []) visit(next);
        };
        start.forEach(visit);
        return seen;
      };
      const loadedByIndex = closure([entry.fileName]);

      const preloads: Record<string, string[]> = {};
      for (const { pattern, page } of ROUTE_HEADS.filter((r) => r.access === "public")) {
        const moduleId = join(pagesDir, `${page}.tsx`);
        const chunk = chunks.find((c) => c.facadeModuleId === moduleId);
        if (!chunk) return this.error(`route-table: no chunk for ${moduleId}`);
        preloads[pattern] = [...closure([chunk.fileName])].filter((f) => !loadedByIndex.has(f)).map((f) => `/${f}`);
      }
      this.emitFile({ type: "asset", fileName: ".vite/route-preloads.json", source: JSON.stringify(preloads, null, 2) });
    },
  };
}
