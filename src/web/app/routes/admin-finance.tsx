import { formatDate } from "@/lib/dates";
import { Link } from "wouter";
import { DISPUTE_ESCALATION_DAYS } from "@shared/constants";
import { dollarsToCents, formatDollarsExact } from "@shared/money";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { AdminShell } from "@/features/admin/components/admin-shell";
import { useAdminFinance } from "@/features/payments/api/get-admin-finance";

const money = (dollars: number) => formatDollarsExact(dollarsToCents(dollars));

function Finance() {
  const { data, isLoading } = useAdminFinance(true);
  if (isLoading || !data) return <Skeleton className="h-64 w-full" />;
  const tiles = [
    { label: "Held in escrow", value: data.escrowHeld },
    { label: "Platform revenue", value: data.platformRevenue },
    { label: "Owed to providers", value: data.providerBalances },
    { label: "Paid out", value: data.paidOut },
    { label: "Refunded", value: data.refunded },
    // Negative while the guarantee has paid posters more than was recovered from providers (decision 057).
    { label: "Guarantee account", value: data.guaranteeBalance },
  ];
  return (
    <div className="grid gap-8">
      <div className="grid gap-4 sm:grid-cols-3 lg:grid-cols-6">
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
        <p className="text-sm text-muted-foreground">Oldest first. A dispute with no admin action for {DISPUTE_ESCALATION_DAYS} days is escalated.</p>
        {data.disputes.length === 0 ? (
          <p className="py-8 text-center text-muted-foreground">No open disputes</p>
        ) : (
          data.disputes.map((dispute) => (
            <Card key={dispute.taskId}>
              <CardHeader>
                <CardTitle asChild className="flex flex-wrap items-center gap-2 text-lg">
                  <h3>
                    <Link href={`/task/${dispute.taskId}`} className="underline underline-offset-4">
                      {dispute.title}
                    </Link>
                    {dispute.escalated && <Badge variant="destructive">Escalated</Badge>}
                  </h3>
                </CardTitle>
                <CardDescription>
                  {money(dispute.total)} paid · {dispute.held > 0 ? `${money(dispute.held)} held in escrow` : "already released (the guarantee pays a refund)"} · customer{" "}
                  {dispute.posterName} · provider {dispute.providerName} · reported {formatDate(new Date(dispute.reportedAt), "MMM d, h:mm a")} ({dispute.ageDays}{" "}
                  {dispute.ageDays === 1 ? "day" : "days"} ago)
                </CardDescription>
              </CardHeader>
              <CardContent className="grid gap-3">
                <p className="text-sm">{dispute.reason}</p>
                <div>
                  <Button size="sm" asChild>
                    <Link href={`/task/${dispute.taskId}`}>Read the thread and resolve</Link>
                  </Button>
                </div>
              </CardContent>
            </Card>
          ))
        )}
      </section>
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
