import { useEffect } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { NotificationList } from "@shared/notifications";
import { connectRealtime } from "@/lib/realtime";
import { notificationsQueryKey } from "../api/get-notifications";

// The bell's live count (nothing polls: docs/product.md#chat-and-notifications): one socket that subscribes to the signed-in
// user's notifications; every instance pushes {type:'notification', unreadCount} after a change.
// The list is refetched on each (re)connect, so nothing missed while offline stays missing.

export function useNotificationSocket(enabled: boolean): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    let reconnect = false;
    return connectRealtime({
      onOpen: (send) => {
        send({ type: "subscribe_notifications" });
        // The first connect follows the page's own fetch; later ones catch up on what was missed.
        if (reconnect) void queryClient.invalidateQueries({ queryKey: notificationsQueryKey });
        reconnect = true;
      },
      onFrame: (frame) => {
        if (frame.type !== "notification") return;
        const cached = queryClient.getQueryData<NotificationList>(notificationsQueryKey);
        // The list itself changed only if the count did (a new notice, or a read elsewhere).
        if (!cached || cached.unreadCount !== frame.unreadCount) {
          void queryClient.invalidateQueries({ queryKey: notificationsQueryKey });
        }
      },
    });
  }, [enabled, queryClient]);
}
