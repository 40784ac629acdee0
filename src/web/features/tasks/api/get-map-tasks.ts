import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { TaskPublic } from "@shared/tasks";
import { apiRequest } from "@/lib/api";
import { openTasksQuery, type OpenTasksParams } from "./get-open-tasks";

// GET /api/tasks/open for the job board's map: the same filters as the list, one larger page and
// no paging (a map has no "Load more"; moving or zooming it searches a smaller area instead).
// Its own key, not under the list's: live updates edit the list's pages in place, and this is not
// one; they refetch this by its key (live-task-updates.ts).

export const MAP_TASKS_LIMIT = 100;

export const mapTasksBaseKey = ["board-map", "/api/tasks/open"] as const;

export function mapTasksUrl(params: OpenTasksParams): string {
  const query = openTasksQuery(params);
  if (params.sort && params.sort !== "newest") query.set("sort", params.sort);
  query.set("pageSize", String(MAP_TASKS_LIMIT));
  return `/api/tasks/open?${query.toString()}`;
}

export function useMapTasks(params: OpenTasksParams) {
  return useQuery({
    queryKey: [...mapTasksBaseKey, params] as const,
    queryFn: () => apiRequest<TaskPublic[]>("GET", mapTasksUrl(params)),
    // Searching another area keeps the markers on screen until the answer comes.
    placeholderData: keepPreviousData,
  });
}
