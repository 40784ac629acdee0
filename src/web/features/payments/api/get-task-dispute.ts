import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TaskDisputeAnswer } from "@shared/disputes";
import { apiRequest } from "@/lib/api";

// Under the task's own key, so the live frame that refreshes the task refreshes the thread too.
export function taskDisputeQueryKey(taskId: string) {
  return ["/api/tasks", taskId, "dispute"] as const;
}

/** GET /api/tasks/{id}/dispute: the latest dispute, its thread, and where the money is. */
export function useTaskDispute(taskId: string, enabled: boolean) {
  return useQuery<TaskDisputeAnswer>({ queryKey: taskDisputeQueryKey(taskId), enabled });
}

/** POST /api/tasks/{id}/dispute/messages {body}: a party's side, or an admin's note. */
export function useAnswerDispute(taskId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: string) => apiRequest("POST", `/api/tasks/${taskId}/dispute/messages`, { body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: taskDisputeQueryKey(taskId) }),
  });
}
