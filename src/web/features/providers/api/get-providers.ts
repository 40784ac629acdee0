import { useQuery } from "@tanstack/react-query";
import type { PublicProvider } from "@shared/providers";

/** GET /api/providers: the public directory (approved providers only). */
export const providersQueryKey = ["/api/providers"] as const;

export function useProviders() {
  return useQuery<PublicProvider[], Error, PublicProvider[]>({
    queryKey: providersQueryKey,
    // Spec §7: the client keeps only approved ones (the server already filters).
    select: (list) => list.filter((p) => p.verificationStatus === "approved"),
  });
}
