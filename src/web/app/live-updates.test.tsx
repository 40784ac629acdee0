// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, render } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { notificationsQueryKey } from "@/features/notifications/api/get-notifications";
import { receiptsQueryKey } from "@/features/payments/api/get-receipts";
import { payoutHistoryQueryKey } from "@/features/payments/api/get-statements";
import { taskReviewsQueryKey } from "@/features/reviews/api/get-task-reviews";
import { taskQueryKey } from "@/features/tasks/api/get-task";
import { userQueryKey } from "@/lib/current-user";
import LiveUpdates from "./live-updates";

// After the socket comes back (its instance died or restarted behind the balancer, docs/deploy.md)
// nothing says which tasks changed meanwhile: everything a task_updated frame would have refreshed
// is refreshed, for every task, along with the bell.

class FakeSocket {
  static instances: FakeSocket[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.instances.push(this);
  }
  send() {}
  close() {}
  /** Opens, and the server answers the bell's subscription as it does. */
  subscribe() {
    this.onopen?.();
    this.onmessage?.({ data: JSON.stringify({ type: "notification", unreadCount: 0 }) });
  }
}

beforeEach(() => {
  FakeSocket.instances = [];
  vi.useFakeTimers();
  vi.stubGlobal("WebSocket", FakeSocket);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** The bell's list holds the count the server pushes on subscribing, so that push alone refetches nothing. */
const data = { unreadCount: 0 };
const cached = [taskQueryKey("t1"), taskReviewsQueryKey("t1"), receiptsQueryKey, payoutHistoryQueryKey, userQueryKey, notificationsQueryKey];

describe("LiveUpdates", () => {
  it("refreshes every cache a task change touches, and the bell, once a dropped socket is subscribed again", () => {
    const queryClient = new QueryClient();
    for (const key of cached) queryClient.setQueryData(key, data, { updatedAt: 1 });
    const view = render(
      <QueryClientProvider client={queryClient}>
        <LiveUpdates />
      </QueryClientProvider>,
    );
    const invalidated = () => cached.filter((key) => queryClient.getQueryState(key)?.isInvalidated).map((key) => key.join(" "));

    act(() => FakeSocket.instances[0]?.subscribe());
    // The first subscription follows the page's own fetches: only the task lists and pages refetch.
    expect(invalidated()).toEqual([taskQueryKey("t1").join(" ")]);

    for (const key of cached) queryClient.setQueryData(key, data, { updatedAt: Date.now() - 1 });
    act(() => FakeSocket.instances[0]?.onclose?.({ code: 1006, reason: "" }));
    act(() => {
      vi.advanceTimersByTime(30_000);
    });
    act(() => FakeSocket.instances[1]?.subscribe());
    expect(invalidated()).toEqual(cached.map((key) => key.join(" ")));
    view.unmount();
  });
});
