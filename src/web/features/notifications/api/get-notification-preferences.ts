import { useQuery } from "@tanstack/react-query";
import type { NotificationPreferences } from "@shared/notifications";
import { apiRequest } from "@/lib/api";

/** GET /api/notifications/preferences: per kind, whether e-mail is on. */
export const notificationPreferencesQueryKey = ["/api/notifications/preferences"] as const;

export function useNotificationPreferences(enabled: boolean) {
  return useQuery({
    queryKey: notificationPreferencesQueryKey,
    queryFn: () => apiRequest<NotificationPreferences>("GET", "/api/notifications/preferences"),
    enabled,
  });
}
