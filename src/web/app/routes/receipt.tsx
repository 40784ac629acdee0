import { Link, useParams } from "wouter";
import { formatDate } from "@/lib/dates";
import { ApiError } from "@/lib/api";
import { RECEIPT_TITLES, receiptLines, type Receipt } from "@shared/receipts";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { receiptPdfUrl, useReceipt } from "@/features/payments/api/get-receipts";

const day = (iso: string) => formatDate(new Date(iso), "MMM d, yyyy");

function ReceiptView({ receipt }: { receipt: Receipt }) {
  const rows = receiptLines(receipt);
  return (
    <article className="grid gap-6 rounded-lg border bg-card p-4 sm:p-6">
      <header className="grid gap-1">
        <h1 className="text-2xl font-bold tracking-tight">{RECEIPT_TITLES[receipt.kind]}</h1>
        <p className="text-sm text-muted-foreground">
          Receipt number {receipt.number} · {day(receipt.issuedAt)} · paid by {receipt.payerName}
        </p>
      </header>
      <dl className="grid gap-1 text-sm">
        <dt className="text-muted-foreground">Task</dt>
        <dd className="[overflow-wrap:anywhere]">
          <Link href={`/task/${receipt.task.id}`} className="underline underline-offset-4">
            {receipt.task.title}
          </Link>
          {receipt.task.scheduledDate && <> · {day(receipt.task.scheduledDate)}</>}
          {receipt.task.providerName && <> · with {receipt.task.providerName}</>}
        </dd>
      </dl>
      <table className="w-full text-sm">
        <caption className="sr-only">What this receipt charged or refunded</caption>
        <tbody>
          {rows.map(([label, value], index) => (
            <tr key={label} className={index === rows.length - 1 ? "border-t font-semibold" : ""}>
              <th scope="row" className="py-2 pr-4 text-left font-normal">
                {label}
              </th>
              <td className="py-2 text-right">{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="flex flex-wrap gap-2">
        <Button asChild>
          <a href={receiptPdfUrl(receipt.id)} download data-testid="receipt-pdf">
            Download PDF
          </a>
        </Button>
        <Button asChild variant="outline">
          <Link href="/receipts">All receipts</Link>
        </Button>
      </div>
    </article>
  );
}

/** /receipts/:id: one receipt, only for the person who paid and admins. */
export default function ReceiptPage() {
  const { id = "" } = useParams<{ id: string }>();
  const receipt = useReceipt(id);
  return (
    <div className="mx-auto grid max-w-2xl gap-6 px-4 py-12 sm:px-6">
      {receipt.data ? (
        <ReceiptView receipt={receipt.data} />
      ) : receipt.error ? (
        <div className="grid gap-3">
          <h1 className="text-2xl font-bold tracking-tight">Receipt not found</h1>
          <p className="text-muted-foreground">
            {receipt.error instanceof ApiError && receipt.error.status !== 404 ? receipt.error.serverMessage : "Open your receipts from the Receipts page."}
          </p>
          <Link href="/receipts" className="underline underline-offset-4">
            Go to your receipts
          </Link>
        </div>
      ) : (
        <Skeleton className="h-64 w-full" />
      )}
    </div>
  );
}
