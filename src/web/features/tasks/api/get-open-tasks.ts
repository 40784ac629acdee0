import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import type { Category } from "@shared/constants";
import type { BoardTask, TASK_SORTS } from "@shared/tasks";
import { apiRequest } from "@/lib/api";
import type { BoardFilterValues } from "../components/board-filters";

// GET /api/tasks/open: the job board's list, a page at a time. Only set parameters go into the
// URL, so the key stays stable while a field is empty.

export interface OpenTasksParams extends BoardFilterValues {
  search?: string;
  category?: Category;
  sort?: (typeof TASK_SORTS)[number];
}

export const OPEN_TASKS_PAGE_SIZE = 30;

export const openTasksBaseKey = ["/api/tasks/open"] as const;

export function openTasksQueryKey(params: OpenTasksParams) {
  return [...openTasksBaseKey, params] as const;
}

/** The filters' query string, shared by the list and the radius counts (docs/product.md#job-board-filters). */
export function openTasksQuery(params: OpenTasksParams): URLSearchParams {
  const query = new URLSearchParams();
  if (params.search?.trim()) query.set("search", params.search.trim());
  if (params.category) query.set("category", params.category);
  if (params.near) query.set("near", params.near);
  if (params.near && params.radiusMiles) query.set("radiusMiles", String(params.radiusMiles));
  if (params.minBudget !== undefined) query.set("minBudget", String(params.minBudget));
  if (params.maxBudget !== undefined) query.set("maxBudget", String(params.maxBudget));
  if (params.when) query.set("when", params.when);
  if (params.bbox) query.set("bbox", params.bbox);
  return query;
}

/** The query string of one page of the list; the server renders the board's first page from it too (decision 036). */
export function openTasksSearch(params: OpenTasksParams, page: number): string {
  const query = openTasksQuery(params);
  if (params.sort && params.sort !== "newest") query.set("sort", params.sort);
  if (page > 1) query.set("page", String(page));
  query.set("pageSize", String(OPEN_TASKS_PAGE_SIZE));
  return query.toString();
}

export function openTasksUrl(params: OpenTasksParams, page: number): string {
  return `/api/tasks/open?${openTasksSearch(params, page)}`;
}

/** `enabled` is false while the board shows its map, which asks for its own (useMapTasks). */
export function useOpenTasks(params: OpenTasksParams, enabled = true) {
  return useInfiniteQuery({
    enabled,
    queryKey: openTasksQueryKey(params),
    queryFn: ({ pageParam }) => apiRequest<BoardTask[]>("GET", openTasksUrl(params, pageParam)),
    initialPageParam: 1,
    getNextPageParam: (last, all) => (last.length < OPEN_TASKS_PAGE_SIZE ? undefined : all.length + 1),
    // Typing in the search box must not blank the grid between answers.
    placeholderData: keepPreviousData,
  });
}

/** Pages are offsets: a task claimed meanwhile shifts the next page, so keep each task once. */
export function uniqueTasks<T extends { id: string }>(pages: readonly T[][]): T[] {
  const seen = new Set<string>();
  return pages.flat().filter((task) => {
    if (seen.has(task.id)) return false;
    seen.add(task.id);
    return true;
  });
}
