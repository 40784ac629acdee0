import type { QueryClient } from "@tanstack/react-query";
import type { NotificationList } from "@shared/notifications";
import { notificationsQueryKey } from "./get-notifications";

// The bell's live count (nothing polls: docs/product.md#chat-and-notifications): every instance
// pushes {type:'notification', unreadCount} after a change to a socket that subscribed. The app's
// one live connection (app/live-updates.tsx) hands those frames here.

/** A pushed unread count: the list is refetched only if the count changed (a new notice, or a read elsewhere). */
export function notificationCountPushed(queryClient: QueryClient, unreadCount: number): void {
  const cached = queryClient.getQueryData<NotificationList>(notificationsQueryKey);
  if (!cached || cached.unreadCount !== unreadCount) void queryClient.invalidateQueries({ queryKey: notificationsQueryKey });
}

/** After a reconnect: whatever was pushed while the socket was down. */
export function refreshNotifications(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: notificationsQueryKey });
}
