import { useQuery } from "@tanstack/react-query";
import type { ProviderProfile } from "@shared/providers";
import { ApiError, apiRequest } from "@/lib/api";

// The provider profile's payout fields. Same key as the providers feature's own query, so both
// share one cache entry and one refresh after onboarding.
export const payoutStatusQueryKey = ["/api/provider/profile"] as const;

async function fetchPayoutStatus(): Promise<ProviderProfile | null> {
  try {
    return await apiRequest<ProviderProfile>("GET", "/api/provider/profile");
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 401)) return null;
    throw error;
  }
}

/** GET /api/provider/profile, fetched only for roles provider and both (docs/product.md#roles). */
export function usePayoutStatus(enabled: boolean) {
  return useQuery({ queryKey: payoutStatusQueryKey, queryFn: fetchPayoutStatus, enabled });
}
