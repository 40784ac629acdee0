import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ReportProblemBody } from "@shared/disputes";
import { apiRequest } from "@/lib/api";
import { taskDisputeQueryKey } from "./get-task-dispute";
import { taskEscrowQueryKey } from "./get-task-escrow";
import { uploadDisputePhotos } from "./upload-dispute-photos";

/** POST /api/tasks/{id}/report-problem {reason, description, photoURLs}: opens the dispute; escrowed money waits for it. */
export function useReportProblem(taskId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ files, ...body }: ReportProblemBody & { files: readonly File[] }) =>
      apiRequest("POST", `/api/tasks/${taskId}/report-problem`, { ...body, photoURLs: await uploadDisputePhotos(files) }),
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: taskEscrowQueryKey(taskId) }),
        queryClient.invalidateQueries({ queryKey: taskDisputeQueryKey(taskId) }),
      ]);
    },
  });
}
