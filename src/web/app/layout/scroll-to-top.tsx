import { useEffect } from "react";
import { useLocation, useSearch } from "wouter";

/** Spec §2: the page scrolls to the top on every change of URL search parameters (and of path). */
export function ScrollToTopOnSearchChange() {
  const search = useSearch();
  const [location] = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [search, location]);
  return null;
}
