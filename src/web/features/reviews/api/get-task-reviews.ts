import { useQuery } from "@tanstack/react-query";
import type { TaskReviews } from "@shared/reviews";
import { apiRequest } from "@/lib/api";

/** Every task's reviews: a reconnect refreshes them all, not knowing which tasks changed meanwhile. */
export const taskReviewsBaseKey = ["/api/reviews/task"] as const;

/** GET /api/reviews/task/{taskId}: what the viewer may see of the task's reviews. */
export function taskReviewsQueryKey(taskId: string) {
  return [...taskReviewsBaseKey, taskId] as const;
}

export function useTaskReviews(taskId: string, enabled: boolean) {
  return useQuery({
    queryKey: taskReviewsQueryKey(taskId),
    queryFn: () => apiRequest<TaskReviews>("GET", `/api/reviews/task/${encodeURIComponent(taskId)}`),
    enabled,
  });
}
