import { formatDate } from "@/lib/dates";
import { formatDollarsExact, dollarsToCents } from "@shared/money";
import { endSentence } from "@shared/names";
import type { TaskEscrow } from "@shared/payments";
import type { TaskDetail } from "@shared/tasks";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmActionDialog } from "@/components/ui/confirm-action-dialog";
import { DeferredDialog, deferredPart } from "@/components/ui/deferred-dialog";
import { toast } from "@/components/ui/use-toast";
import { useUser } from "@/lib/current-user";
import { errorMessage } from "@/lib/api";
import { useApproveRelease } from "../api/approve-release";
import { useTaskEscrow } from "../api/get-task-escrow";

// The tip form (react-hook-form, zod, the Radix dialog, the card form) are their own
// chunks, fetched when the pointer or focus reaches their buttons and shown at the press (issue 17,
// docs/decisions/041-forms-loaded-on-first-use.md).
const tipDialog = deferredPart(() => import("./tip-dialog"), (m) => m.TipDialog);

function TipButton({ taskId, providerName }: { taskId: string; providerName: string }) {
  return (
    <DeferredDialog part={tipDialog} trigger={<Button variant="secondary">Tip</Button>}>
      {(overlay) => <tipDialog.Component overlay={overlay} taskId={taskId} providerName={providerName} />}
    </DeferredDialog>
  );
}

const money = (dollars: number) => formatDollarsExact(dollarsToCents(dollars));
const when = (iso: string | null) => (iso ? formatDate(new Date(iso), "MMM d, yyyy 'at' h:mm a") : "");
/** "Tue 3:40 PM": the end of the approval window, at most a day away. */
const windowEnd = (iso: string | null) => (iso ? formatDate(new Date(iso), "EEE h:mm a") : "");

const BADGE: Record<TaskEscrow["status"], { label: string; variant: "warning" | "destructive" | "success" | "secondary" }> = {
  none: { label: "Not paid", variant: "secondary" },
  holding: { label: "Paid · held in escrow", variant: "warning" },
  disputed: { label: "Under review", variant: "destructive" },
  released: { label: "Released", variant: "success" },
  refunded: { label: "Refunded", variant: "secondary" },
};

function describe(escrow: TaskEscrow, isPoster: boolean, providerName: string): string {
  switch (escrow.status) {
    case "holding":
      // What the poster may still do with the money, until when, and what each button does
      // (docs/product.md, Money: the 24-hour approval window).
      return isPoster
        ? `You have until ${windowEnd(escrow.releaseAt)} to approve or report a problem. Approve releases ${money(escrow.providerShare)} to ${providerName} now; if you do nothing, it is released automatically then.`
        : `${money(escrow.providerShare)} is held in escrow and will be released to you on ${when(escrow.releaseAt)}.`;
    case "disputed":
      return `A problem was reported. ${money(escrow.total)} stays held in escrow until an admin decides.`;
    case "released":
      return isPoster ? "The payment was released to the provider." : `${money(escrow.providerShare)} was released to you.`;
    case "refunded":
      return "The payment was refunded to the customer.";
    default:
      return "No payment was taken for this task.";
  }
}

/** A cancelled task's refund, from the ledger: "Refunded $32.90 on Nov 24, 2026" (docs/product.md, Money). */
function RefundCard({ refund, isPoster }: { refund: NonNullable<TaskEscrow["refund"]>; isPoster: boolean }) {
  const on = formatDate(new Date(refund.refundedAt), "MMM d, yyyy");
  return (
    <Card data-testid="refund-card">
      <CardHeader>
        <CardTitle asChild className="flex flex-wrap items-center gap-2 text-xl">
          <h2>
            Payment <Badge variant="secondary">Refunded</Badge>
          </h2>
        </CardTitle>
        <CardDescription>
          {isPoster
            ? `Refunded ${money(refund.amount)} on ${on}. The refund goes back to the card you paid with; your bank may take a few days to show it.`
            : `The task was cancelled and the poster's payment was refunded on ${on}. Nothing will be paid for this task.`}
        </CardDescription>
      </CardHeader>
    </Card>
  );
}

/**
 * After completion: approve release, report a problem, tip (poster); held/released status (both).
 * After a paid task's cancellation: the refund.
 */
export function TaskEscrowActions({ task }: { task: TaskDetail }) {
  const { user } = useUser();
  const isPoster = user?.id === task.userId;
  const isProvider = user !== null && user.id === task.providerId;
  const cancelledAfterPayment = task.status === "cancelled" && task.paymentCapturedAt !== null;
  const visible = (task.status === "completed" || cancelledAfterPayment) && (isPoster || isProvider);
  const escrow = useTaskEscrow(task.id, visible);
  const approve = useApproveRelease(task.id);
  if (!visible || !escrow.data) return null;
  const data = escrow.data;
  if (task.status === "cancelled") return data.refund ? <RefundCard refund={data.refund} isPoster={isPoster} /> : null;
  const badge = BADGE[data.status];
  const providerName = task.provider?.displayName ?? "the provider";

  function approveNow() {
    approve.mutate(undefined, {
      onSuccess: () => toast({ title: "Payment Released", description: "The provider has been paid." }),
      onError: (error) => toast({ title: "Error", description: errorMessage(error, "Failed to release the payment."), variant: "destructive" }),
    });
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle asChild className="flex flex-wrap items-center gap-2 text-xl">
          <h2>
            Payment <Badge variant={badge.variant}>{badge.label}</Badge>
          </h2>
        </CardTitle>
        <CardDescription>{describe(data, isPoster, providerName)}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-3">
          {isPoster && (
            <div>
              <dt className="text-muted-foreground">You paid</dt>
              <dd className="font-medium">{money(data.total)}</dd>
            </div>
          )}
          <div>
            <dt className="text-muted-foreground">{isPoster ? "Provider receives" : "Your earnings"}</dt>
            <dd className="font-medium">{money(data.providerShare)}</dd>
          </div>
          {data.tips > 0 && (
            <div>
              <dt className="text-muted-foreground">Tips</dt>
              <dd className="font-medium">{money(data.tips)}</dd>
            </div>
          )}
        </dl>
        {isPoster && (
          <div className="flex flex-wrap gap-2">
            {data.status === "holding" && (
              <>
                <ConfirmActionDialog
                  trigger={<Button disabled={approve.isPending}>{approve.isPending ? "Releasing..." : "Approve & Release Payment"}</Button>}
                  title="Release the payment now?"
                  lines={[endSentence(`${money(data.providerShare)} will be released to ${providerName}`), "You can still report a problem until 72 hours after completion."]}
                  confirmLabel="Yes, release payment"
                  onConfirm={approveNow}
                />
              </>
            )}
            <TipButton taskId={task.id} providerName={providerName} />
          </div>
        )}
      </CardContent>
    </Card>
  );
}
