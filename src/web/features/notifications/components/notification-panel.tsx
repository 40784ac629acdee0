import { timeAgo } from "@/lib/dates";
import { useId } from "react";
import { Link } from "wouter";
import type { NotificationList } from "@shared/notifications";
import { Button } from "@/components/ui/button";
import { Popover, PopoverAnchor, PopoverContent } from "@/components/ui/popover";
import type { DeferredOverlay } from "@/components/ui/use-deferred-overlay";
import { cn } from "@/lib/cn";
import type { useMarkNotificationsRead } from "../api/mark-notifications-read";

export interface NotificationPanelProps {
  overlay: DeferredOverlay;
  items: NotificationList["notifications"];
  unread: number;
  /** The notices that were unread when the bell was opened: they keep their mark while it is open. */
  fresh: ReadonlySet<string>;
  markRead: ReturnType<typeof useMarkNotificationsRead>;
}

/** The bell's list of the latest notices, loaded at the bell's first press (notification-bell.tsx). */
export function NotificationPanel({ overlay, items, unread, fresh, markRead }: NotificationPanelProps) {
  const titleId = useId();
  return (
    <Popover open={overlay.open} onOpenChange={overlay.setOpen}>
      <PopoverAnchor virtualRef={overlay.anchor} />
      <PopoverContent
        align="end"
        className="w-80 p-0"
        aria-labelledby={titleId}
        onCloseAutoFocus={overlay.returnFocus}
        onInteractOutside={overlay.onInteractOutside}
      >
        <div className="flex items-center justify-between border-b px-4 py-3">
          <p id={titleId} className="font-semibold">
            Notifications
          </p>
          <Button variant="ghost" size="sm" disabled={unread === 0 || markRead.isPending} onClick={() => markRead.mutate(undefined)}>
            Mark all as read
          </Button>
        </div>
        <ul className="max-h-96 overflow-y-auto">
          {items.length === 0 && <li className="px-4 py-6 text-center text-sm text-muted-foreground">No notifications yet</li>}
          {items.map((n) => {
            const content = (
              <>
                <span className="block text-sm font-medium">{n.title}</span>
                <span className="block text-sm text-muted-foreground">{n.body}</span>
                <time dateTime={n.createdAt} className="block text-xs text-muted-foreground">
                  {timeAgo(new Date(n.createdAt))}
                </time>
              </>
            );
            const isNew = !n.read || fresh.has(n.id);
            const className = cn("block px-4 py-3 hover:bg-accent", isNew && "border-l-4 border-primary");
            const onOpen = () => {
              if (!n.read) markRead.mutate([n.id]);
              overlay.setOpen(false);
            };
            return (
              <li key={n.id} className="border-b last:border-b-0">
                {n.taskId ? (
                  <Link href={`/task/${n.taskId}`} className={className} onClick={onOpen}>
                    {content}
                  </Link>
                ) : (
                  <div className={className}>{content}</div>
                )}
              </li>
            );
          })}
        </ul>
        <div className="border-t px-4 py-2">
          <Link href="/settings/notifications" className="text-sm font-medium text-primary underline-offset-4 hover:underline" onClick={() => overlay.setOpen(false)}>
            Notification settings
          </Link>
        </div>
      </PopoverContent>
    </Popover>
  );
}
