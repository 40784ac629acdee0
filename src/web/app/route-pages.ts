import type { ComponentType } from "react";
import { NOT_FOUND_HEAD, ROUTE_HEADS, type PageRoute } from "@shared/page-head";

// What the router needs of the route table (src/shared/page-head.ts): each row's pattern, who may
// open it, and its page module's loader. The build writes this module out as the rows themselves and
// an import per page the table names (scripts/vite-route-table.ts), so the table's titles and
// descriptions stay out of every first load (the web app loads them at the first navigation,
// layout/route-head.tsx) and no module of routes/ that is not a page of the table (the settings
// tabs) gets a loader there.

export type PageLoader = () => Promise<{ default: ComponentType }>;

export type RouterRow = Pick<PageRoute, "pattern" | "access" | "signInPrompt"> & { load: PageLoader };

const loaders = import.meta.glob<{ default: ComponentType }>("./routes/*.tsx");

function routerRow({ pattern, page, access, signInPrompt }: PageRoute): RouterRow {
  const load = loaders[`./routes/${page}.tsx`];
  if (!load) throw new Error(`The route table names the page "${page}", but src/web/app/routes/${page}.tsx does not exist.`);
  return { pattern, access, ...(signInPrompt ? { signInPrompt } : {}), load };
}

export const ROUTER_ROWS: readonly RouterRow[] = ROUTE_HEADS.map(routerRow);

export const NOT_FOUND_ROW: RouterRow = routerRow(NOT_FOUND_HEAD);
