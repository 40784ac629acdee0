import { lazy, Suspense, type ComponentType, type LazyExoticComponent, type ReactElement } from "react";
import { Route, Switch } from "wouter";
import { Spinner } from "@/components/ui/spinner";
import { ProtectedRoute } from "./protected-route";
import type { RoutePage } from "@shared/page-head";
import { NOT_FOUND_PAGE, PAGE_LOADERS, ROUTE_PAGES } from "./route-pages";

// The router renders the route table (src/shared/page-head.ts, docs/decisions/055-one-route-table.md):
// add a page there, not here. Every page is its own chunk, so the landing page loads only what it
// shows (issue #8 budget).

// One lazy component per page module, made once: /jobs and /job-board render the same one.
const pages = new Map<string, LazyExoticComponent<ComponentType>>();

/** A row's page as the router renders it: behind <ProtectedRoute> unless anyone may open it. */
function pageElement(route: RoutePage): ReactElement {
  let Page = pages.get(route.page);
  if (!Page) {
    const load = PAGE_LOADERS[route.page];
    if (!load) throw new Error(`The route table names the page "${route.page}", but src/web/app/routes/${route.page}.tsx does not exist.`);
    Page = lazy(load);
    pages.set(route.page, Page);
  }
  if (route.access === "public") return <Page />;
  return (
    <ProtectedRoute role={route.access === "admin" ? "admin" : undefined} signInPrompt={route.signInPrompt}>
      <Page />
    </ProtectedRoute>
  );
}

const ROUTES = ROUTE_PAGES.map((route) => ({ pattern: route.pattern, element: pageElement(route) }));
const NOT_FOUND = pageElement(NOT_FOUND_PAGE);

function PageFallback() {
  return (
    <div className="flex min-h-[50vh] items-center justify-center">
      <Spinner />
    </div>
  );
}

export function Router() {
  return (
    <Suspense fallback={<PageFallback />}>
      <Switch>
        {ROUTES.map(({ pattern, element }) => (
          <Route key={pattern} path={pattern}>
            {element}
          </Route>
        ))}
        <Route>{NOT_FOUND}</Route>
      </Switch>
    </Suspense>
  );
}
