import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ReportProblemBody } from "@shared/disputes";
import { apiRequest } from "@/lib/api";
import { taskDisputeQueryKey } from "./get-task-dispute";
import { taskEscrowQueryKey } from "./get-task-escrow";

/** POST /api/tasks/{id}/report-problem {reason, description}: opens the dispute; escrowed money waits for it. */
export function useReportProblem(taskId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReportProblemBody) => apiRequest("POST", `/api/tasks/${taskId}/report-problem`, body),
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: taskEscrowQueryKey(taskId) }),
        queryClient.invalidateQueries({ queryKey: taskDisputeQueryKey(taskId) }),
      ]);
    },
  });
}
