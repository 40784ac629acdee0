import { useQuery } from "@tanstack/react-query";
import type { MapConfig } from "@shared/map";
import { apiRequest } from "@/lib/api";

// GET /api/map/config: where the maps load their tiles (the operator's MAP_TILE_URL,
// docs/decisions/031-job-board-map.md). It changes only with a redeploy.

export const mapConfigQueryKey = ["/api/map/config"] as const;

export function useMapConfig() {
  return useQuery({ queryKey: mapConfigQueryKey, queryFn: () => apiRequest<MapConfig>("GET", "/api/map/config"), staleTime: Infinity });
}
