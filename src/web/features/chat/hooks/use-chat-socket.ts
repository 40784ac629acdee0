import { useEffect, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { serverFrameSchema, type Message } from "@shared/chat";
import { toast } from "@/components/ui/use-toast";
import { messagesQueryKey } from "../api/get-messages";
import { mergeMessage, reconnectDelay, socketUrl } from "../utils/messages";

/**
 * The realtime connection of spec §4 "Chat connection": open while the chat is shown and the user
 * is signed in; on open it sends {type:'auth', taskId}. It reconnects by itself with backoff and
 * refetches the list after every (re)authentication, so messages sent while it was down appear.
 */
export function useChatSocket(taskId: string, enabled: boolean, onIncoming: (message: Message) => void): { connected: boolean } {
  const queryClient = useQueryClient();
  const [connected, setConnected] = useState(false);
  const onIncomingRef = useRef(onIncoming);
  useEffect(() => {
    onIncomingRef.current = onIncoming;
  }, [onIncoming]);

  useEffect(() => {
    if (!enabled) return;
    let socket: WebSocket | null = null;
    let attempt = 0;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let stopped = false;

    const connect = () => {
      socket = new WebSocket(socketUrl(window.location));
      socket.onopen = () => socket?.send(JSON.stringify({ type: "auth", taskId }));
      socket.onmessage = (event: MessageEvent<string>) => {
        let data: unknown;
        try {
          data = JSON.parse(event.data);
        } catch {
          return;
        }
        const frame = serverFrameSchema.safeParse(data);
        if (!frame.success) return;
        if (frame.data.type === "auth_success") {
          console.debug("chat: auth_success", taskId);
          attempt = 0;
          setConnected(true);
          void queryClient.invalidateQueries({ queryKey: messagesQueryKey(taskId) });
        } else if (frame.data.type === "error") {
          toast({ title: "Connection Error", description: frame.data.message, variant: "destructive" });
        } else if (frame.data.type === "message" && frame.data.taskId === taskId) {
          const message: Message = { ...frame.data, read: false };
          queryClient.setQueryData<Message[]>(messagesQueryKey(taskId), (list) => mergeMessage(list ?? [], message));
          onIncomingRef.current(message);
        }
      };
      socket.onclose = () => {
        setConnected(false);
        if (stopped) return;
        timer = setTimeout(connect, reconnectDelay(attempt));
        attempt += 1;
      };
    };
    connect();

    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      socket?.close();
      setConnected(false);
    };
  }, [enabled, taskId, queryClient]);

  return { connected };
}
