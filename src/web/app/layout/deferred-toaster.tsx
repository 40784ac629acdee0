import { lazy, Suspense, useState, useSyncExternalStore } from "react";
import { getSnapshot, subscribe } from "@/components/ui/use-toast";

// Radix Toast (with its collection, dismissable layer, presence and portal) is about 8 KB of
// gzipped JavaScript that no first paint uses: a toast only ever answers something the person did.
// `toast()` is a module-level store (use-toast.ts), so a toast raised before this chunk arrives
// waits in the store and shows once the Toaster mounts (issue 17, decision 029).
const Toaster = lazy(() => import("@/components/ui/toaster").then((m) => ({ default: m.Toaster })));

/** Mounts the Toaster at the first toast and keeps it mounted, so later toasts animate as before. */
export function DeferredToaster() {
  const { toasts } = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  const [needed, setNeeded] = useState(false);
  // Derived state latched during render (React's documented pattern): no effect, no extra frame.
  if (toasts.length > 0 && !needed) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
