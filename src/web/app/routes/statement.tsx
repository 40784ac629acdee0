import { Link, useParams } from "wouter";
import { form1099kNote, statementLines } from "@shared/receipts";
import { ApiError } from "@/lib/api";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { statementPdfUrl, useYearlyStatement } from "@/features/payments/api/get-statements";

/** /earnings/statement/:year: the provider's year in figures, with its PDF and the 1099-K note. */
export default function StatementPage() {
  const { year: yearParam = "" } = useParams<{ year: string }>();
  const year = Number(yearParam);
  const statement = useYearlyStatement(year);
  const data = statement.data;
  return (
    <div className="mx-auto grid max-w-2xl gap-6 px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight">Yearly statement {yearParam}</h1>
      {data ? (
        <>
          <table className="w-full text-sm">
            <caption className="sr-only">Your earnings in {data.year}</caption>
            <tbody>
              {statementLines(data).map(([label, value]) => (
                <tr key={label} className="border-b">
                  <th scope="row" className="py-2 pr-4 text-left font-normal">
                    {label}
                  </th>
                  <td className="py-2 text-right font-medium whitespace-nowrap">{value}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="text-sm text-muted-foreground">{form1099kNote(data)}</p>
          <div className="flex flex-wrap gap-2">
            <Button asChild>
              <a href={statementPdfUrl(data.year)} download>
                Download PDF
              </a>
            </Button>
            <Button asChild variant="outline">
              <Link href="/earnings">Back to earnings</Link>
            </Button>
          </div>
        </>
      ) : statement.error ? (
        <div className="grid gap-3">
          <p className="text-muted-foreground">{statement.error instanceof ApiError ? statement.error.serverMessage : "The statement could not be loaded. Try again."}</p>
          <Link href="/earnings" className="underline underline-offset-4">
            Back to earnings
          </Link>
        </div>
      ) : (
        <Skeleton className="h-48 w-full" />
      )}
    </div>
  );
}
