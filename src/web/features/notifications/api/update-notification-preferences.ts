import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { NotificationKind, NotificationPreferences } from "@shared/notifications";
import { apiRequest } from "@/lib/api";
import { notificationPreferencesQueryKey } from "./get-notification-preferences";

/** PUT /api/notifications/preferences with the kinds that changed. */
export function useUpdateNotificationPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: Partial<Record<NotificationKind, boolean>>) =>
      apiRequest<NotificationPreferences>("PUT", "/api/notifications/preferences", { email }),
    onSuccess: (prefs) => queryClient.setQueryData(notificationPreferencesQueryKey, prefs),
  });
}
