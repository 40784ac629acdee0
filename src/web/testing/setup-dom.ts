import { afterAll, afterEach, vi } from "vitest";

// For the component tests (files that start with `// @vitest-environment jsdom`); the other unit
// tests run in Node, where this does nothing.
if (typeof window !== "undefined") {
  const { cleanup } = await import("@testing-library/react");
  const { dispatch } = await import("@/components/ui/use-toast");
  afterEach(() => cleanup());

  // The unit suite's worker keeps one window and the loaded modules for all its component files
  // (vitest.config.ts, `isolate: false`), so what a file leaves in them is undone when it ends: the
  // toast store (a module's state), storage, the address, stubbed globals and fake timers.
  afterAll(() => {
    dispatch({ type: "REMOVE_TOAST" });
    window.localStorage.clear();
    window.sessionStorage.clear();
    window.history.replaceState(null, "", "/");
    document.title = "";
    for (const name of document.documentElement.getAttributeNames()) document.documentElement.removeAttribute(name);
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  // Radix (Select, Dialog) calls these browser APIs, which jsdom does not implement.
  Element.prototype.hasPointerCapture ??= () => false;
  Element.prototype.setPointerCapture ??= () => undefined;
  Element.prototype.releasePointerCapture ??= () => undefined;
  Element.prototype.scrollIntoView ??= () => undefined;
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}
