import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { jobBoardChanged, refreshTasks } from "./live-task-updates";
import { openTasksQueryKey } from "./get-open-tasks";
import { radiusCountsBaseKey } from "./get-radius-counts";
import { taskQueryKey } from "./get-task";

describe("refreshTasks", () => {
  it("marks stale only what was fetched before the socket was subscribed", () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(taskQueryKey("before"), { id: "before" }, { updatedAt: 1_000 });
    queryClient.setQueryData(taskQueryKey("after"), { id: "after" }, { updatedAt: 3_000 });
    refreshTasks(queryClient, 2_000);
    expect(queryClient.getQueryState(taskQueryKey("before"))?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(taskQueryKey("after"))?.isInvalidated).toBe(false);
  });
});

describe("jobBoardChanged", () => {
  it("drops a removed task from the board's pages and refreshes the radius counts, which are not pages", () => {
    const queryClient = new QueryClient();
    const boardKey = openTasksQueryKey({ near: "21401", radiusMiles: 10 });
    const countsKey = [...radiusCountsBaseKey, { near: "21401", radiusMiles: 10 }];
    queryClient.setQueryData(boardKey, { pages: [[{ id: "a" }, { id: "b" }]], pageParams: [1] });
    queryClient.setQueryData(countsKey, { counts: [{ radiusMiles: 5, count: 1 }] });
    jobBoardChanged(queryClient, { removed: ["a"], added: false });
    expect(queryClient.getQueryData(boardKey)).toEqual({ pages: [[{ id: "b" }]], pageParams: [1] });
    expect(queryClient.getQueryData(countsKey)).toEqual({ counts: [{ radiusMiles: 5, count: 1 }] });
    expect(queryClient.getQueryState(countsKey)?.isInvalidated).toBe(true);
  });
});
