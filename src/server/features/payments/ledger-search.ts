import { sql, type SQL } from "drizzle-orm";
import type { LedgerKind } from "../../../shared/money-lifecycle.js";
import { centsToDollars } from "../../../shared/money.js";
import type { LedgerPage, LedgerSearchQuery } from "../../../shared/receipts.js";
import type { AppContext } from "../../context.js";
import { queryRows } from "../../db/client.js";
import { badRequest } from "../../http-errors.js";
import type { Field } from "./csv.js";

// The admin's ledger search (docs/product.md, Money: admin finance): entries by account, task or
// date range, newest first, a page at a time. Pages are keyed on the entry id (the last one seen),
// not an offset, so a page costs the same deep in the ledger and entries written meanwhile do not
// shift the pages that follow.

interface EntryRow {
  id: string;
  transaction_id: string;
  kind: LedgerKind;
  account: string;
  amount_cents: string;
  task_id: string | null;
  title: string | null;
  memo: string | null;
  created_at: Date | string;
}

/** Dates are whole UTC days: `to` includes its day. */
function filters(query: LedgerSearchQuery): SQL {
  if (query.from && query.to && query.from > query.to) throw badRequest("The start date is after the end date. Swap them and search again.");
  const conditions: SQL[] = [sql`true`];
  if (query.account) conditions.push(sql`e.account = ${query.account}`);
  if (query.taskId) conditions.push(sql`lt.task_id = ${query.taskId}`);
  if (query.from) conditions.push(sql`e.created_at >= ${query.from}::date`);
  if (query.to) conditions.push(sql`e.created_at < ${query.to}::date + 1`);
  return sql.join(conditions, sql` and `);
}

async function page(ctx: AppContext, where: SQL, after: number | undefined, size: number): Promise<EntryRow[]> {
  return queryRows<EntryRow>(
    ctx.db,
    sql`select e.id, e.transaction_id, lt.kind, e.account, e.amount_cents, lt.task_id, t.title, lt.memo, e.created_at
        from ledger_entries e
        join ledger_transactions lt on lt.id = e.transaction_id
        left join tasks t on t.id = lt.task_id
        where ${where} ${after === undefined ? sql`` : sql`and e.id < ${after}`}
        order by e.id desc
        limit ${size}`,
  );
}

export async function searchLedger(ctx: AppContext, query: LedgerSearchQuery): Promise<LedgerPage> {
  // One more than a page says whether another page follows.
  const rows = await page(ctx, filters(query), query.after, query.limit + 1);
  const shown = rows.slice(0, query.limit);
  return {
    entries: shown.map((r) => ({
      id: Number(r.id),
      transactionId: r.transaction_id,
      kind: r.kind,
      account: r.account,
      amount: centsToDollars(Number(r.amount_cents)),
      taskId: r.task_id,
      taskTitle: r.title,
      memo: r.memo,
      createdAt: new Date(r.created_at).toISOString(),
    })),
    next: rows.length > query.limit ? Number(shown.at(-1)?.id) : null,
  };
}

export const LEDGER_CSV_HEADER = ["Entry", "Date", "Kind", "Account", "Amount (USD)", "Transaction", "Task ID", "Task", "Memo"];

/** Every matching entry, a thousand at a time, for the streamed export; the query is checked before the first row. */
export function ledgerCsvRows(ctx: AppContext, query: LedgerSearchQuery): AsyncGenerator<Field[][]> {
  const where = filters(query);
  return (async function* rowsOfPages() {
    let after = query.after;
    for (;;) {
      const rows = await page(ctx, where, after, 1000);
      yield rows.map((r): Field[] => [
        Number(r.id),
        new Date(r.created_at).toISOString(),
        r.kind,
        r.account,
        { cents: Number(r.amount_cents) },
        r.transaction_id,
        r.task_id,
        r.title,
        r.memo,
      ]);
      if (rows.length < 1000) return;
      after = Number(rows.at(-1)?.id);
    }
  })();
}
