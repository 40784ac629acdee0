import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type { TaskViewer } from "@shared/task-lifecycle";
import type { TaskDetail } from "@shared/tasks";
import { apiRequest } from "@/lib/api";

/** GET /api/tasks/{id}: one task, with addresses when the viewer may see them. */
export const tasksBaseKey = ["/api/tasks"] as const;

export function taskQueryKey(id: string) {
  return [...tasksBaseKey, id] as const;
}

/** Its poster, its provider and admins see the addresses and full names (docs/product.md, "People you can see"). */
function isInsider(task: TaskDetail, viewer: TaskViewer): boolean {
  return viewer.id === task.userId || viewer.id === task.providerId || viewer.isAdmin;
}

/**
 * The task as `viewer` may see it. A page the server rendered came with the task as a signed-out
 * visitor sees it (docs/decisions/036-server-rendered-data-pages.md): once the viewer turns out to be
 * one of its insiders, their own view is asked for; anyone else sees what they were sent.
 */
export function useTask(id: string, viewer: TaskViewer | null) {
  const queryClient = useQueryClient();
  const task = useQuery({
    queryKey: taskQueryKey(id),
    queryFn: () => apiRequest<TaskDetail>("GET", `/api/tasks/${encodeURIComponent(id)}`),
  });
  const needsOwnView = task.data?.visibility === "public" && viewer !== null && isInsider(task.data, viewer);
  useEffect(() => {
    if (needsOwnView) void queryClient.invalidateQueries({ queryKey: taskQueryKey(id), exact: true });
  }, [needsOwnView, id, queryClient]);
  return task;
}
