import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AcceptOfferBody, Offer } from "@shared/offers";
import type { TaskPrivate } from "@shared/tasks";
import { apiRequest } from "@/lib/api";

/**
 * POST /api/tasks/{id}/offers/{offerId}/accept: the task table's accept_offer, naming the price the
 * poster was shown; an offer changed since is refused with 409 and its new price. Afterwards the
 * task, its offers and the poster's lists are read again, also after a refusal (our copy is out of date).
 */
export function useAcceptOffer(taskId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (offer: Pick<Offer, "id" | "price">) =>
      apiRequest<TaskPrivate>("POST", `/api/tasks/${encodeURIComponent(taskId)}/offers/${encodeURIComponent(offer.id)}/accept`, {
        price: offer.price,
      } satisfies AcceptOfferBody),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ["/api/tasks"] }),
  });
}
