import { formatDistanceToNow } from "date-fns";
import { Bell } from "lucide-react";
import { Link } from "wouter";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { useUser } from "@/lib/current-user";
import { cn } from "@/lib/cn";
import { useNotifications } from "../api/get-notifications";
import { useMarkNotificationsRead } from "../api/mark-notifications-read";

/** The header bell: unread count, the latest notices, mark all read, and the settings link. */
export function NotificationBell() {
  const { isAuthenticated } = useUser();
  const [open, setOpen] = useState(false);
  // The notices that were unread when the bell was opened keep their mark while it is open,
  // although opening it marked them read (the badge clears on open).
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  const titleId = useId();
  const list = useNotifications(isAuthenticated);
  const markRead = useMarkNotificationsRead();

  if (!isAuthenticated) return null;
  const unread = list.data?.unreadCount ?? 0;
  const items = list.data?.notifications ?? [];
  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) return;
    setFresh(new Set(items.filter((n) => !n.read).map((n) => n.id)));
    if (unread > 0) markRead.mutate(undefined);
  };

  return (
    <Popover open={open} onOpenChange={onOpenChange}>
      <PopoverTrigger asChild>
        <Button variant="ghost" size="icon" className="relative" aria-label={`Notifications, ${unread} unread`}>
          <Bell className="size-5" aria-hidden="true" />
          {unread > 0 && (
            <span
              aria-hidden="true"
              className="absolute -right-0.5 -top-0.5 flex min-w-5 items-center justify-center rounded-full bg-destructive px-1 text-xs font-semibold text-destructive-foreground"
            >
              {unread > 99 ? "99+" : unread}
            </span>
          )}
        </Button>
      </PopoverTrigger>
      <PopoverContent align="end" className="w-80 p-0" aria-labelledby={titleId}>
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
                  {formatDistanceToNow(new Date(n.createdAt), { addSuffix: true })}
                </time>
              </>
            );
            const isNew = !n.read || fresh.has(n.id);
            const className = cn("block px-4 py-3 hover:bg-accent", isNew && "border-l-4 border-primary");
            const onOpen = () => {
              if (!n.read) markRead.mutate([n.id]);
              setOpen(false);
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
          <Link href="/settings/notifications" className="text-sm font-medium text-primary underline-offset-4 hover:underline" onClick={() => setOpen(false)}>
            Notification settings
          </Link>
        </div>
      </PopoverContent>
    </Popover>
  );
}
