import { Copy } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmActionDialog } from "@/components/ui/confirm-action-dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Skeleton } from "@/components/ui/skeleton";
import { toast } from "@/components/ui/use-toast";
import { errorMessage } from "@/lib/api";
import { formatDate } from "@/lib/dates";
import { useCalendarFeed, useDeleteCalendarFeed, useResetCalendarFeed } from "../api/calendar-feed";

// The private calendar feed (docs/product.md, "Time and turning up"): a secret address a calendar
// app subscribes to. The server shows the address only when it is made, so a lost one is reset:
// the old address then stops working, which is why resetting asks first.

export function CalendarFeedCard() {
  const feed = useCalendarFeed();
  const reset = useResetCalendarFeed();
  const remove = useDeleteCalendarFeed();
  // The address as made in this visit; never stored in the browser.
  const [url, setUrl] = useState<string | null>(null);

  const make = () =>
    reset.mutate(undefined, {
      onSuccess: (made) => setUrl(made.url),
      onError: (error) => toast({ title: "Error", description: errorMessage(error, "Could not make a calendar address"), variant: "destructive" }),
    });
  const copy = async () => {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      toast({ title: "Copied", description: "Paste it into your calendar app as a new subscription." });
    } catch {
      toast({ title: "Could not copy", description: "Select the address and copy it yourself.", variant: "destructive" });
    }
  };

  const made = feed.data?.feed ?? null;
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild className="text-xl">
          <h2>Calendar feed</h2>
        </CardTitle>
        <CardDescription>
          Your upcoming tasks in Google Calendar, Apple Calendar or Outlook: subscribe to your private address. Anyone who has it can read your tasks, so keep it to yourself.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {feed.isLoading ? <Skeleton className="h-10 w-full" /> : null}
        {url ? (
          <div className="grid gap-2">
            <Label htmlFor="calendar-feed-url">Your private calendar address</Label>
            <div className="flex min-w-0 flex-wrap gap-2">
              <Input id="calendar-feed-url" readOnly value={url} className="min-w-0 flex-1 basis-56 font-mono text-xs" onFocus={(event) => event.currentTarget.select()} />
              <Button type="button" variant="outline" onClick={() => void copy()}>
                <Copy aria-hidden="true" /> Copy address
              </Button>
            </div>
            <p className="text-sm text-muted-foreground">It is shown only now. Lost it? Reset it for a new one.</p>
          </div>
        ) : made ? (
          <p className="text-sm">
            You made a calendar address on {formatDate(new Date(made.createdAt), "MMM d, yyyy")}. It is shown only when made: to see one again, reset it.
          </p>
        ) : feed.data ? (
          <p className="text-sm">You have no calendar address yet.</p>
        ) : null}
        {feed.data ? (
          <div className="flex flex-wrap gap-2">
            {made ? (
              <>
                <ConfirmActionDialog
                  trigger={<Button variant="outline" disabled={reset.isPending}>{reset.isPending ? "Resetting..." : "Reset address"}</Button>}
                  title="Reset your calendar address?"
                  lines={["You get a new address at once. The old one stops working: calendar apps subscribed to it stop showing your tasks until you subscribe to the new one."]}
                  confirmLabel="Yes, reset it"
                  cancelLabel="Keep the old one"
                  destructive
                  onConfirm={make}
                />
                <ConfirmActionDialog
                  trigger={<Button variant="ghost" disabled={remove.isPending}>Turn off</Button>}
                  title="Turn your calendar feed off?"
                  lines={["The address stops working and no new one is made. You can make a new one later."]}
                  confirmLabel="Yes, turn it off"
                  cancelLabel="Go back"
                  destructive
                  onConfirm={() => remove.mutate(undefined, { onSuccess: () => setUrl(null) })}
                />
              </>
            ) : (
              <Button onClick={make} disabled={reset.isPending}>
                {reset.isPending ? "Making..." : "Make my calendar address"}
              </Button>
            )}
          </div>
        ) : null}
        {feed.isError ? <p className="text-sm text-destructive">{errorMessage(feed.error, "Could not load your calendar feed")}</p> : null}
      </CardContent>
    </Card>
  );
}
