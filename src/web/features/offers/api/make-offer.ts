import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Offer, OfferBody } from "@shared/offers";
import { apiRequest } from "@/lib/api";
import { offersQueryKey } from "./get-offers";

/** PUT /api/tasks/{id}/offer: makes or changes the signed-in provider's offer. */
export function useMakeOffer(taskId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: OfferBody) => apiRequest<Offer>("PUT", `/api/tasks/${encodeURIComponent(taskId)}/offer`, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: offersQueryKey(taskId) }),
  });
}
