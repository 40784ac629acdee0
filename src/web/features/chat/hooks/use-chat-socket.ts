import { useEffect, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { Message } from "@shared/chat";
import { toast } from "@/components/ui/use-toast";
import { connectRealtime } from "@/lib/realtime";
import { mergeMessage, messagesQueryKey } from "../api/get-messages";

/**
 * Where the live connection stands: "connecting" until the first authentication, "connected"
 * while it is up, and "reconnecting" once it dropped (or never came up) and retries with backoff.
 */
export type ChatConnection = "connecting" | "connected" | "reconnecting";

/**
 * The realtime chat connection (docs/product.md#chat-and-notifications): open while the chat is shown (to
 * its two parties only: task-chat-panel.tsx); on open it sends {type:'auth', taskId}. It reconnects by itself with backoff and
 * refetches the list after every (re)authentication, so messages sent while it was down appear.
 */
export function useChatSocket(taskId: string, onIncoming: (message: Message) => void): { status: ChatConnection } {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<ChatConnection>("connecting");
  const onIncomingRef = useRef(onIncoming);
  useEffect(() => {
    onIncomingRef.current = onIncoming;
  }, [onIncoming]);

  useEffect(() => {
    // A socket closed on purpose reports its close later; by then it no longer speaks for this chat.
    let current = true;
    const close = connectRealtime({
      onOpen: (send) => send({ type: "auth", taskId }),
      onFrame: (frame) => {
        if (frame.type === "auth_success") {
          console.debug("chat: auth_success", taskId);
          setStatus("connected");
          void queryClient.invalidateQueries({ queryKey: messagesQueryKey(taskId) });
        } else if (frame.type === "error") {
          toast({ title: "Connection Error", description: frame.message, variant: "destructive" });
        } else if (frame.type === "message" && frame.taskId === taskId) {
          const message: Message = { ...frame, read: false };
          queryClient.setQueryData<Message[]>(messagesQueryKey(taskId), (list) => mergeMessage(list ?? [], message));
          onIncomingRef.current(message);
        }
      },
      onClose: () => {
        if (current) setStatus("reconnecting");
      },
    });
    return () => {
      current = false;
      close();
      setStatus("connecting");
    };
  }, [taskId, queryClient]);

  return { status };
}
