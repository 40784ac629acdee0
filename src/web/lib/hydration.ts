import { createContext, useContext, useSyncExternalStore } from "react";

// A page rendered on the server (at build time, docs/decisions/033-prerendered-public-pages.md, or
// per request with its data, docs/decisions/036-server-rendered-data-pages.md) must render, while
// React adopts its HTML, exactly what the server rendered: a signed-out visitor whose user is still
// loading, at the server's time. Hydration can come late (a page's code-split chunk arrives after
// the current user has), and React never patches an attribute that differs from the HTML: "Become
// a Provider" stayed aria-disabled for good. useSyncExternalStore answers its server snapshot
// during the server's render and during hydration, then re-renders with the client's.

const subscribe = () => () => {};

/** True while rendering on the server or hydrating its HTML; false in every client render after. */
export function useHydrating(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => false,
    () => true,
  );
}

/** The server's clock when it rendered the page's HTML; null for a page rendered without one (built once, or in the browser). */
export const ServerRenderTime = createContext<Date | null>(null);

/**
 * "Now" for what a page writes from the clock ("Posted 5 minutes ago"): the server's render time
 * while its HTML is rendered and adopted, so the text matches, the browser's clock after.
 */
export function useRenderTime(): Date {
  const hydrating = useHydrating();
  const serverTime = useContext(ServerRenderTime);
  return hydrating && serverTime ? serverTime : new Date();
}
