import { useState } from "react";
import { Link } from "wouter";
import { formatDollarsExact } from "@shared/money";
import { REPORT_OUTCOMES, REPORT_REASONS, type AdminReport, type ReportOutcome } from "@shared/moderation";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/use-toast";
import { errorMessage } from "@/lib/api";
import { useModerate, type ModerationAction } from "../api/reports";

type Pending = { title: string; lines: string[]; confirmLabel: string; make: (reason: string) => ModerationAction } | null;

/** One report in the admin's queue: the reported thing in context, the actions it allows, and closing it. */
export function ReportCard({ report }: { report: AdminReport }) {
  const moderate = useModerate();
  const [pending, setPending] = useState<Pending>(null);
  const [reason, setReason] = useState("");
  const [outcome, setOutcome] = useState<ReportOutcome>("no_action");
  const open = report.closedAt === null;

  const run = (action: ModerationAction, done: string) =>
    moderate.mutate(action, {
      onSuccess: () => toast({ title: done }),
      onError: (error) => toast({ variant: "destructive", title: "Not done", description: errorMessage(error, "The action failed. Please try again.") }),
    });

  const removable = report.taskId !== null && report.targetType === "task" && ["open", "claimed", "in_progress", "payment_expired"].includes(report.taskStatus ?? "");
  return (
    <Card>
      <CardHeader className="gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <Badge variant="outline">{report.targetType}</Badge>
          <Badge variant="secondary">{REPORT_REASONS[report.reason]}</Badge>
          {report.subjectSuspended && <Badge variant="destructive">Suspended</Badge>}
        </div>
        <CardTitle className="text-lg break-words">
          About {report.subjectName}
          {report.taskTitle && (
            <>
              {" "}
              on{" "}
              <Link className="underline" href={`/task/${report.taskId}`}>
                {report.taskTitle}
              </Link>{" "}
              ({report.taskStatus?.replace("_", " ")})
            </>
          )}
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        {report.excerpt && <blockquote className="border-l-4 pl-3 break-words whitespace-pre-wrap text-muted-foreground">{report.excerpt}</blockquote>}
        <p className="break-words">
          <span className="font-medium">{report.reporterName} wrote:</span> {report.details}
        </p>
        <p className="text-muted-foreground">Reported {new Date(report.createdAt).toLocaleString()}</p>
        {!open && report.outcome && (
          <p>
            Closed: {REPORT_OUTCOMES[report.outcome]}
            {report.outcomeNote ? ` (${report.outcomeNote})` : ""}
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          {removable && report.taskId && (
            <Button
              size="sm"
              variant="destructive"
              onClick={() =>
                setPending({
                  title: "Remove this task",
                  lines: [
                    `"${report.taskTitle ?? "The task"}" is cancelled and leaves the job board.`,
                    report.taskPaidCents !== null
                      ? `The poster's payment of ${formatDollarsExact(report.taskPaidCents)} is refunded in full to their card.`
                      : "The task is unpaid: no money moves.",
                    "The poster (and any provider) are told why, and how to appeal.",
                  ],
                  confirmLabel: "Remove task",
                  make: (why) => ({ kind: "remove_task", taskId: report.taskId ?? "", reason: why }),
                })
              }
            >
              Remove task
            </Button>
          )}
          {report.targetType === "review" && report.reviewHidden !== null && (
            <Button
              size="sm"
              variant="outline"
              onClick={() =>
                setPending({
                  title: report.reviewHidden ? "Show this review again" : "Hide this review",
                  lines: [report.reviewHidden ? "The review is shown again and counts in the rating." : "Nobody sees the review and it leaves the rating.", "Its author is told why."],
                  confirmLabel: report.reviewHidden ? "Show review" : "Hide review",
                  make: (why) => ({ kind: report.reviewHidden ? "unhide_review" : "hide_review", reviewId: report.targetId, reason: why }),
                })
              }
            >
              {report.reviewHidden ? "Show review" : "Hide review"}
            </Button>
          )}
          {report.subjectId && (
            <Button
              size="sm"
              variant="outline"
              onClick={() =>
                setPending(
                  report.subjectSuspended
                    ? {
                        title: `Lift ${report.subjectName}'s suspension`,
                        lines: ["They can sign in again. Removed tasks stay removed."],
                        confirmLabel: "Lift suspension",
                        make: (why) => ({ kind: "unsuspend", userId: report.subjectId ?? "", reason: why }),
                      }
                    : {
                        title: `Suspend ${report.subjectName}`,
                        lines: [
                          "They are signed out everywhere at once and cannot sign in; their profile is hidden.",
                          "Their tasks not yet completed are removed and the tasks they claimed reopen; every captured payment is refunded in full to its poster.",
                          "They are told why, and how to appeal.",
                        ],
                        confirmLabel: "Suspend account",
                        make: (why) => ({ kind: "suspend", userId: report.subjectId ?? "", reason: why }),
                      },
                )
              }
            >
              {report.subjectSuspended ? "Lift suspension" : "Suspend account"}
            </Button>
          )}
        </div>
        {open && (
          <div className="flex flex-wrap items-end gap-2 border-t pt-3">
            <FormField label="Outcome" className="min-w-0 flex-1">
              <select
                className="flex h-10 w-full min-w-0 rounded-md border border-input bg-background px-3 py-2 text-sm"
                value={outcome}
                onChange={(event) => setOutcome(event.target.value as ReportOutcome)}
              >
                {(Object.entries(REPORT_OUTCOMES) as [ReportOutcome, string][]).map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            </FormField>
            <Button size="sm" disabled={moderate.isPending} onClick={() => run({ kind: "close", reportId: report.id, outcome }, "Report closed")}>
              Close report
            </Button>
          </div>
        )}
      </CardContent>
      <Dialog open={pending !== null} onOpenChange={(next) => !next && setPending(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{pending?.title}</DialogTitle>
            <DialogDescription>{pending?.lines[0]}</DialogDescription>
          </DialogHeader>
          {pending?.lines.slice(1).map((line) => (
            <p key={line} className="text-sm">
              {line}
            </p>
          ))}
          <FormField label="Reason (the person is told)" required description="At least 5 characters.">
            <Textarea rows={3} value={reason} onChange={(event) => setReason(event.target.value)} />
          </FormField>
          <DialogFooter>
            <Button variant="outline" onClick={() => setPending(null)}>
              Cancel
            </Button>
            <Button
              variant="destructive"
              disabled={reason.trim().length < 5 || moderate.isPending}
              onClick={() => {
                if (!pending) return;
                run(pending.make(reason.trim()), `${pending.confirmLabel}: done`);
                setPending(null);
                setReason("");
              }}
            >
              {pending?.confirmLabel}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </Card>
  );
}
