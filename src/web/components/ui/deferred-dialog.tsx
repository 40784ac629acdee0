import { cloneElement, lazy, Suspense, type ComponentProps, type ComponentType, type ReactElement, type ReactNode } from "react";
import { useDeferredOverlay, type DeferredOverlay } from "./use-deferred-overlay";

// The one way to load a dialog or popover on first use (docs/decisions/041-forms-loaded-on-first-use.md):
// its code is a chunk fetched when the pointer or focus reaches the trigger, mounted at the first
// press and kept mounted after, and focus goes back to the trigger when it closes (the overlay
// passes `overlay.returnFocus` to its content's onCloseAutoFocus). deferred-dialog.test.tsx holds it.

/** An overlay's chunk: `load` fetches it, `Component` renders it (made once, at module level). */
export interface DeferredPart<P> {
  load: () => Promise<unknown>;
  Component: ComponentType<P>;
}

/** `deferredPart(() => import("./tip-dialog"), (m) => m.TipDialog)`, written beside the trigger's component. */
export function deferredPart<M, P>(load: () => Promise<M>, pick: (module: M) => ComponentType<P>): DeferredPart<P> {
  return { load, Component: lazy(() => load().then((module) => ({ default: pick(module) }))) };
}

export interface DeferredDialogProps<P> {
  part: DeferredPart<P>;
  /** The button that opens the overlay; it keeps its own label, disabled state and accessible name. */
  trigger: ReactElement<ComponentProps<"button">>;
  /** Shown (so loaded) at once, as a page opened to continue in the overlay wants. */
  initiallyOpen?: boolean;
  /** Runs when a press on the trigger opens the overlay, before it shows (the bell marks its notices read). */
  onOpen?: () => void;
  /** The overlay, given its state: `<part.Component overlay={overlay} … />`. */
  children: (overlay: DeferredOverlay) => ReactNode;
}

export function DeferredDialog<P>({ part, trigger, initiallyOpen = false, onOpen, children }: DeferredDialogProps<P>) {
  const overlay = useDeferredOverlay(part.load, initiallyOpen);
  const toggle = () => {
    if (!overlay.open) onOpen?.();
    overlay.triggerProps.onClick();
  };
  return (
    <>
      {cloneElement(trigger, { ...overlay.triggerProps, onClick: toggle })}
      {overlay.mounted && <Suspense fallback={null}>{children(overlay)}</Suspense>}
    </>
  );
}
