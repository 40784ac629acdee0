import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { TaskDisputeAnswer } from "@shared/disputes";
import type { TaskDetail } from "@shared/tasks";
import { apiRequest } from "@/lib/api";

// Under the task's own key, so the live frame that refreshes the task refreshes the thread too.
export function taskDisputeQueryKey(taskId: string) {
  return ["/api/tasks", taskId, "dispute"] as const;
}

/**
 * GET /api/tasks/{id}/dispute: the latest dispute, its thread, and where the money is; null when the
 * task, as it reads now, no longer lets the viewer see it (`mayAsk`).
 *
 * One invalidation of the task refetches the task and its thread together, but the task's people
 * change: a provider who has just withdrawn would be answered 403 for the thread. So the thread is
 * asked for once the task's own fetches in flight (one started in the same tick, hence the yield)
 * have ended, and only if the task then still names the viewer.
 */
export function useTaskDispute(taskId: string, enabled: boolean, mayAsk: (task: TaskDetail) => boolean) {
  const queryClient = useQueryClient();
  return useQuery<TaskDisputeAnswer | null>({
    queryKey: taskDisputeQueryKey(taskId),
    enabled,
    queryFn: async () => {
      const taskKey = taskDisputeQueryKey(taskId).slice(0, 2);
      await Promise.resolve();
      // A later invalidation cancels the task's fetch and starts another: wait for the last one.
      const taskQuery = queryClient.getQueryCache().find({ queryKey: taskKey, exact: true });
      for (let inFlight = taskQuery?.promise; taskQuery?.state.fetchStatus === "fetching" && inFlight; inFlight = taskQuery.promise) {
        await inFlight.catch(() => undefined);
      }
      const task = queryClient.getQueryData<TaskDetail>(taskKey);
      if (task && !mayAsk(task)) return null;
      return apiRequest<TaskDisputeAnswer>("GET", `/api/tasks/${encodeURIComponent(taskId)}/dispute`);
    },
  });
}

/** Who may read a task's dispute: once it is paid, its poster, its provider and admins. */
export function mayReadDispute(task: TaskDetail, user: { id: string; isAdmin: boolean } | null): boolean {
  return task.paymentCapturedAt !== null && user !== null && (user.isAdmin || user.id === task.userId || user.id === task.providerId);
}

/**
 * Whether a problem reported on the task is still open, as its people see it: the task page then
 * disables cancelling and giving the task back, with the reason (docs/product.md, Disputes). The
 * dispute panel's own query, so one request serves both.
 */
export function useDisputeOpen(task: TaskDetail | undefined, user: { id: string; isAdmin: boolean } | null): boolean {
  const mayAsk = (t: TaskDetail) => mayReadDispute(t, user);
  const query = useTaskDispute(task?.id ?? "", task !== undefined && mayAsk(task), mayAsk);
  return query.data?.dispute?.status === "open";
}
