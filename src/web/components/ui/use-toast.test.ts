import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import type * as ToastModule from "./use-toast";
import { reducer, TOAST_LIMIT, TOAST_REMOVE_DELAY, type ToasterToast, type ToastState } from "./use-toast";

// The store is module state; a fresh module per test keeps ids and timers independent.
async function freshStore(): Promise<typeof ToastModule> {
  vi.resetModules();
  return import("./use-toast");
}

const make = (id: string, extra: Partial<ToasterToast> = {}): ToasterToast => ({ id, open: true, title: `t${id}`, ...extra });

describe("toast constants (docs/product.md#web-app)", () => {
  it("shows one toast at a time and removes dismissed toasts after 1,000,000 ms", () => {
    expect(TOAST_LIMIT).toBe(1);
    expect(TOAST_REMOVE_DELAY).toBe(1_000_000);
  });
});

describe("reducer", () => {
  it("adds a toast to an empty state", () => {
    const next = reducer({ toasts: [] }, { type: "ADD_TOAST", toast: make("1") });
    expect(next.toasts.map((t) => t.id)).toEqual(["1"]);
  });

  it("replaces the visible toast when a second one is added (limit 1)", () => {
    const one: ToastState = { toasts: [make("1")] };
    const next = reducer(one, { type: "ADD_TOAST", toast: make("2") });
    expect(next.toasts.map((t) => t.id)).toEqual(["2"]);
  });

  it("does not mutate the previous state", () => {
    const before: ToastState = { toasts: [make("1")] };
    reducer(before, { type: "DISMISS_TOAST", toastId: "1" });
    expect(before.toasts[0]?.open).toBe(true);
  });

  it("updates only the matching toast", () => {
    const next = reducer({ toasts: [make("1")] }, { type: "UPDATE_TOAST", toast: { id: "1", title: "changed" } });
    expect(next.toasts[0]).toMatchObject({ id: "1", title: "changed", open: true });
    const untouched = reducer({ toasts: [make("1")] }, { type: "UPDATE_TOAST", toast: { id: "9", title: "x" } });
    expect(untouched.toasts[0]?.title).toBe("t1");
  });

  it("dismiss marks the toast open=false but keeps it", () => {
    const next = reducer({ toasts: [make("1")] }, { type: "DISMISS_TOAST", toastId: "1" });
    expect(next.toasts).toHaveLength(1);
    expect(next.toasts[0]?.open).toBe(false);
  });

  it("dismiss without an id closes every toast", () => {
    const next = reducer({ toasts: [make("1"), make("2")] }, { type: "DISMISS_TOAST" });
    expect(next.toasts.every((t) => t.open === false)).toBe(true);
  });

  it("remove deletes the matching toast, or all without an id", () => {
    const two: ToastState = { toasts: [make("1"), make("2")] };
    expect(reducer(two, { type: "REMOVE_TOAST", toastId: "1" }).toasts.map((t) => t.id)).toEqual(["2"]);
    expect(reducer(two, { type: "REMOVE_TOAST" }).toasts).toEqual([]);
  });
});

describe("store", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("toast() opens a toast with its title, description and variant", async () => {
    const store = await freshStore();
    store.toast({ title: "Error", description: "Failed to claim task. Please try again.", variant: "destructive" });
    const [only] = store.getSnapshot().toasts;
    expect(only).toMatchObject({ open: true, title: "Error", variant: "destructive" });
  });

  it("a second toast() replaces the first", async () => {
    const store = await freshStore();
    const first = store.toast({ title: "first" });
    const second = store.toast({ title: "second" });
    const ids = store.getSnapshot().toasts.map((t) => t.id);
    expect(ids).toEqual([second.id]);
    expect(ids).not.toContain(first.id);
  });

  it("removes a dismissed toast only after TOAST_REMOVE_DELAY", async () => {
    const store = await freshStore();
    const handle = store.toast({ title: "bye" });
    handle.dismiss();
    expect(store.getSnapshot().toasts[0]?.open).toBe(false);

    vi.advanceTimersByTime(TOAST_REMOVE_DELAY - 1);
    expect(store.getSnapshot().toasts).toHaveLength(1);

    vi.advanceTimersByTime(1);
    expect(store.getSnapshot().toasts).toHaveLength(0);
  });

  it("closing through Radix (onOpenChange(false)) dismisses and forwards the callback", async () => {
    const store = await freshStore();
    const onOpenChange = vi.fn();
    store.toast({ title: "auto", onOpenChange });
    store.getSnapshot().toasts[0]?.onOpenChange?.(false);
    expect(store.getSnapshot().toasts[0]?.open).toBe(false);
    expect(onOpenChange).toHaveBeenCalledWith(false);
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY);
    expect(store.getSnapshot().toasts).toHaveLength(0);
  });

  it("drops the removal timer of a toast replaced by a newer one", async () => {
    const store = await freshStore();
    store.toast({ title: "first" }).dismiss();
    const second = store.toast({ title: "second" });
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY);
    expect(store.getSnapshot().toasts.map((t) => t.id)).toEqual([second.id]);
  });

  it("update() changes the open toast and subscribers are notified", async () => {
    const store = await freshStore();
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    const handle = store.toast({ title: "Posting..." });
    handle.update({ title: "Success" });
    expect(store.getSnapshot().toasts[0]?.title).toBe("Success");
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
    handle.dismiss();
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it("dismissToast() without an id closes the open toast", async () => {
    const store = await freshStore();
    store.toast({ title: "x" });
    store.dismissToast();
    expect(store.getSnapshot().toasts[0]?.open).toBe(false);
  });
});
