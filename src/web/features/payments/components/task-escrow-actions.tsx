import { format } from "date-fns";
import { formatDollarsExact, dollarsToCents } from "@shared/money";
import type { TaskEscrow } from "@shared/payments";
import type { TaskDetail } from "@shared/tasks";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { toast } from "@/components/ui/use-toast";
import { useUser } from "@/lib/current-user";
import { errorMessage } from "@/lib/api";
import { useApproveRelease } from "../api/approve-release";
import { useTaskEscrow } from "../api/get-task-escrow";
import { ReportProblemDialog } from "./report-problem-dialog";
import { TipDialog } from "./tip-dialog";

const money = (dollars: number) => formatDollarsExact(dollarsToCents(dollars));
const when = (iso: string | null) => (iso ? format(new Date(iso), "MMM d, yyyy 'at' h:mm a") : "");

const BADGE: Record<TaskEscrow["status"], { label: string; variant: "warning" | "destructive" | "success" | "secondary" }> = {
  none: { label: "Not paid", variant: "secondary" },
  holding: { label: "Held in escrow", variant: "warning" },
  disputed: { label: "Under review", variant: "destructive" },
  released: { label: "Released", variant: "success" },
  refunded: { label: "Refunded", variant: "secondary" },
};

function describe(escrow: TaskEscrow, isPoster: boolean): string {
  switch (escrow.status) {
    case "holding":
      return isPoster
        ? `Your payment is held in escrow. It is released to the provider on ${when(escrow.releaseAt)} unless you approve it sooner or report a problem.`
        : `${money(escrow.providerShare)} is held in escrow and will be released to you on ${when(escrow.releaseAt)}.`;
    case "disputed":
      return isPoster
        ? "You reported a problem. The payment stays held while our team reviews it."
        : `The customer reported a problem. ${money(escrow.providerShare)} stays held while our team reviews it.`;
    case "released":
      return isPoster ? "The payment was released to the provider." : `${money(escrow.providerShare)} was released to you.`;
    case "refunded":
      return "The payment was refunded to the customer.";
    default:
      return "No payment was taken for this task.";
  }
}

/** After completion: approve release, report a problem, tip (poster); held/released status (both). */
export function TaskEscrowActions({ task }: { task: TaskDetail }) {
  const { user } = useUser();
  const isPoster = user?.id === task.userId;
  const isProvider = user !== null && user.id === task.providerId;
  const visible = task.status === "completed" && (isPoster || isProvider);
  const escrow = useTaskEscrow(task.id, visible);
  const approve = useApproveRelease(task.id);
  if (!visible || !escrow.data) return null;
  const data = escrow.data;
  const badge = BADGE[data.status];

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
        <CardDescription>{describe(data, isPoster)}</CardDescription>
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
        {data.status === "disputed" && data.disputeReason && (
          <p className="text-sm">
            <span className="text-muted-foreground">Reported problem:</span> {data.disputeReason}
          </p>
        )}
        {isPoster && (
          <div className="flex flex-wrap gap-2">
            {data.status === "holding" && (
              <>
                <Button onClick={approveNow} disabled={approve.isPending}>
                  {approve.isPending ? "Releasing..." : "Approve & Release Payment"}
                </Button>
                <ReportProblemDialog taskId={task.id} />
              </>
            )}
            <TipDialog taskId={task.id} />
          </div>
        )}
      </CardContent>
    </Card>
  );
}
