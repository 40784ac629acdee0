import { useEffect } from "react";
import { useLocation } from "wouter";
import { fullTitle } from "@shared/page-head";

/**
 * A page's own tab title where it depends on data (a task's title, a person's name). Pages whose
 * title is fixed take it from the route table instead (src/shared/page-head.ts, applied by
 * RouteHead). Null leaves the route's title. The path is a dependency so the title is set again
 * after RouteHead resets it on a move between two pages of the same kind.
 */
export function useDocumentTitle(title: string | null): void {
  const [path] = useLocation();
  useEffect(() => {
    if (title !== null) document.title = fullTitle(title);
  }, [title, path]);
}
