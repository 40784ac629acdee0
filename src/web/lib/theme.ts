import { useCallback, useSyncExternalStore } from "react";

// Theme (docs/product.md#web-app): light or dark, stored under "theme", light by default. public/theme-init.js applies it
// before first paint; this keeps React in step with the <html> class.

export type Theme = "light" | "dark";
const listeners = new Set<() => void>();

function read(): Theme {
  return document.documentElement.classList.contains("dark") ? "dark" : "light";
}

export function setTheme(theme: Theme): void {
  document.documentElement.classList.toggle("dark", theme === "dark");
  try {
    localStorage.setItem("theme", theme);
  } catch {
    // Storage unavailable: the choice lasts for this page only.
  }
  for (const l of listeners) l();
}

export function useTheme(): { theme: Theme; toggle: () => void } {
  const theme = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    read,
    () => "light" as Theme,
  );
  const toggle = useCallback(() => setTheme(read() === "dark" ? "light" : "dark"), []);
  return { theme, toggle };
}
