import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api";
import { taskEscrowQueryKey } from "./get-task-escrow";

/** POST /api/tasks/{id}/report-problem {reason}: keeps the money held until an admin decides. */
export function useReportProblem(taskId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reason: string) => apiRequest("POST", `/api/tasks/${taskId}/report-problem`, { reason }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: taskEscrowQueryKey(taskId) }),
  });
}
