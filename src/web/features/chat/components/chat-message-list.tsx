import { useEffect, useRef, type ReactNode } from "react";
import { formatDate } from "@/lib/dates";
import type { Message } from "@shared/chat";
import { cn } from "@/lib/cn";

/**
 * The conversation, newest at the bottom; it follows new messages. A closed chat invites no hello.
 * `report` draws the control that reports one of the other person's messages (docs/product.md,
 * Moderation): the page hands it in, as a feature does not import another.
 */
export function ChatMessageList({
  messages,
  myId,
  closed = false,
  report,
}: {
  messages: readonly Message[];
  myId: string;
  closed?: boolean;
  report?: ((message: Message) => ReactNode) | undefined;
}) {
  const listRef = useRef<HTMLDivElement>(null);
  // Scrolls the list itself, never the window: scrollIntoView moved the whole task page down to the
  // chat on load, so the page did not open at its top (docs/product.md, Web app).
  useEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [messages.length]);

  return (
    <div ref={listRef} role="log" aria-label="Messages" aria-live="polite" tabIndex={0} className="flex-1 space-y-3 overflow-y-auto px-4 py-2">
      {messages.length === 0 && (
        <p className="py-8 text-center text-sm text-muted-foreground">{closed ? "No messages were sent." : "No messages yet. Say hello!"}</p>
      )}
      {messages.map((message) => {
        const mine = message.senderId === myId;
        return (
          <div key={message.id} className={cn("flex items-start gap-1", mine ? "justify-end" : "justify-start")}>
            <div
              className={cn(
                "min-w-0 max-w-[70%] rounded-lg px-3 py-2 text-sm",
                mine ? "bg-primary text-primary-foreground" : "bg-muted text-foreground",
              )}
            >
              <p className="whitespace-pre-wrap [overflow-wrap:anywhere]">{message.content}</p>
              <time dateTime={message.createdAt} className="mt-1 block text-right text-xs">
                {formatDate(new Date(message.createdAt), "h:mm a")}
              </time>
            </div>
            {!mine && report ? report(message) : null}
          </div>
        );
      })}
    </div>
  );
}
