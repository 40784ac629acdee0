import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreateReviewBody, Review } from "@shared/reviews";
import { apiRequest } from "@/lib/api";
import { userQueryKey } from "@/lib/current-user";
import { taskReviewsQueryKey } from "./get-task-reviews";

/** POST /api/reviews. After a review the related task and user caches are refreshed (docs/product.md#web-app). */
export function useCreateReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateReviewBody) => apiRequest<Review>("POST", "/api/reviews", body),
    onSuccess: async (_review, body) => {
      // The task key is named by its path (the default queryFn's convention), so this feature
      // refreshes it without importing the tasks feature.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: taskReviewsQueryKey(body.taskId) }),
        queryClient.invalidateQueries({ queryKey: ["/api/tasks"] }),
        queryClient.invalidateQueries({ queryKey: userQueryKey }),
      ]);
    },
  });
}
