import { Link } from "wouter";
import { formatDate } from "@/lib/dates";
import { dollarsToCents, formatDollarsExact } from "@shared/money";
import { RECEIPT_TITLES } from "@shared/receipts";
import { Skeleton } from "@/components/ui/skeleton";
import { useReceipts } from "@/features/payments/api/get-receipts";

/** /receipts: every payment, tip and refund of the signed-in person, newest first. */
export default function ReceiptsPage() {
  const { data, isLoading } = useReceipts();
  return (
    <div className="mx-auto grid max-w-3xl gap-6 px-4 py-12 sm:px-6">
      <header className="grid gap-2">
        <h1 className="text-3xl font-bold tracking-tight">Receipts</h1>
        <p className="text-muted-foreground">A receipt for every payment, tip and refund on your tasks. Open one to download it as a PDF.</p>
      </header>
      {isLoading || !data ? (
        <Skeleton className="h-40 w-full" />
      ) : data.receipts.length === 0 ? (
        <p className="py-8 text-center text-muted-foreground">No receipts yet. You get one when you pay for a task.</p>
      ) : (
        <ul className="grid gap-3">
          {data.receipts.map((receipt) => (
            <li key={receipt.id} data-testid="receipt-item" className="rounded-lg border bg-card p-4 text-sm">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <Link href={`/receipts/${receipt.id}`} className="font-medium underline underline-offset-4 [overflow-wrap:anywhere]">
                  {RECEIPT_TITLES[receipt.kind]}: {receipt.task.title}
                </Link>
                <span className="font-medium">
                  {receipt.kind === "refund" ? "+" : ""}
                  {formatDollarsExact(dollarsToCents(receipt.amount))}
                </span>
              </div>
              <p className="text-muted-foreground">
                {receipt.number} · {formatDate(new Date(receipt.issuedAt), "MMM d, yyyy")}
              </p>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
