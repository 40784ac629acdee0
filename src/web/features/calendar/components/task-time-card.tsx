import { CalendarPlus, Navigation } from "lucide-react";
import { useState } from "react";
import { formatDateTime, formatTimeRange, localTimeInstants, NO_SHOW_AFTER_MINUTES, PROPOSAL_IN_PAST } from "@shared/calendar";
import { formatDollarsExact } from "@shared/money";
import { evaluateTransition, type TaskViewer } from "@shared/task-lifecycle";
import type { TaskDetail } from "@shared/tasks";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmActionDialog } from "@/components/ui/confirm-action-dialog";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/use-toast";
import { ApiError, errorMessage } from "@/lib/api";
import { useOnMyWay, useProposeTime, useTimeAnswer, type TimeAnswer } from "../api/task-time";
import { SlotPicker } from "./slot-picker";
import { viewerTimeZone } from "./slot-groups";

// A claimed task's time between its two people (docs/product.md, "Time and turning up";
// docs/decisions/074-time-and-turning-up.md): when it is, on the reader's clock; "On my way"; a new
// time proposed, accepted or declined; and, 30 minutes after the start with no start, the poster's
// choice to wait, reschedule or report a no-show. Which buttons show comes from the shared table.

export interface TaskTimeCardProps {
  task: TaskDetail;
  viewer: TaskViewer | null;
  now: Date;
  /** Refreshes the page's copy of the task after an action (or a refusal: ours may be stale). */
  onChanged: () => unknown;
  /** The viewer's zone; the browser's own unless a test pins it. */
  timeZone?: string;
}

const MINUTE = 60_000;

function spanOf(startsAt: string, durationMinutes: number, timeZone: string): string {
  const start = new Date(startsAt);
  return formatTimeRange(start, new Date(start.getTime() + durationMinutes * MINUTE), timeZone, { withZone: true });
}

const clockOf = (at: string, timeZone: string) => new Intl.DateTimeFormat("en-US", { timeZone, hour: "numeric", minute: "2-digit" }).format(new Date(at));

export function TaskTimeCard({ task, viewer, now, onChanged, timeZone = viewerTimeZone() }: TaskTimeCardProps) {
  const [proposing, setProposing] = useState(false);
  const [waiting, setWaiting] = useState(false);
  const answer = useTimeAnswer(onChanged);
  if (!task.scheduledDate || !viewer) return null;
  const isPoster = viewer.id === task.userId;
  const isProvider = viewer.id === task.providerId;
  if (!isPoster && !isProvider) return null;

  const can = (name: Parameters<typeof evaluateTransition>[0]) => evaluateTransition(name, task, viewer, now);
  const other = isPoster ? (task.provider?.displayName ?? "Your provider") : task.poster.displayName;
  const run = (which: TimeAnswer, success: string) =>
    answer.mutate(
      { taskId: task.id, answer: which },
      {
        onSuccess: () => toast({ title: success }),
        onError: (error) => toast({ title: "Error", description: errorMessage(error, "Could not update the task. Please try again."), variant: "destructive" }),
      },
    );

  const onMyWay = can("on_my_way");
  const late = can("report_no_show").ok && !task.onMyWayAt;
  const canPropose = can("propose_time").ok;
  const proposalForMe = can("accept_time").ok;

  return (
    <Card>
      <CardHeader>
        <CardTitle asChild className="text-xl">
          <h2>When</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid gap-1 text-sm">
          <p className="font-medium">
            <time dateTime={task.scheduledDate}>{spanOf(task.scheduledDate, task.durationMinutes, timeZone)}</time>
          </p>
          {task.timeZone !== timeZone ? <p className="text-muted-foreground">At the task's place: {spanOf(task.scheduledDate, task.durationMinutes, task.timeZone)}</p> : null}
          <p>
            <a href={`/api/tasks/${encodeURIComponent(task.id)}/calendar.ics`} download className="inline-flex items-center gap-1.5 font-medium text-primary underline">
              <CalendarPlus className="size-4" aria-hidden="true" /> Add to my calendar (.ics)
            </a>
          </p>
        </div>

        {task.onMyWayAt ? (
          <p role="status" className="flex items-center gap-2 rounded-md border bg-muted/40 p-3 text-sm font-medium">
            <Navigation className="size-4 shrink-0" aria-hidden="true" />
            {isPoster
              ? `${other} is on the way${task.arrivalEstimateAt ? ` (arrives about ${clockOf(task.arrivalEstimateAt, timeZone)})` : ""}`
              : `You told ${other} you are on the way${task.arrivalEstimateAt ? ` (arriving about ${clockOf(task.arrivalEstimateAt, timeZone)})` : ""}.`}
          </p>
        ) : null}

        {isProvider && task.status === "claimed" ? (
          onMyWay.ok ? (
            <OnMyWayButton taskId={task.id} posterName={task.poster.displayName} onChanged={onChanged} again={task.onMyWayAt !== null} />
          ) : onMyWay.status === 409 ? (
            <p className="text-sm text-muted-foreground">"On my way" opens once the poster pays.</p>
          ) : null
        ) : null}

        {late && !waiting ? (
          <Alert variant="warning" role="status">
            <AlertTitle>{other} has not started</AlertTitle>
            <AlertDescription className="grid gap-3">
              <p>
                It is more than {NO_SHOW_AFTER_MINUTES} minutes past the start time. You can wait, choose a new time, or report a no-show: the task ends and you are refunded{" "}
                {formatDollarsExact(Math.round(task.totalAmount * 100))} in full.
              </p>
              <div className="flex flex-wrap gap-2">
                <Button variant="outline" onClick={() => setWaiting(true)}>
                  Wait
                </Button>
                {canPropose ? (
                  <Button variant="outline" onClick={() => setProposing(true)}>
                    Reschedule
                  </Button>
                ) : null}
                <ConfirmActionDialog
                  trigger={<Button variant="destructive" disabled={answer.isPending}>Report a no-show</Button>}
                  title="Report a no-show?"
                  lines={[
                    `The task ends and ${formatDollarsExact(Math.round(task.totalAmount * 100))} is refunded to you in full.`,
                    `The no-show counts on ${other}'s profile. This cannot be undone.`,
                  ]}
                  confirmLabel="Yes, report a no-show"
                  cancelLabel="Go back"
                  destructive
                  onConfirm={() => run("report-no-show", "No-show reported: you are refunded in full.")}
                />
              </div>
            </AlertDescription>
          </Alert>
        ) : null}

        {task.proposedStartAt ? (
          <div role="status" className="grid gap-2 rounded-md border p-3 text-sm">
            {proposalForMe ? (
              <>
                <p className="font-medium">
                  {other} proposes a new time: {spanOf(task.proposedStartAt, task.durationMinutes, timeZone)}
                </p>
                <p className="text-muted-foreground">Declining keeps the current time.</p>
                <div className="flex flex-wrap gap-2">
                  <Button disabled={answer.isPending} onClick={() => run("accept-time", "New time accepted")}>
                    Accept new time
                  </Button>
                  <Button variant="outline" disabled={answer.isPending} onClick={() => run("decline-time", "New time declined: the current time stays")}>
                    Decline
                  </Button>
                </div>
              </>
            ) : (
              <p>
                You proposed {spanOf(task.proposedStartAt, task.durationMinutes, timeZone)}. Waiting for {other} to answer; until then the current time stays.
              </p>
            )}
          </div>
        ) : null}

        {canPropose ? (
          proposing ? (
            <ProposeTimeForm task={task} asProvider={isProvider} timeZone={timeZone} onChanged={onChanged} onDone={() => setProposing(false)} />
          ) : (
            <div>
              <Button variant="outline" onClick={() => setProposing(true)}>
                {task.proposedStartAt ? "Propose another time" : "Propose a new time"}
              </Button>
            </div>
          )
        ) : null}
      </CardContent>
    </Card>
  );
}

/** "On my way": asks each time whether to share the position once, for the arrival estimate. */
function OnMyWayButton({ taskId, posterName, onChanged, again }: { taskId: string; posterName: string; onChanged: () => unknown; again: boolean }) {
  const [open, setOpen] = useState(false);
  const [locating, setLocating] = useState(false);
  const send = useOnMyWay(onChanged);
  const post = (position: { lat: number; lon: number } | null) =>
    send.mutate(
      { taskId, body: { position } },
      {
        onSuccess: () => {
          setOpen(false);
          toast({ title: "On your way", description: `${posterName} has been told.` });
        },
        onError: (error) => toast({ title: "Error", description: errorMessage(error, "Could not tell the poster. Please try again."), variant: "destructive" }),
      },
    );
  const share = () => {
    if (!("geolocation" in navigator)) {
      post(null);
      return;
    }
    setLocating(true);
    navigator.geolocation.getCurrentPosition(
      (found) => {
        setLocating(false);
        post({ lat: found.coords.latitude, lon: found.coords.longitude });
      },
      () => {
        setLocating(false);
        toast({ title: "Position not shared", description: "Your browser did not give your position; the poster is told without an arrival time." });
        post(null);
      },
      { maximumAge: 60_000, timeout: 10_000 },
    );
  };
  const busy = locating || send.isPending;
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <div>
        <Button onClick={() => setOpen(true)}>
          <Navigation aria-hidden="true" /> {again ? "On my way again" : "On my way"}
        </Button>
      </div>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Share your position for an arrival time?</DialogTitle>
          <DialogDescription>
            {posterName} is told you are on the way. With your position, they also see about when you arrive. It is used once for that estimate and not kept.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter className="gap-2">
          <Button variant="outline" disabled={busy} onClick={() => post(null)}>
            Don't share
          </Button>
          <Button disabled={busy} onClick={share}>
            {busy ? "Sending..." : "Share my position once"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/**
 * A new time: the provider chooses from their own free slots; the poster types a date and time on
 * their clock (a time the clocks skip is refused here; the earlier of a repeated hour is taken).
 */
function ProposeTimeForm({
  task,
  asProvider,
  timeZone,
  onChanged,
  onDone,
}: {
  task: TaskDetail;
  asProvider: boolean;
  timeZone: string;
  onChanged: () => unknown;
  onDone: () => void;
}) {
  const propose = useProposeTime(onChanged);
  const [chosen, setChosen] = useState<string | null>(null);
  const [date, setDate] = useState("");
  const [time, setTime] = useState("");
  const [error, setError] = useState<{ field: "date" | "time" | "slot"; message: string } | null>(null);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    let startsAt: string | null = chosen;
    if (!asProvider) {
      if (!date) return setError({ field: "date", message: "Choose a date" });
      if (!time) return setError({ field: "time", message: "Choose a time" });
      const [instant] = localTimeInstants(date, time, timeZone);
      if (!instant) return setError({ field: "time", message: "The clocks skip that time on that night. Choose another time." });
      if (instant.getTime() <= Date.now()) return setError({ field: "date", message: PROPOSAL_IN_PAST });
      startsAt = instant.toISOString();
    } else if (!startsAt) {
      return setError({ field: "slot", message: "Choose one of your free times" });
    }
    setError(null);
    propose.mutate(
      { taskId: task.id, body: { startsAt } },
      {
        onSuccess: () => {
          toast({ title: "New time proposed", description: `Sent for ${formatDateTime(new Date(startsAt), timeZone, { withZone: true })}. The current time stays until it is accepted.` });
          onDone();
        },
        onError: (err) => {
          // The server names the field (startsAt) or says why in words (an overlap, 409).
          const message = err instanceof ApiError ? (err.fieldErrors.startsAt ?? err.serverMessage) : null;
          setError({ field: asProvider ? "slot" : "date", message: message ?? errorMessage(err, "Could not propose the time. Please try again.") });
        },
      },
    );
  };

  return (
    <form noValidate onSubmit={submit} className="grid gap-3 rounded-md border p-3">
      {asProvider && task.providerId ? (
        <SlotPicker
          providerId={task.providerId}
          providerName="your"
          durationMinutes={task.durationMinutes}
          value={chosen}
          onChange={(choice) => setChosen(choice?.slot.startsAt ?? null)}
          error={error?.field === "slot" ? error.message : undefined}
          timeZone={timeZone}
        />
      ) : (
        <div className="grid gap-3 sm:grid-cols-2">
          <FormField label="New date" required error={error?.field === "date" ? error.message : undefined}>
            <Input type="date" value={date} onChange={(event) => setDate(event.target.value)} />
          </FormField>
          <FormField label="New start time" required description={`On your clock (${timeZone.replaceAll("_", " ")})`} error={error?.field === "time" ? error.message : undefined}>
            <Input type="time" step={900} value={time} onChange={(event) => setTime(event.target.value)} />
          </FormField>
        </div>
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={propose.isPending}>
          {propose.isPending ? "Sending..." : "Send new time"}
        </Button>
        <Button type="button" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
