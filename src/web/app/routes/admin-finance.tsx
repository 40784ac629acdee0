import { zodResolver } from "@hookform/resolvers/zod";
import { formatDate } from "@/lib/dates";
import { useState } from "react";
import { Link } from "wouter";
import { dollarsToCents, formatDollarsExact } from "@shared/money";
import { resolveDisputeBodySchema, type AdminFinance } from "@shared/payments";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Skeleton } from "@/components/ui/skeleton";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/use-toast";
import { AdminShell } from "@/features/admin/components/admin-shell";
import { useAdminFinance } from "@/features/payments/api/get-admin-finance";
import { useResolveDispute } from "@/features/payments/api/resolve-dispute";
import { maxLengthOf } from "@/lib/form";
import { useSchemaForm } from "@/lib/schema-form";

const money = (dollars: number) => formatDollarsExact(dollarsToCents(dollars));
type Dispute = AdminFinance["disputes"][number];

// The decision's reason, with the server's rule; the action is the button that opened the dialog.
const resolveReasonSchema = resolveDisputeBodySchema.pick({ reason: true });

function ResolveDialog({ dispute, action, onClose }: { dispute: Dispute; action: "refund" | "release"; onClose: () => void }) {
  const form = useSchemaForm<{ reason: string }>({ resolver: zodResolver(resolveReasonSchema), defaultValues: { reason: "" }, mode: "onChange" });
  const resolve = useResolveDispute();
  const title = action === "refund" ? "Refund the Customer" : "Release to the Provider";

  const submit = form.handleSubmit(({ reason }) =>
    resolve.mutate(
      { taskId: dispute.taskId, action, reason },
      {
        onSuccess: () => {
          toast({ title: "Dispute Resolved", description: action === "refund" ? "The customer was refunded." : "The provider was paid." });
          onClose();
        },
        onError: (error) => {
          const rest = form.showServerErrors(error, "Failed to resolve the dispute.");
          if (rest) toast({ title: "Error", description: rest, variant: "destructive" });
        },
      },
    ),
  );

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>
            {dispute.title}: {money(dispute.total)}. Your reason is kept in the audit log.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={(event) => void submit(event)} noValidate className="grid gap-4">
          <FormField label="Reason" required error={form.formState.errors.reason?.message}>
            <Textarea rows={4} maxLength={maxLengthOf(resolveReasonSchema.shape.reason)} {...form.register("reason")} />
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={!form.formState.isValid || resolve.isPending}>
              {resolve.isPending ? "Saving..." : title}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function Finance() {
  const { data, isLoading } = useAdminFinance(true);
  const [resolving, setResolving] = useState<{ dispute: Dispute; action: "refund" | "release" } | null>(null);
  if (isLoading || !data) return <Skeleton className="h-64 w-full" />;
  const tiles = [
    { label: "Held in escrow", value: data.escrowHeld },
    { label: "Platform revenue", value: data.platformRevenue },
    { label: "Owed to providers", value: data.providerBalances },
    { label: "Paid out", value: data.paidOut },
    { label: "Refunded", value: data.refunded },
  ];
  return (
    <div className="grid gap-8">
      <div className="grid gap-4 sm:grid-cols-3 lg:grid-cols-5">
        {tiles.map((tile) => (
          <Card key={tile.label}>
            <CardHeader>
              <CardDescription>{tile.label}</CardDescription>
              <CardTitle asChild className="text-xl">
                <p>{money(tile.value)}</p>
              </CardTitle>
            </CardHeader>
          </Card>
        ))}
      </div>
      <section className="grid gap-3" aria-labelledby="open-disputes">
        <h2 id="open-disputes" className="text-xl font-semibold">
          Open Disputes ({data.disputes.length})
        </h2>
        {data.disputes.length === 0 ? (
          <p className="py-8 text-center text-muted-foreground">No open disputes</p>
        ) : (
          data.disputes.map((dispute) => (
            <Card key={dispute.taskId}>
              <CardHeader>
                <CardTitle asChild className="text-lg">
                  <h3>
                    <Link href={`/task/${dispute.taskId}`} className="underline underline-offset-4">
                      {dispute.title}
                    </Link>
                  </h3>
                </CardTitle>
                <CardDescription>
                  {money(dispute.total)} · customer {dispute.posterName} · provider {dispute.providerName} · reported{" "}
                  {formatDate(new Date(dispute.reportedAt), "MMM d, h:mm a")}
                </CardDescription>
              </CardHeader>
              <CardContent className="grid gap-3">
                <p className="text-sm">{dispute.reason}</p>
                <div className="flex flex-wrap gap-2">
                  <Button size="sm" variant="outline" onClick={() => setResolving({ dispute, action: "refund" })}>
                    Refund Customer
                  </Button>
                  <Button size="sm" onClick={() => setResolving({ dispute, action: "release" })}>
                    Release to Provider
                  </Button>
                </div>
              </CardContent>
            </Card>
          ))
        )}
      </section>
      {resolving && <ResolveDialog dispute={resolving.dispute} action={resolving.action} onClose={() => setResolving(null)} />}
    </div>
  );
}

/** /admin/finance: money held, earned and paid, and the disputes waiting for a decision. */
export default function AdminFinancePage() {
  return (
    <AdminShell title="Finance" current="/admin/finance">
      <Finance />
    </AdminShell>
  );
}
