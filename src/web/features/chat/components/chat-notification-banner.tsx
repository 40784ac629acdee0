import { BellRing } from "lucide-react";
import { Button } from "@/components/ui/button";

/** The opt-in prompt for browser notifications; "Not now" holds for this browser session. */
export function ChatNotificationBanner({ onEnable, onDismiss }: { onEnable: () => void; onDismiss: () => void }) {
  return (
    <div className="mx-4 mb-2 flex flex-wrap items-center gap-2 rounded-md border bg-muted px-3 py-2 text-sm">
      <BellRing className="size-4 shrink-0" aria-hidden="true" />
      <p className="min-w-48 flex-1">Get a browser notification when a new message arrives while this tab is in the background.</p>
      <Button size="sm" onClick={onEnable}>
        Enable notifications
      </Button>
      <Button size="sm" variant="ghost" onClick={onDismiss}>
        Not now
      </Button>
    </div>
  );
}
