import * as React from "react";

import type { ToastActionElement, ToastProps } from "@/components/ui/toast";

/** One toast visible at a time; a new toast replaces the current one (docs/product.md#web-app). */
export const TOAST_LIMIT = 1;
/** A dismissed toast stays in the store (closed) this long before it is removed (docs/product.md#web-app). */
export const TOAST_REMOVE_DELAY = 1_000_000;

export type ToasterToast = ToastProps & {
  id: string;
  title?: React.ReactNode;
  description?: React.ReactNode;
  action?: ToastActionElement;
};

export type ToastInput = Omit<ToasterToast, "id">;

export type ToastAction =
  | { type: "ADD_TOAST"; toast: ToasterToast }
  | { type: "UPDATE_TOAST"; toast: Partial<ToasterToast> & { id: string } }
  /** Without a toastId every toast is dismissed. */
  | { type: "DISMISS_TOAST"; toastId?: string }
  /** Without a toastId every toast is removed. */
  | { type: "REMOVE_TOAST"; toastId?: string };

export type ToastState = { toasts: ToasterToast[] };

/** Pure state transition; timers live in `dispatch` so this stays trivially testable. */
export function reducer(state: ToastState, action: ToastAction): ToastState {
  switch (action.type) {
    case "ADD_TOAST":
      // Newest first, then trim: with a limit of 1 the previous toast is dropped outright.
      return { toasts: [action.toast, ...state.toasts].slice(0, TOAST_LIMIT) };
    case "UPDATE_TOAST":
      return {
        toasts: state.toasts.map((t) => (t.id === action.toast.id ? { ...t, ...action.toast } : t)),
      };
    case "DISMISS_TOAST": {
      const { toastId } = action;
      return {
        toasts: state.toasts.map((t) => (toastId === undefined || t.id === toastId ? { ...t, open: false } : t)),
      };
    }
    case "REMOVE_TOAST": {
      const { toastId } = action;
      return { toasts: toastId === undefined ? [] : state.toasts.filter((t) => t.id !== toastId) };
    }
  }
}

// Module-level store so `toast()` works from anywhere (mutation callbacks, plain functions),
// not only from components under the Toaster.
let memoryState: ToastState = { toasts: [] };
const listeners = new Set<() => void>();
const removeTimeouts = new Map<string, ReturnType<typeof setTimeout>>();
let count = 0;

function genId(): string {
  count = (count + 1) % Number.MAX_SAFE_INTEGER;
  return count.toString();
}

function scheduleRemoval(toastId: string): void {
  if (removeTimeouts.has(toastId)) return;
  const timeout = setTimeout(() => {
    removeTimeouts.delete(toastId);
    dispatch({ type: "REMOVE_TOAST", toastId });
  }, TOAST_REMOVE_DELAY);
  removeTimeouts.set(toastId, timeout);
}

export function dispatch(action: ToastAction): void {
  if (action.type === "DISMISS_TOAST") {
    if (action.toastId === undefined) {
      for (const t of memoryState.toasts) scheduleRemoval(t.id);
    } else {
      scheduleRemoval(action.toastId);
    }
  }
  memoryState = reducer(memoryState, action);
  // A toast pushed out by the limit or removed early no longer needs its removal timer.
  for (const [id, timeout] of removeTimeouts) {
    if (!memoryState.toasts.some((t) => t.id === id)) {
      clearTimeout(timeout);
      removeTimeouts.delete(id);
    }
  }
  for (const listener of listeners) listener();
}

export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function getSnapshot(): ToastState {
  return memoryState;
}

export function dismissToast(toastId?: string): void {
  dispatch({ type: "DISMISS_TOAST", toastId });
}

export type ToastHandle = {
  id: string;
  dismiss: () => void;
  update: (props: Partial<ToastInput>) => void;
};

/** Shows a toast, e.g. `toast({ title: "Error", description: "...", variant: "destructive" })`. */
export function toast({ onOpenChange, ...props }: ToastInput): ToastHandle {
  const id = genId();
  const dismiss = () => dismissToast(id);
  const update = (next: Partial<ToastInput>) => dispatch({ type: "UPDATE_TOAST", toast: { ...next, id } });

  dispatch({
    type: "ADD_TOAST",
    toast: {
      ...props,
      id,
      open: true,
      // Radix reports its 5 s timeout, swipes, Escape and the close button through onOpenChange.
      onOpenChange: (open) => {
        if (!open) dismiss();
        onOpenChange?.(open);
      },
    },
  });

  return { id, dismiss, update };
}

export function useToast() {
  const state = React.useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  return { ...state, toast, dismiss: dismissToast };
}
