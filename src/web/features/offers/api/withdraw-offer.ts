import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Offer } from "@shared/offers";
import { apiRequest } from "@/lib/api";
import { offersQueryKey } from "./get-offers";

/** DELETE /api/tasks/{id}/offer: withdraws the signed-in provider's open offer. */
export function useWithdrawOffer(taskId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<Offer>("DELETE", `/api/tasks/${encodeURIComponent(taskId)}/offer`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: offersQueryKey(taskId) }),
  });
}
