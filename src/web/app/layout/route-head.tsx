import { useEffect, useRef } from "react";
import { useLocation } from "wouter";

/**
 * Keeps the tab title and the meta description right while navigating, from the same route table
 * the server writes them from (src/shared/page-head.ts). The first page's head came with its HTML,
 * so the table (every route's title and description) loads at the first navigation, not with the
 * landing page (issue 17). A page that knows better (a task's own title, through useDocumentTitle)
 * has the last word: the table's title is written only if nobody changed the title while it loaded.
 */
export function RouteHead() {
  const [path] = useLocation();
  const firstPath = useRef(path);
  useEffect(() => {
    if (path === firstPath.current) return;
    firstPath.current = "";
    const titleBefore = document.title;
    let current = true;
    void import("@shared/page-head").then(({ fullTitle, matchRoute }) => {
      if (!current) return;
      const { route } = matchRoute(path);
      if (document.title === titleBefore) document.title = fullTitle(route.title);
      document.querySelector('meta[name="description"]')?.setAttribute("content", route.description);
    });
    return () => {
      current = false;
    };
  }, [path]);
  return null;
}
