import { useEffect } from "react";
import { useLocation, useSearch } from "wouter";
import { noteNavigation } from "@/lib/in-app-history";

// Where each page was scrolled to, by address, for Back and Forward (docs/product.md#web-app).
const positions = new Map<string, number>();
/** Set by the browser's Back/Forward (popstate) until the next change of address is handled. */
let returning = false;
let first = true;
/** How long a restored position waits for the page (a code-split chunk, cached data) to grow tall enough. */
const RESTORE_FOR_MS = 1500;

// Registered when the module loads, before the router's own popstate listener: the router re-renders
// (and runs the effect below) inside its listener, which must already find `returning` set.
if (typeof window !== "undefined") {
  window.addEventListener("popstate", () => {
    returning = true;
  });
}

const here = () => `${window.location.pathname}${window.location.search}`;

/**
 * A new page opens at its top, on every change of path or search parameters; Back and Forward
 * return to where that page was scrolled instead (the browser's own restoration cannot, because
 * pages render after the address changes).
 */
export function ScrollToTopOnSearchChange() {
  const search = useSearch();
  const [location] = useLocation();

  useEffect(() => {
    window.history.scrollRestoration = "manual";
    let frame = 0;
    const onScroll = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        positions.set(here(), window.scrollY);
      });
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      window.removeEventListener("scroll", onScroll);
      cancelAnimationFrame(frame);
    };
  }, []);

  useEffect(() => {
    const target = returning ? (positions.get(here()) ?? 0) : 0;
    noteNavigation(returning, first);
    returning = false;
    first = false;
    window.scrollTo(0, target);
    if (target === 0) return;
    // The page may still be loading: keep trying until it is tall enough or the user scrolls.
    const started = performance.now();
    let frame = requestAnimationFrame(function retry() {
      if (Math.abs(window.scrollY - target) < 2 || performance.now() - started > RESTORE_FOR_MS) return;
      window.scrollTo(0, target);
      frame = requestAnimationFrame(retry);
    });
    const stop = () => cancelAnimationFrame(frame);
    window.addEventListener("wheel", stop, { once: true, passive: true });
    window.addEventListener("touchstart", stop, { once: true, passive: true });
    return () => {
      stop();
      window.removeEventListener("wheel", stop);
      window.removeEventListener("touchstart", stop);
    };
  }, [search, location]);
  return null;
}
