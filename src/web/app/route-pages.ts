import type { ComponentType } from "react";
import { NOT_FOUND_HEAD, ROUTE_HEADS, routePage, type RoutePage } from "@shared/page-head";

// What the router needs of the route table (src/shared/page-head.ts): each row's pattern, page
// module and who may open it, and a loader per page module. The build writes this module out as the
// rows themselves and an import per page the table names (scripts/vite-route-table.ts), so the
// table's titles and descriptions stay out of every first load (the web app loads them at the first
// navigation, layout/route-head.tsx) and no module of routes/ that is not a page of the table (the
// settings tabs) gets a loader in it.

export const ROUTE_PAGES: readonly RoutePage[] = ROUTE_HEADS.map(routePage);

export const NOT_FOUND_PAGE: RoutePage = routePage(NOT_FOUND_HEAD);

/** Page module name ("landing" for routes/landing.tsx) to its loader. */
export const PAGE_LOADERS: Record<string, () => Promise<{ default: ComponentType }>> = Object.fromEntries(
  Object.entries(import.meta.glob<{ default: ComponentType }>("./routes/*.tsx")).map(([path, load]) => [path.replace(/^\.\/routes\/|\.tsx$/g, ""), load]),
);
