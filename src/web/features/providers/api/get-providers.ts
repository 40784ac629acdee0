import { useQuery } from "@tanstack/react-query";
import type { Category } from "@shared/constants";
import type { PROVIDER_SORTS, PublicProvider } from "@shared/providers";
import type { RadiusMiles } from "@shared/task-filters";
import { apiRequest } from "@/lib/api";

/** GET /api/providers: the public directory (approved providers only), filtered as the page's URL says. */
export const providersQueryKey = ["/api/providers"] as const;

export interface ProvidersParams {
  near?: string;
  radiusMiles?: RadiusMiles;
  serviceType?: Category;
  minRating?: number;
  sort?: (typeof PROVIDER_SORTS)[number];
}

/** Only set parameters, in one order, so the same filters are the same request. */
export function providersUrl(params: ProvidersParams): string {
  const query = new URLSearchParams();
  if (params.near) query.set("near", params.near);
  if (params.near && params.radiusMiles) query.set("radiusMiles", String(params.radiusMiles));
  if (params.serviceType) query.set("serviceType", params.serviceType);
  if (params.minRating !== undefined) query.set("minRating", String(params.minRating));
  if (params.sort && params.sort !== "name") query.set("sort", params.sort);
  const text = query.toString();
  return text ? `/api/providers?${text}` : "/api/providers";
}

export function useProviders(params: ProvidersParams = {}) {
  return useQuery<PublicProvider[], Error, PublicProvider[]>({
    queryKey: [...providersQueryKey, params],
    queryFn: () => apiRequest<PublicProvider[]>("GET", providersUrl(params)),
    // Only approved providers are listed (docs/product.md#verification); the client filters again, though the server already does.
    select: (list) => list.filter((p) => p.verificationStatus === "approved"),
  });
}
