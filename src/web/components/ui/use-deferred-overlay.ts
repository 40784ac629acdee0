import { useRef, useState } from "react";

// A dialog or popover whose code (Radix, Floating UI, a form) is its own chunk: fetched when the
// pointer or focus reaches its trigger, mounted at the first press and kept mounted after (so
// closing animates as any dialog does), so the page's first load carries only the trigger (issue 17,
// docs/decisions/041-forms-loaded-on-first-use.md). The trigger is a plain button, not Radix's
// Trigger, so this hook gives it what Radix's would have (the ARIA state, the toggle) and gives the
// overlay what Radix learns from its trigger: where focus returns on close, and that a press on the
// trigger is not a press outside.

export interface DeferredOverlay {
  open: boolean;
  setOpen: (open: boolean) => void;
  /** True from the first press on: render the lazily loaded overlay only then. */
  mounted: boolean;
  /** Spread on the trigger button. */
  triggerProps: {
    ref: React.RefObject<HTMLButtonElement | null>;
    "aria-haspopup": "dialog";
    "aria-expanded": boolean;
    onPointerEnter: () => void;
    onFocus: () => void;
    onClick: () => void;
  };
  /** The trigger's box, for a popover placed beside it (PopoverAnchor's virtualRef). */
  anchor: React.RefObject<{ getBoundingClientRect: () => DOMRect }>;
  /**
   * The overlay's onCloseAutoFocus: focus goes back to the trigger, as Radix does with its own,
   * unless the person closed it by pressing or focusing something else, which keeps the focus.
   */
  returnFocus: (event: Event) => void;
  /** The overlay's onInteractOutside: the trigger's own press toggles it, so it is not "outside". */
  onInteractOutside: (event: { target: EventTarget | null; preventDefault: () => void }) => void;
}

/** `initiallyOpen`: shown (so loaded) at once, as a page opened to continue in the overlay wants. */
export function useDeferredOverlay(load: () => Promise<unknown>, initiallyOpen = false): DeferredOverlay {
  const [open, setOpen] = useState(initiallyOpen);
  const [mounted, setMounted] = useState(initiallyOpen);
  const ref = useRef<HTMLButtonElement>(null);
  const leftOutside = useRef(false);
  const [anchor] = useState(() => ({ current: { getBoundingClientRect: () => ref.current?.getBoundingClientRect() ?? new DOMRect() } }));
  const prefetch = () => void load();
  return {
    open,
    setOpen,
    mounted,
    anchor,
    triggerProps: {
      ref,
      "aria-haspopup": "dialog",
      "aria-expanded": open,
      onPointerEnter: prefetch,
      onFocus: prefetch,
      onClick: () => {
        setMounted(true);
        setOpen(!open);
      },
    },
    returnFocus: (event) => {
      event.preventDefault();
      if (!leftOutside.current) ref.current?.focus();
      leftOutside.current = false;
    },
    onInteractOutside: (event) => {
      if (event.target instanceof Node && ref.current?.contains(event.target)) event.preventDefault();
      else leftOutside.current = true;
    },
  };
}
