import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { NotificationKind, NotificationPreferences } from "@shared/notifications";
import { apiRequest } from "@/lib/api";
import { notificationPreferencesQueryKey } from "./get-notification-preferences";

type KindSwitches = Partial<Record<NotificationKind, boolean>>;

/** PUT /api/notifications/preferences with the kinds that changed, by e-mail and by push. */
export function useUpdateNotificationPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: { email?: KindSwitches; push?: KindSwitches }) =>
      apiRequest<NotificationPreferences>("PUT", "/api/notifications/preferences", changes),
    onSuccess: (prefs) => queryClient.setQueryData(notificationPreferencesQueryKey, prefs),
  });
}
