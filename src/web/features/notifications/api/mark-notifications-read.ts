import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { NotificationList } from "@shared/notifications";
import { apiRequest } from "@/lib/api";
import { notificationsQueryKey } from "./get-notifications";

/** POST /api/notifications/read: the given ones, or all when `ids` is absent. */
export function useMarkNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids?: string[]) => apiRequest<NotificationList>("POST", "/api/notifications/read", ids ? { ids } : {}),
    onSuccess: (list) => queryClient.setQueryData(notificationsQueryKey, list),
  });
}
