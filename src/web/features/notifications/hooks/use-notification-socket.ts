import { useEffect } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { serverFrameSchema } from "@shared/chat";
import type { NotificationList } from "@shared/notifications";
import { notificationsQueryKey } from "../api/get-notifications";

// The bell's live count (spec §9 allows no polling): one socket that subscribes to the signed-in
// user's notifications; every instance pushes {type:'notification', unreadCount} after a change.
// It reconnects with backoff (1 s doubling to 30 s) and refetches the list on each connect.

export function useNotificationSocket(enabled: boolean): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    let socket: WebSocket | null = null;
    let failures = 0;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let stopped = false;

    const open = () => {
      const scheme = window.location.protocol === "https:" ? "wss" : "ws";
      socket = new WebSocket(`${scheme}://${window.location.host}/ws`);
      socket.onopen = () => {
        failures = 0;
        socket?.send(JSON.stringify({ type: "subscribe_notifications" }));
      };
      socket.onmessage = (event: MessageEvent<string>) => {
        let data: unknown;
        try {
          data = JSON.parse(event.data);
        } catch {
          return;
        }
        const frame = serverFrameSchema.safeParse(data);
        if (!frame.success || frame.data.type !== "notification") return;
        const cached = queryClient.getQueryData<NotificationList>(notificationsQueryKey);
        // The list itself changed only if the count did (a new notice, or a read elsewhere).
        if (!cached || cached.unreadCount !== frame.data.unreadCount) {
          void queryClient.invalidateQueries({ queryKey: notificationsQueryKey });
        }
      };
      socket.onclose = () => {
        if (stopped) return;
        timer = setTimeout(open, Math.min(30_000, 1000 * 2 ** failures));
        failures += 1;
      };
    };
    open();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      socket?.close();
    };
  }, [enabled, queryClient]);
}
