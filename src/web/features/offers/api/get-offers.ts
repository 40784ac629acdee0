import { useQuery } from "@tanstack/react-query";
import type { OfferList } from "@shared/offers";

/**
 * GET /api/tasks/{id}/offers: every offer for the poster, one's own for a provider. Under the task's
 * key, so whatever refreshes the task (a transition, a live status) refreshes its offers too.
 */
export function offersQueryKey(taskId: string) {
  return ["/api/tasks", taskId, "offers"] as const;
}

export function useOffers(taskId: string, enabled: boolean) {
  return useQuery<OfferList>({ queryKey: offersQueryKey(taskId), enabled });
}
