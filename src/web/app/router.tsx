import { lazy, Suspense, type ComponentType, type LazyExoticComponent, type ReactElement } from "react";
import { Route, Switch } from "wouter";
import { Spinner } from "@/components/ui/spinner";
import { ProtectedRoute } from "./protected-route";
import { NOT_FOUND_ROW, ROUTER_ROWS, type PageLoader, type RouterRow } from "./route-pages";

// The router renders the route table (src/shared/page-head.ts, docs/decisions/055-one-route-table.md):
// add a page there, not here. Every page is its own chunk, so the landing page loads only what it
// shows (issue #8 budget).

// One lazy component per page module, made once: /jobs and /job-board render the same one.
const pages = new Map<PageLoader, LazyExoticComponent<ComponentType>>();

/** A row's page as the router renders it: behind <ProtectedRoute> unless anyone may open it. */
function pageElement({ load, access, signInPrompt }: RouterRow): ReactElement {
  let Page = pages.get(load);
  if (!Page) {
    Page = lazy(load);
    pages.set(load, Page);
  }
  if (access === "public") return <Page />;
  return (
    <ProtectedRoute role={access === "admin" ? "admin" : undefined} signInPrompt={signInPrompt}>
      <Page />
    </ProtectedRoute>
  );
}

const ROUTES = ROUTER_ROWS.map((row) => ({ pattern: row.pattern, element: pageElement(row) }));
const NOT_FOUND = pageElement(NOT_FOUND_ROW);

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
