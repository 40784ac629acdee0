import { useQuery } from "@tanstack/react-query";
import type { TaskEscrow } from "@shared/payments";

// Under the task's own key, so refreshing the task after a transition refreshes this too.
export function taskEscrowQueryKey(taskId: string) {
  return ["/api/tasks", taskId, "escrow"] as const;
}

/** GET /api/tasks/{id}/escrow: held, released or refunded, and what the provider receives. */
export function useTaskEscrow(taskId: string, enabled: boolean) {
  return useQuery<TaskEscrow>({ queryKey: taskEscrowQueryKey(taskId), enabled });
}
