import { Bell } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { DeferredDialog, deferredPart } from "@/components/ui/deferred-dialog";
import { useUser } from "@/lib/current-user";
import { useNotifications } from "../api/get-notifications";
import { useMarkNotificationsRead } from "../api/mark-notifications-read";

// The list (Radix Popover, Floating UI) is its own chunk, fetched when
// the pointer or focus reaches the bell and shown at its press: every signed-in page shows the bell,
// few open it (issue 17, docs/decisions/041-forms-loaded-on-first-use.md).
const panel = deferredPart(() => import("./notification-panel"), (m) => m.NotificationPanel);

/** The header bell: unread count, the latest notices, mark all read, and the settings link. */
export function NotificationBell() {
  const { isAuthenticated } = useUser();
  // The notices that were unread when the bell was opened keep their mark while it is open,
  // although opening it marked them read (the badge clears on open).
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  const list = useNotifications(isAuthenticated);
  const markRead = useMarkNotificationsRead();

  if (!isAuthenticated) return null;
  const unread = list.data?.unreadCount ?? 0;
  const items = list.data?.notifications ?? [];
  // Opening marks the notices read (the badge clears) and remembers which were new.
  const opened = () => {
    setFresh(new Set(items.filter((n) => !n.read).map((n) => n.id)));
    if (unread > 0) markRead.mutate(undefined);
  };

  return (
    <DeferredDialog
      part={panel}
      onOpen={opened}
      trigger={
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
      }
    >
      {(overlay) => <panel.Component overlay={overlay} items={items} unread={unread} fresh={fresh} markRead={markRead} />}
    </DeferredDialog>
  );
}
