import { useQuery } from "@tanstack/react-query";
import type { RadiusCounts } from "@shared/tasks";
import { apiRequest } from "@/lib/api";
import { openTasksBaseKey, openTasksQuery, type OpenTasksParams } from "./get-open-tasks";

// GET /api/tasks/open/radius-counts: how many tasks the same filters find within 5, 10, 25 and 50
// miles. The page asks only when a search with a radius found nothing: one count query then, instead
// of a count on every board page (docs/product.md#job-board-filters). Under the board's key, so
// whatever refreshes the board refreshes these too.

export function useRadiusCounts(params: OpenTasksParams, enabled: boolean) {
  return useQuery({
    queryKey: [...openTasksBaseKey, "radius-counts", params] as const,
    queryFn: () => apiRequest<RadiusCounts>("GET", `/api/tasks/open/radius-counts?${openTasksQuery(params).toString()}`),
    enabled: enabled && Boolean(params.near),
  });
}
