import { useQuery } from "@tanstack/react-query";
import type { SlotsAnswer } from "@shared/calendar";
import { apiRequest } from "@/lib/api";
import { slotsBaseKey } from "./calendar-settings";

/** GET /api/providers/{id}/slots: the provider's free slots of this length over the next two weeks. */
export function useProviderSlots(providerId: string, durationMinutes: number) {
  return useQuery({
    queryKey: [...slotsBaseKey, providerId, durationMinutes] as const,
    queryFn: () => apiRequest<SlotsAnswer>("GET", `/api/providers/${encodeURIComponent(providerId)}/slots?durationMinutes=${durationMinutes}`),
  });
}
