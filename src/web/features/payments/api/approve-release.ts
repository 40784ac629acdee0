import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api";
import { taskEscrowQueryKey } from "./get-task-escrow";

/** POST /api/tasks/{id}/approve-release: the poster releases the escrow before the window ends. */
export function useApproveRelease(taskId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest("POST", `/api/tasks/${taskId}/approve-release`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: taskEscrowQueryKey(taskId) }),
  });
}
