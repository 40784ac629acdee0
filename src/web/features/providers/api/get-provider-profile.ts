import { useQuery } from "@tanstack/react-query";
import type { ProviderProfile } from "@shared/providers";
import { ApiError, apiRequest } from "@/lib/api";

/** GET /api/provider/profile: the signed-in user's application/profile, or null when they have none. */
export const providerProfileQueryKey = ["/api/provider/profile"] as const;

export async function fetchProviderProfile(): Promise<ProviderProfile | null> {
  try {
    return await apiRequest<ProviderProfile | null>("GET", "/api/provider/profile");
  } catch (error) {
    // Signed out in another tab: no profile to show rather than an error on every page.
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

// Fetched for every signed-in user, not only providers: an applicant keeps the role "user" until
// approved and must still see that the application is pending or was rejected.
export function useProviderProfile(enabled: boolean) {
  return useQuery({ queryKey: providerProfileQueryKey, queryFn: fetchProviderProfile, enabled });
}
