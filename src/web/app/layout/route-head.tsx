import { useEffect } from "react";
import { useLocation } from "wouter";
import { fullTitle, matchRoute } from "@shared/page-head";

/**
 * Keeps the tab title and the meta description right while navigating, from the same route table
 * the server writes them from (src/shared/page-head.ts). Rendered before the router: React runs
 * its effect before the page's, so a page that knows better (a task's own title, through
 * useDocumentTitle) has the last word.
 */
export function RouteHead() {
  const [path] = useLocation();
  useEffect(() => {
    const { route } = matchRoute(path);
    document.title = fullTitle(route.title);
    document.querySelector('meta[name="description"]')?.setAttribute("content", route.description);
  }, [path]);
  return null;
}
