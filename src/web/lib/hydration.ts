import { useSyncExternalStore } from "react";

// A prerendered page (docs/decisions/033-prerendered-public-pages.md) must render, while React
// adopts its HTML, exactly what the build rendered: a signed-out visitor whose user is still
// loading, at the address without its query. Hydration can come late (a page's code-split chunk
// arrives after the current user has), and React never patches an attribute that differs from the
// HTML: "Become a Provider" stayed aria-disabled for good. useSyncExternalStore answers its server
// snapshot during the build's render and during hydration, then re-renders with the client's.

const subscribe = () => () => {};

/** True while rendering on the server or hydrating its HTML; false in every client render after. */
export function useHydrating(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => false,
    () => true,
  );
}
