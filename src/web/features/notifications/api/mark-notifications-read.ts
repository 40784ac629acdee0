import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { NotificationList } from "@shared/notifications";
import { apiRequest } from "@/lib/api";
import { notificationsQueryKey } from "./get-notifications";

/**
 * POST /api/notifications/read: the given ones, or all when `ids` is absent. Optimistic: the bell's
 * badge drops at once and comes back only if the server refuses (docs/product.md, Chat and notifications).
 */
export function useMarkNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids?: string[]) => apiRequest<NotificationList>("POST", "/api/notifications/read", ids ? { ids } : {}),
    onMutate: async (ids?: string[]) => {
      await queryClient.cancelQueries({ queryKey: notificationsQueryKey });
      const before = queryClient.getQueryData<NotificationList>(notificationsQueryKey);
      if (before) {
        const marked = ids ? new Set(ids) : null;
        const notifications = before.notifications.map((n) => (!marked || marked.has(n.id) ? { ...n, read: true } : n));
        const newlyRead = before.notifications.filter((n) => !n.read && (!marked || marked.has(n.id))).length;
        queryClient.setQueryData<NotificationList>(notificationsQueryKey, {
          ...before,
          notifications,
          unreadCount: marked ? Math.max(0, before.unreadCount - newlyRead) : 0,
        });
      }
      return { before };
    },
    onError: (_error, _ids, context) => {
      if (context?.before) queryClient.setQueryData(notificationsQueryKey, context.before);
    },
    onSuccess: (list) => queryClient.setQueryData(notificationsQueryKey, list),
  });
}
