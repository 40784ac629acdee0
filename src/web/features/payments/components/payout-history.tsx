import { Link } from "wouter";
import { formatDate } from "@/lib/dates";
import { dollarsToCents, formatDollarsExact } from "@shared/money";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { EARNINGS_CSV_URL, usePayoutHistory } from "../api/get-statements";

const day = (iso: string) => formatDate(new Date(iso), "MMM d, yyyy");

/** The earnings page's payouts, with the tasks each carried, the CSV export and the yearly statements. */
export function PayoutHistory() {
  const { data, isLoading } = usePayoutHistory();
  if (isLoading || !data) return <Skeleton className="h-24 w-full" />;
  return (
    <>
      <section className="grid gap-3" aria-labelledby="earnings-payouts">
        <h2 id="earnings-payouts" className="text-xl font-semibold">
          Payouts
        </h2>
        {data.payouts.length === 0 ? (
          <p className="py-4 text-muted-foreground">No payouts yet. Released money leaves for your payout account once payouts are set up.</p>
        ) : (
          <ul className="grid gap-3">
            {data.payouts.map((payout) => (
              <li key={payout.id} data-testid="payout-item" className="grid gap-2 rounded-lg border bg-card p-4 text-sm">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <span className="font-medium">{formatDollarsExact(dollarsToCents(payout.amount))}</span>
                  <Badge variant={payout.status === "paid" ? "success" : "secondary"}>
                    {payout.status === "paid" && payout.paidAt ? `Paid ${day(payout.paidAt)}` : `Sending since ${day(payout.createdAt)}`}
                  </Badge>
                </div>
                {payout.tasks.length > 0 && (
                  <p className="text-muted-foreground [overflow-wrap:anywhere]">
                    For{" "}
                    {payout.tasks.map((task, index) => (
                      <span key={task.id}>
                        {index > 0 && ", "}
                        <Link href={`/task/${task.id}`} className="underline underline-offset-4">
                          {task.title}
                        </Link>
                      </span>
                    ))}
                  </p>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="grid gap-3" aria-labelledby="earnings-statements">
        <h2 id="earnings-statements" className="text-xl font-semibold">
          Statements and export
        </h2>
        <div className="flex flex-wrap gap-2">
          <Button asChild variant="outline">
            <a href={EARNINGS_CSV_URL} download data-testid="earnings-csv">
              Export CSV
            </a>
          </Button>
          {data.years.map((year) => (
            <Button key={year} asChild variant="outline">
              <Link href={`/earnings/statement/${year}`}>Statement {year}</Link>
            </Button>
          ))}
        </div>
      </section>
    </>
  );
}
