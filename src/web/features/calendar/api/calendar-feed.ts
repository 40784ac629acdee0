import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { feedCreatedSchema, feedStateSchema } from "@shared/calendar";
import { apiRequest } from "@/lib/api";

type FeedState = z.infer<typeof feedStateSchema>;
export type FeedCreated = z.infer<typeof feedCreatedSchema>;

/** GET /api/calendar/feed: whether the person has a private calendar address (the address itself is shown only when made). */
export const feedQueryKey = ["/api/calendar/feed"] as const;

export function useCalendarFeed() {
  return useQuery({ queryKey: feedQueryKey, queryFn: () => apiRequest<FeedState>("GET", "/api/calendar/feed") });
}

/** POST /api/calendar/feed: a new secret address; any earlier one stops working. */
export function useResetCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<FeedCreated>("POST", "/api/calendar/feed"),
    onSuccess: (made) => queryClient.setQueryData<FeedState>(feedQueryKey, { feed: { createdAt: made.createdAt } }),
  });
}

/** DELETE /api/calendar/feed: the address stops working. */
export function useDeleteCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<FeedState>("DELETE", "/api/calendar/feed"),
    onSuccess: (state) => queryClient.setQueryData<FeedState>(feedQueryKey, state),
  });
}
