import { useQuery } from "@tanstack/react-query";
import type { RadiusCounts } from "@shared/tasks";
import { apiRequest } from "@/lib/api";
import { openTasksQuery, type OpenTasksParams } from "./get-open-tasks";

// GET /api/tasks/open/radius-counts: how many tasks the same filters find within 5, 10, 25 and 50
// miles. The page asks only when a search with a radius found nothing: one count query then, instead
// of a count on every board page (docs/product.md#job-board-filters). Not under the board's key:
// live updates edit the board's cached pages in place, and these are not pages; they refresh these
// by this key (live-task-updates.ts).

export const radiusCountsBaseKey = ["/api/tasks/open/radius-counts"] as const;

export function useRadiusCounts(params: OpenTasksParams, enabled: boolean) {
  return useQuery({
    queryKey: [...radiusCountsBaseKey, params] as const,
    queryFn: () => apiRequest<RadiusCounts>("GET", `/api/tasks/open/radius-counts?${openTasksQuery(params).toString()}`),
    enabled: enabled && Boolean(params.near),
  });
}
