import { formatDate } from "@/lib/dates";
import { formatDollarsExact, dollarsToCents } from "@shared/money";
import { endSentence } from "@shared/names";
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
import type { TaskAccount } from "../hooks/use-task-account";

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
const cents = formatDollarsExact;
/** "Tue 3:40 PM": the end of the approval window, at most a day away. */
const windowEnd = (iso: string | null) => (iso ? formatDate(new Date(iso), "EEE h:mm a") : "");
const day = (iso: string) => formatDate(new Date(iso), "MMM d, yyyy");

/**
 * The task's payment card (docs/product.md, Money: "One account of each task"): the account's badge
 * and headline, each movement of the money with its date, the totals, and for a split the rule that
 * made it, all in the words of the task's statement; then the poster's buttons (approve the release
 * during the approval window, tip after completion).
 */
export function TaskEscrowActions({ task, account }: { task: TaskDetail; account: TaskAccount }) {
  const { user } = useUser();
  const approve = useApproveRelease(task.id);
  const { escrow, words } = account;
  if (!escrow || !words || words.lines.length === 0) return null;
  const isPoster = user?.id === task.userId;
  const providerName = task.provider?.displayName ?? "the provider";

  function approveNow() {
    approve.mutate(undefined, {
      onSuccess: () => toast({ title: "Payment Released", description: "The provider has been paid." }),
      onError: (error) => toast({ title: "Error", description: errorMessage(error, "Failed to release the payment."), variant: "destructive" }),
    });
  }

  // What the poster may still do with held money, until when, and what each button does
  // (docs/product.md, Money: the 24-hour approval window).
  const window =
    isPoster && escrow.status === "holding"
      ? `You have until ${windowEnd(escrow.releaseAt)} to approve or report a problem. Approve releases ${money(escrow.providerShare)} to ${providerName} now; if you do nothing, it is released automatically then.`
      : null;
  return (
    <Card data-testid="payment-account">
      <CardHeader>
        <CardTitle asChild className="flex flex-wrap items-center gap-2 text-xl">
          <h2>
            Payment {words.badge && <Badge variant={words.badge.tone}>{words.badge.label}</Badge>}
          </h2>
        </CardTitle>
        {words.headline && <CardDescription>{words.headline}</CardDescription>}
      </CardHeader>
      <CardContent className="grid gap-4">
        {window && <p className="text-sm">{window}</p>}
        <table className="w-full text-sm">
          <caption className="sr-only">What moved, and when</caption>
          <tbody>
            {words.lines.map((line, index) => (
              <tr key={`${line.at}-${index}`} className="border-b last:border-b-0">
                <th scope="row" className="py-1.5 pr-3 text-left font-normal [overflow-wrap:anywhere]">
                  {line.label}
                  <span className="block text-xs text-muted-foreground">{day(line.at)}</span>
                </th>
                <td className={`py-1.5 text-right align-top whitespace-nowrap ${line.sign === 0 ? "text-muted-foreground" : "font-medium"}`}>{cents(line.cents)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {words.totals.length > 0 && (
          <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-3">
            {words.totals.map((total) => (
              <div key={total.label}>
                <dt className="text-muted-foreground">{total.label}</dt>
                <dd className="font-medium">{cents(total.cents)}</dd>
              </div>
            ))}
          </dl>
        )}
        {words.rule && <p className="text-sm text-muted-foreground">{words.rule}</p>}
        {isPoster && words.lines.some((line) => line.sign === 1) && (
          <p className="text-sm text-muted-foreground">Refunds go back to the card you paid with; your bank may take a few days to show them.</p>
        )}
        {isPoster && (escrow.status === "holding" || task.status === "completed") && (
          <div className="flex flex-wrap gap-2">
            {escrow.status === "holding" && (
              <ConfirmActionDialog
                trigger={<Button disabled={approve.isPending}>{approve.isPending ? "Releasing..." : "Approve & Release Payment"}</Button>}
                title="Release the payment now?"
                lines={[endSentence(`${money(escrow.providerShare)} will be released to ${providerName}`), "You can still report a problem until 72 hours after completion."]}
                confirmLabel="Yes, release payment"
                onConfirm={approveNow}
              />
            )}
            {task.status === "completed" && <TipButton taskId={task.id} providerName={providerName} />}
          </div>
        )}
      </CardContent>
    </Card>
  );
}
