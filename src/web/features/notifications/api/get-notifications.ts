import { useQuery } from "@tanstack/react-query";
import type { NotificationList } from "@shared/notifications";
import { apiRequest } from "@/lib/api";

/** GET /api/notifications: the newest 50 and the unread count. */
export const notificationsQueryKey = ["/api/notifications"] as const;

export function useNotifications(enabled: boolean) {
  return useQuery({
    queryKey: notificationsQueryKey,
    queryFn: () => apiRequest<NotificationList>("GET", "/api/notifications"),
    enabled,
  });
}
