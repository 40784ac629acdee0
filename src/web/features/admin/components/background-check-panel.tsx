import { ShieldCheck } from "lucide-react";
import { BACKGROUND_CHECK_STATE_LABELS, checkDay } from "@shared/background-check-words";
import type { BackgroundCheck } from "@shared/background-checks";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { DeferredDialog, deferredPart } from "@/components/ui/deferred-dialog";
import { toast } from "@/components/ui/use-toast";
import { errorMessage } from "@/lib/api";
import { useBackgroundCheckService } from "../api/get-background-check-service";
import { useStartBackgroundCheck } from "../api/start-background-check";

// An applicant's or provider's background check on the admin dashboard, with "Record a check"
// (always: a check done by hand) and "Start a check" when a Checkr-compatible service is connected
// (docs/decisions/064-background-checks.md). The record form is its own chunk (decision 041).

const recordDialog = deferredPart(() => import("./record-check-dialog"), (m) => m.RecordCheckDialog);

const VARIANT = { not_started: "outline", pending: "warning", clear: "success", consider: "destructive" } as const;

function detail(check: BackgroundCheck | null): string {
  if (!check) return "No check yet. Approval needs a clear one.";
  if (check.state === "pending") return `${check.checkedWhat}, started ${checkDay(check.startedAt)}. Waiting for the report.`;
  const when = check.completedAt ? `, ${checkDay(check.completedAt)}` : "";
  return check.state === "consider" ? `${check.checkedWhat}${when}. ${check.reason ?? ""}` : `${check.checkedWhat}${when}.`;
}

export function BackgroundCheckPanel({ userId, name, check }: { userId: string; name: string; check: BackgroundCheck | null }) {
  const service = useBackgroundCheckService();
  const start = useStartBackgroundCheck();
  const state = check?.state ?? "not_started";
  return (
    <div className="grid gap-2 rounded-md border p-3" aria-label={`Background check of ${name}`} role="group">
      <div className="flex flex-wrap items-center gap-2">
        <ShieldCheck className="size-4 text-muted-foreground" aria-hidden="true" />
        <span className="font-medium">Background check</span>
        <Badge variant={VARIANT[state]}>{BACKGROUND_CHECK_STATE_LABELS[state]}</Badge>
      </div>
      <p className="text-muted-foreground [overflow-wrap:anywhere]">{detail(check)}</p>
      <div className="flex flex-wrap gap-2">
        <DeferredDialog
          part={recordDialog}
          trigger={
            <Button type="button" size="sm" variant="outline">
              Record a check
            </Button>
          }
        >
          {(overlay) => <recordDialog.Component userId={userId} name={name} open={overlay.open} onOpenChange={overlay.setOpen} onCloseAutoFocus={overlay.returnFocus} />}
        </DeferredDialog>
        {service.data?.service === "checkr" ? (
          <Button
            type="button"
            size="sm"
            variant="outline"
            disabled={start.isPending || state === "pending"}
            onClick={() =>
              start.mutate(userId, {
                onSuccess: () => toast({ title: "Check started", description: `${name} has been sent the background-check form.` }),
                onError: (error) => toast({ title: "Not started", description: errorMessage(error, "The check could not be started. Please try again."), variant: "destructive" }),
              })
            }
          >
            Start a check
          </Button>
        ) : null}
      </div>
    </div>
  );
}
