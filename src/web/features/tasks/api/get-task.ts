import { useQuery } from "@tanstack/react-query";
import type { TaskDetail } from "@shared/tasks";
import { apiRequest } from "@/lib/api";

/** GET /api/tasks/{id}: one task, with addresses when the viewer may see them. */
export const tasksBaseKey = ["/api/tasks"] as const;

export function taskQueryKey(id: string) {
  return [...tasksBaseKey, id] as const;
}

export function useTask(id: string) {
  return useQuery({
    queryKey: taskQueryKey(id),
    queryFn: () => apiRequest<TaskDetail>("GET", `/api/tasks/${encodeURIComponent(id)}`),
  });
}
