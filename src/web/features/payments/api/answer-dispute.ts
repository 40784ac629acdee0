import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api";
import { taskDisputeQueryKey } from "./get-task-dispute";
import { uploadDisputePhotos } from "./upload-dispute-photos";

/** POST /api/tasks/{id}/dispute/messages {body, photoURLs}: a party's side with its photos, or an admin's note. */
export function useAnswerDispute(taskId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ body, files }: { body: string; files: readonly File[] }) =>
      apiRequest("POST", `/api/tasks/${taskId}/dispute/messages`, { body, photoURLs: await uploadDisputePhotos(files) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: taskDisputeQueryKey(taskId) }),
  });
}
