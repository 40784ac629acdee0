import type { InfiniteData, QueryClient } from "@tanstack/react-query";
import type { BoardTask } from "@shared/tasks";
import { userQueryKey } from "@/lib/current-user";
import { declinedTasksQueryKey } from "./get-declined-tasks";
import { openTasksBaseKey } from "./get-open-tasks";
import { mapTasksBaseKey } from "./get-map-tasks";
import { radiusCountsBaseKey } from "./get-radius-counts";
import { myJobsQueryKey } from "./get-my-jobs";
import { myTasksQueryKey } from "./get-my-tasks";
import { taskQueryKey, tasksBaseKey } from "./get-task";

// What the task caches do with the live frames (docs/product.md, Live updates;
// docs/decisions/025-live-task-status.md). The app's one live connection calls these.

/**
 * {type:'task_updated'}: the task page and both dashboards refetch what they show, if shown; so do
 * a provider's declined tasks (a decline is such an update for the provider it releases).
 */
export function taskUpdated(queryClient: QueryClient, taskId: string): void {
  for (const queryKey of [taskQueryKey(taskId), myTasksQueryKey, myJobsQueryKey, userQueryKey, declinedTasksQueryKey]) {
    void queryClient.invalidateQueries({ queryKey });
  }
}

/**
 * {type:'job_board_changed'}: tasks that left the board are dropped from every cached page at once,
 * without a request, so a claimed task vanishes from other providers' boards. A task that joined
 * the board costs one refetch of the board on screen (none when no board is shown).
 */
export function jobBoardChanged(queryClient: QueryClient, change: { removed: readonly string[]; added: boolean }): void {
  if (change.removed.length > 0) {
    const gone = new Set(change.removed);
    queryClient.setQueriesData<InfiniteData<BoardTask[]>>({ queryKey: openTasksBaseKey }, (data) =>
      data ? { ...data, pages: data.pages.map((page) => page.filter((task) => !gone.has(task.id))) } : data,
    );
  }
  if (change.added) void queryClient.invalidateQueries({ queryKey: openTasksBaseKey });
  // The counts behind "No tasks within 10 miles; 14 within 25" change with the board.
  if (change.added || change.removed.length > 0) void queryClient.invalidateQueries({ queryKey: radiusCountsBaseKey });
  // The map's markers (one answer, not pages) are refetched rather than edited.
  if (change.added || change.removed.length > 0) void queryClient.invalidateQueries({ queryKey: mapTasksBaseKey });
}

/** Once the socket is subscribed: every task list and page fetched before `subscribedAt` may have missed a change. */
export function refreshTasks(queryClient: QueryClient, subscribedAt: number): void {
  for (const queryKey of [tasksBaseKey, openTasksBaseKey, mapTasksBaseKey, radiusCountsBaseKey, myTasksQueryKey, myJobsQueryKey]) {
    void queryClient.invalidateQueries({ queryKey, predicate: (query) => query.state.dataUpdatedAt < subscribedAt });
  }
}
