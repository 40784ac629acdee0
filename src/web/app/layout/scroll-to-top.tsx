import { useEffect } from "react";
import { useLocation, useSearch } from "wouter";

/** The page scrolls to the top on every change of URL search parameters and of path (docs/product.md#web-app). */
export function ScrollToTopOnSearchChange() {
  const search = useSearch();
  const [location] = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [search, location]);
  return null;
}
