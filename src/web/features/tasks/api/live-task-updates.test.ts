import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { refreshTasks } from "./live-task-updates";
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
