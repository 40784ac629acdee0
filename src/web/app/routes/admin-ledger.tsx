import { useState, type FormEvent } from "react";
import { Link } from "wouter";
import { formatDate } from "@/lib/dates";
import { ApiError } from "@/lib/api";
import { dollarsToCents, formatDollarsExact } from "@shared/money";
import type { LedgerPage } from "@shared/receipts";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { AdminShell } from "@/features/admin/components/admin-shell";
import { ledgerCsvUrl, useLedgerPage, type LedgerFilters } from "@/features/payments/api/search-ledger";

const NO_FILTERS: LedgerFilters = { account: "", taskId: "", from: "", to: "" };
const at = (iso: string) => formatDate(new Date(iso), "MMM d, yyyy h:mm a");

function Entries({ page }: { page: LedgerPage }) {
  if (page.entries.length === 0) return <p className="py-8 text-center text-muted-foreground">No ledger entries match these filters.</p>;
  return (
    <ul className="grid gap-2" aria-label="Ledger entries">
      {page.entries.map((entry) => (
        <li key={entry.id} data-testid="ledger-entry" className="grid gap-1 rounded-lg border bg-card p-3 text-sm sm:grid-cols-[9rem_1fr_auto] sm:items-baseline sm:gap-4">
          <span className="text-muted-foreground">{at(entry.createdAt)}</span>
          <span className="grid gap-0.5 [overflow-wrap:anywhere]">
            <span>
              <span className="font-medium">{entry.kind}</span> · {entry.account}
            </span>
            {entry.taskId && (
              <Link href={`/task/${entry.taskId}`} className="underline underline-offset-4">
                {entry.taskTitle ?? entry.taskId}
              </Link>
            )}
            {entry.memo && <span className="text-muted-foreground">{entry.memo}</span>}
          </span>
          <span className="font-medium sm:text-right">{formatDollarsExact(dollarsToCents(entry.amount))}</span>
        </li>
      ))}
    </ul>
  );
}

function Ledger() {
  const [draft, setDraft] = useState<LedgerFilters>(NO_FILTERS);
  const [filters, setFilters] = useState<LedgerFilters>(NO_FILTERS);
  // The `after` of each page shown so far: the last is the current page, popping goes back.
  const [pages, setPages] = useState<(number | undefined)[]>([undefined]);
  const after = pages.at(-1);
  const { data, error, isLoading } = useLedgerPage(filters, after);

  const search = (event: FormEvent) => {
    event.preventDefault();
    setFilters(draft);
    setPages([undefined]);
  };
  const field = (name: keyof LedgerFilters) => ({
    value: draft[name],
    onChange: (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value }),
  });

  return (
    <div className="grid gap-6">
      <form onSubmit={search} className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" aria-label="Search the ledger">
        <FormField label="Account" description="For example platform:revenue or escrow:task:<task id>">
          <Input {...field("account")} />
        </FormField>
        <FormField label="Task ID">
          <Input {...field("taskId")} />
        </FormField>
        <FormField label="From">
          <Input type="date" {...field("from")} />
        </FormField>
        <FormField label="To">
          <Input type="date" {...field("to")} />
        </FormField>
        <div className="flex flex-wrap gap-2 sm:col-span-2 lg:col-span-4">
          <Button type="submit">Search</Button>
          <Button asChild variant="outline">
            <a href={ledgerCsvUrl(filters)} download>
              Export CSV
            </a>
          </Button>
        </div>
      </form>
      {error ? (
        <p role="alert" className="text-destructive">
          {error instanceof ApiError ? error.serverMessage : "The ledger could not be searched. Try again."}
        </p>
      ) : isLoading || !data ? (
        <Skeleton className="h-64 w-full" />
      ) : (
        <>
          <Entries page={data} />
          <nav aria-label="Ledger pages" className="flex flex-wrap gap-2">
            <Button variant="outline" disabled={pages.length === 1} onClick={() => setPages(pages.slice(0, -1))}>
              Newer entries
            </Button>
            <Button variant="outline" disabled={data.next === null} onClick={() => data.next !== null && setPages([...pages, data.next])}>
              Older entries
            </Button>
          </nav>
        </>
      )}
    </div>
  );
}

/** /admin/ledger: every ledger entry, searched by account, task or dates, and exported as CSV. */
export default function AdminLedgerPage() {
  return (
    <AdminShell title="Ledger" current="/admin/ledger" description="Every movement of money, newest first. The export holds every entry that matches.">
      <Ledger />
    </AdminShell>
  );
}
