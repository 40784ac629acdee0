import { useQuery } from "@tanstack/react-query";
import type { PublicProvider } from "@shared/providers";

/** GET /api/providers: the public directory (approved providers only). */
export const providersQueryKey = ["/api/providers"] as const;

export function useProviders() {
  return useQuery<PublicProvider[], Error, PublicProvider[]>({
    queryKey: providersQueryKey,
    // Only approved providers are listed (docs/product.md#verification); the client filters again, though the server already does.
    select: (list) => list.filter((p) => p.verificationStatus === "approved"),
  });
}
