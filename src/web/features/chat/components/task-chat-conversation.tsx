import { LoaderCircle } from "lucide-react";
import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { Message } from "@shared/chat";
import type { TaskDetail } from "@shared/tasks";
import { Spinner } from "@/components/ui/spinner";
import { toast } from "@/components/ui/use-toast";
import { errorMessage } from "@/lib/api";
import { useMessages } from "../api/get-messages";
import { markMessagesRead } from "../api/mark-messages-read";
import { useSendMessage } from "../api/send-message";
import { useBrowserNotifications } from "../hooks/use-browser-notifications";
import { useChatSocket, type ChatConnection } from "../hooks/use-chat-socket";
import { ChatCard, type ChatPartner } from "./chat-card";
import { ChatComposerUntilUsed } from "./chat-composer-until-used";
import { ChatMessageList } from "./chat-message-list";
import { ChatNotificationBanner } from "./chat-notification-banner";

function usePageVisible(): boolean {
  // Visible on the server, which renders the task page too (docs/decisions/036-server-rendered-data-pages.md):
  // only effects read it, and they run in the browser.
  const [visible, setVisible] = useState(() => typeof document === "undefined" || document.visibilityState === "visible");
  useEffect(() => {
    const update = () => setVisible(document.visibilityState === "visible");
    document.addEventListener("visibilitychange", update);
    return () => document.removeEventListener("visibilitychange", update);
  }, []);
  return visible;
}

/**
 * Said while the live connection is down: messages still send (over HTTP), and those that arrive
 * meanwhile show up once it is back, because every reconnect reads the list again.
 */
function ReconnectBanner({ status }: { status: ChatConnection }) {
  if (status !== "reconnecting") return null;
  return (
    <div role="status" className="mx-4 mb-2 flex items-center gap-2 rounded-md border border-warning bg-warning/10 px-3 py-2 text-sm">
      <LoaderCircle className="size-4 shrink-0 animate-spin" aria-hidden="true" />
      <p>Connection lost. Reconnecting... New messages will appear once the chat is back.</p>
    </div>
  );
}

/**
 * The chat of the task's two parties: its messages, the live connection and the composer. Loaded
 * only for them (task-chat-panel.tsx).
 */
export function TaskChatConversation({
  task,
  myId,
  partner,
  reportMessage,
  closedLine,
}: {
  task: TaskDetail;
  myId: string;
  partner: ChatPartner | null;
  reportMessage?: ((message: Message) => ReactNode) | undefined;
  /** Why the chat is closed, from the task's account (the page's statementWords); a plain line without one. */
  closedLine?: string | null | undefined;
}) {
  const queryClient = useQueryClient();
  const messages = useMessages(task.id);
  const send = useSendMessage(task.id);
  const notifications = useBrowserNotifications();
  const visible = usePageVisible();
  const { notify } = notifications;

  const onIncoming = useCallback(
    (message: Message) => {
      if (message.senderId !== myId && document.visibilityState === "hidden") notify("New message", message.content);
    },
    [myId, notify],
  );
  const { status } = useChatSocket(task.id, onIncoming);
  // A cancelled task's chat keeps its history but takes no new messages.
  const closed = task.status === "cancelled";

  useEffect(() => {
    if (messages.isError) toast({ title: "Error", description: "Failed to fetch messages", variant: "destructive" });
  }, [messages.isError]);

  // Read flags follow what the reader has actually seen: the list is on screen and the tab visible.
  const marking = useRef(new Set<string>());
  useEffect(() => {
    if (!visible || !messages.data) return;
    const ids = messages.data.filter((m) => m.recipientId === myId && !m.read && !marking.current.has(m.id)).map((m) => m.id);
    if (ids.length === 0) return;
    for (const id of ids) marking.current.add(id);
    markMessagesRead(queryClient, task.id, ids)
      .catch(() => undefined)
      .finally(() => {
        for (const id of ids) marking.current.delete(id);
      });
  }, [messages.data, visible, myId, queryClient, task.id]);

  const onSend = async (content: string): Promise<boolean> => {
    try {
      await send.mutateAsync(content);
      return true;
    } catch (err) {
      toast({ title: "Error", description: errorMessage(err, "Failed to send message"), variant: "destructive" });
      return false;
    }
  };

  return (
    <ChatCard connected={status === "connected"} closed={closed} partner={partner}>
      <ReconnectBanner status={status} />
      {notifications.showPrompt && (
        <ChatNotificationBanner onEnable={() => void notifications.enable()} onDismiss={notifications.dismiss} />
      )}
      {messages.isLoading ? (
        <div className="flex flex-1 items-center justify-center">
          <Spinner />
        </div>
      ) : (
        <ChatMessageList messages={messages.data ?? []} myId={myId} closed={closed} report={reportMessage} />
      )}
      {closed ? (
        // The server refuses new messages too (docs/product.md, Chat and notifications).
        <p role="note" className="border-t px-4 py-3 text-center text-sm text-muted-foreground">
          {closedLine ?? "This task was cancelled; the chat is closed."}
        </p>
      ) : (
        <ChatComposerUntilUsed onSend={onSend} sending={send.isPending} />
      )}
    </ChatCard>
  );
}
