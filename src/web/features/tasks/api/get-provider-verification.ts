import { useQuery } from "@tanstack/react-query";
import { ApiError, apiRequest } from "@/lib/api";

// GET /api/provider/profile, read here only for whether the viewer is an approved provider (the
// lifecycle's providerVerified). Its own key under the profile prefix: invalidating the profile
// refreshes it too, yet it never shares a cache entry with the providers feature's fuller shape.

export function providerVerificationQueryKey() {
  return ["/api/provider/profile", "verification"] as const;
}

export async function fetchProviderVerified(): Promise<boolean> {
  try {
    const profile = await apiRequest<{ verificationStatus?: string }>("GET", "/api/provider/profile");
    return profile.verificationStatus === "approved";
  } catch (error) {
    // No profile yet (404) or signed out (401): not verified.
    if (error instanceof ApiError && (error.status === 401 || error.status === 404)) return false;
    throw error;
  }
}

/** The provider profile is fetched only for roles provider and both (docs/product.md#roles). */
export function useProviderVerified(enabled: boolean) {
  return useQuery({ queryKey: providerVerificationQueryKey(), queryFn: fetchProviderVerified, enabled });
}
