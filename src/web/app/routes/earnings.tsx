import { formatDate } from "@/lib/dates";
import { Link } from "wouter";
import { dollarsToCents, formatDollarsExact } from "@shared/money";
import { MONEY_WORDS } from "@shared/money-words";
import { earningOfRow } from "@shared/money-answers";
import type { Earnings } from "@shared/payments";
import { earningWords } from "@shared/statement-words";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { useEarnings } from "@/features/payments/api/get-earnings";
import { usePayoutStatus } from "@/features/payments/api/get-payout-status";
import { PayoutAlert } from "@/features/payments/components/payout-alert";
import { PayoutHistory } from "@/features/payments/components/payout-history";

const money = (dollars: number) => formatDollarsExact(dollarsToCents(dollars));

type EarningRow = Earnings["tasks"][number];

const at = (iso: string) => formatDate(new Date(iso), "MMM d, h:mm a");

/**
 * A row in the words of the provider's account (earningWords, src/shared/statement-words.ts): its
 * status, "You earned" once the money moved or "You earn" while it is to come, and when it moved or
 * will (docs/product.md, Money).
 */
export function rowWords(row: EarningRow): ReturnType<typeof earningWords> {
  return earningWords(earningOfRow(row), at);
}

function StatusBadge({ row }: { row: EarningRow }) {
  const paid = row.status === "released" || row.status === "settled" || row.status === "late_fee";
  return <Badge variant={paid ? "success" : "secondary"}>{rowWords(row).status}</Badge>;
}

const TaskLink = ({ row }: { row: EarningRow }) => (
  <Link href={`/task/${row.taskId}`} className="underline underline-offset-4 [overflow-wrap:anywhere]">
    {row.title}
  </Link>
);

/** Phones: one card per task, label beside value, so nothing is squeezed into a column. */
function EarningCards({ rows }: { rows: EarningRow[] }) {
  return (
    <ul className="grid gap-3 md:hidden">
      {rows.map((row) => (
        <li key={row.taskId} data-testid="earnings-card" className="grid gap-3 rounded-lg border bg-card p-4 text-sm">
          <div className="flex items-start justify-between gap-3">
            <TaskLink row={row} />
            <StatusBadge row={row} />
          </div>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
            <dt className="text-muted-foreground">{rowWords(row).amountLabel}</dt>
            <dd className="text-right font-medium">{money(row.earned)}</dd>
            <dt className="text-muted-foreground">Tips</dt>
            <dd className="text-right">{money(row.tips)}</dd>
          </dl>
          <p className="text-muted-foreground">{rowWords(row).when}</p>
        </li>
      ))}
    </ul>
  );
}

function EarningTable({ rows }: { rows: EarningRow[] }) {
  return (
    <div className="hidden rounded-md border md:block">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Your paid tasks and what each earned you or will</caption>
        <thead className="bg-muted">
          <tr>
            <th scope="col" className="p-3">Task</th>
            <th scope="col" className="p-3">Status</th>
            <th scope="col" className="p-3">Earnings</th>
            <th scope="col" className="p-3">Tips</th>
            <th scope="col" className="p-3">When</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.taskId} data-testid="earnings-row" className="border-t">
              <td className="p-3">
                <TaskLink row={row} />
              </td>
              <td className="p-3 whitespace-nowrap">
                <StatusBadge row={row} />
              </td>
              <td className="p-3 whitespace-nowrap">
                <span className="text-muted-foreground">{rowWords(row).amountLabel} </span>
                {money(row.earned)}
              </td>
              <td className="p-3 whitespace-nowrap">{money(row.tips)}</td>
              <td className="p-3">{rowWords(row).when}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Totals({ data }: { data: Earnings }) {
  const tiles = [
    { label: "Held in escrow", value: data.held, hint: "Completed work waiting for release, and work under a reported problem" },
    { label: "Available", value: data.available, hint: data.payoutsEnabled ? "Being paid out" : "Set up payouts to receive it" },
    { label: "Paid out", value: data.paidOut, hint: "Sent to your payout account" },
  ];
  return (
    <div className="grid gap-4 sm:grid-cols-3">
      {tiles.map((tile) => (
        <Card key={tile.label}>
          <CardHeader>
            <CardDescription>{tile.label}</CardDescription>
            <CardTitle asChild className="text-2xl">
              <p>{money(tile.value)}</p>
            </CardTitle>
          </CardHeader>
          <CardContent className="text-sm text-muted-foreground">{tile.hint}</CardContent>
        </Card>
      ))}
    </div>
  );
}

/** /earnings: the provider's money, held, available and paid out, task by task. */
export default function EarningsPage() {
  const earnings = useEarnings(true);
  // The payout alert's answer comes with the earnings, not after them: an alert that appears above
  // the totals pushed them down (CLS 0.08 at 390 px).
  const payoutStatus = usePayoutStatus(true);
  return (
    <div className="mx-auto grid max-w-5xl gap-8 px-4 py-12 sm:px-6">
      <header className="grid gap-2">
        <h1 className="text-3xl font-bold tracking-tight">Earnings</h1>
        <p className="text-muted-foreground">You keep {MONEY_WORDS.providerShare}, and 100% of tips.</p>
      </header>
      {earnings.isLoading || !earnings.data || payoutStatus.isLoading ? (
        <Skeleton className="h-40 w-full" />
      ) : (
        <>
          <PayoutAlert />
          <Totals data={earnings.data} />
          <section className="grid gap-3" aria-labelledby="earnings-tasks">
            <h2 id="earnings-tasks" className="text-xl font-semibold">
              Tasks
            </h2>
            {earnings.data.tasks.length === 0 ? (
              <p className="py-8 text-center text-muted-foreground">No paid tasks yet</p>
            ) : (
              <>
                <EarningCards rows={earnings.data.tasks} />
                <EarningTable rows={earnings.data.tasks} />
              </>
            )}
          </section>
          <PayoutHistory />
        </>
      )}
    </div>
  );
}
