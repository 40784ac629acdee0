import { useQuery } from "@tanstack/react-query";
import { GEOCODE_LIMIT, GEOCODE_MIN_CHARS } from "@shared/constants";
import type { GeocodeResult } from "@shared/tasks";
import { apiRequest } from "@/lib/api";

/** GET /api/geocode?q=: up to five US places for what the user typed (docs/product.md#tasks). */
export function geocodeQueryKey(q: string) {
  return ["/api/geocode", q] as const;
}

export async function searchAddresses(q: string): Promise<GeocodeResult[]> {
  try {
    const results = await apiRequest<GeocodeResult[]>("GET", `/api/geocode?q=${encodeURIComponent(q)}`);
    return results.slice(0, GEOCODE_LIMIT);
  } catch (error) {
    // A failed lookup is logged and clears the suggestions; the user sees no message (docs/product.md#tasks).
    console.warn("Address lookup failed", error);
    return [];
  }
}

/** `q` is the debounced text; shorter than three characters searches nothing. */
export function useAddressSearch(q: string) {
  const trimmed = q.trim();
  return useQuery({
    queryKey: geocodeQueryKey(trimmed),
    queryFn: () => searchAddresses(trimmed),
    enabled: trimmed.length >= GEOCODE_MIN_CHARS,
  });
}
