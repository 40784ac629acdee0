import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { TaskPrivate } from "@shared/tasks";
import { apiRequest } from "@/lib/api";

/**
 * POST /api/tasks/{id}/offers/{offerId}/accept: the task table's accept_offer. Afterwards the task,
 * its offers and the poster's lists are read again, also after a refusal (our copy is out of date).
 */
export function useAcceptOffer(taskId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (offerId: string) =>
      apiRequest<TaskPrivate>("POST", `/api/tasks/${encodeURIComponent(taskId)}/offers/${encodeURIComponent(offerId)}/accept`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ["/api/tasks"] }),
  });
}
