import { formatDate } from "@/lib/dates";
import { Link } from "wouter";
import { dollarsToCents, formatDollarsExact } from "@shared/money";
import { MONEY_WORDS } from "@shared/money-words";
import type { Earnings } from "@shared/payments";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { useEarnings } from "@/features/payments/api/get-earnings";
import { PayoutAlert } from "@/features/payments/components/payout-alert";

const money = (dollars: number) => formatDollarsExact(dollarsToCents(dollars));

const STATUS_LABEL: Record<Earnings["tasks"][number]["escrowStatus"], string> = {
  none: "In progress",
  holding: "Held",
  disputed: "Under review",
  released: "Released",
  refunded: "Refunded",
};

function Totals({ data }: { data: Earnings }) {
  const tiles = [
    { label: "Held in escrow", value: data.held, hint: "Completed work waiting for release" },
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
  return (
    <div className="mx-auto grid max-w-5xl gap-8 px-4 py-12 sm:px-6">
      <header className="grid gap-2">
        <h1 className="text-3xl font-bold tracking-tight">Earnings</h1>
        <p className="text-muted-foreground">You keep {MONEY_WORDS.providerShare}, and 100% of tips.</p>
      </header>
      <PayoutAlert />
      {earnings.isLoading || !earnings.data ? (
        <Skeleton className="h-40 w-full" />
      ) : (
        <>
          <Totals data={earnings.data} />
          <section className="grid gap-3" aria-labelledby="earnings-tasks">
            <h2 id="earnings-tasks" className="text-xl font-semibold">
              Tasks
            </h2>
            {earnings.data.tasks.length === 0 ? (
              <p className="py-8 text-center text-muted-foreground">No paid tasks yet</p>
            ) : (
              <div className="overflow-x-auto rounded-md border">
                <table className="w-full text-left text-sm">
                  <caption className="sr-only">Your paid tasks and what you earn from each</caption>
                  <thead className="bg-muted">
                    <tr>
                      <th scope="col" className="p-3">Task</th>
                      <th scope="col" className="p-3">Status</th>
                      <th scope="col" className="p-3">Your share</th>
                      <th scope="col" className="p-3">Tips</th>
                      <th scope="col" className="p-3">Release</th>
                    </tr>
                  </thead>
                  <tbody>
                    {earnings.data.tasks.map((task) => (
                      <tr key={task.taskId} className="border-t">
                        <td className="p-3">
                          <Link href={`/task/${task.taskId}`} className="underline underline-offset-4">
                            {task.title}
                          </Link>
                        </td>
                        <td className="p-3">
                          <Badge variant={task.escrowStatus === "released" ? "success" : "secondary"}>{STATUS_LABEL[task.escrowStatus]}</Badge>
                        </td>
                        <td className="p-3">{money(task.providerShare)}</td>
                        <td className="p-3">{money(task.tips)}</td>
                        <td className="p-3 whitespace-nowrap">
                          {task.releaseAt ? formatDate(new Date(task.releaseAt), "MMM d, h:mm a") : ""}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        </>
      )}
    </div>
  );
}
