import { sql } from "drizzle-orm";
import { centsToDollars, workValueOfRelease } from "../../../shared/money.js";
import type { LedgerKind } from "../../../shared/money-lifecycle.js";
import { displayName } from "../../../shared/names.js";
import { FORM_1099K_THRESHOLD_CENTS, FORM_1099K_THRESHOLD_TRANSACTIONS, type PayoutHistory, type YearlyStatement } from "../../../shared/receipts.js";
import { BALANCE_ENTRY_WORDS } from "../../../shared/statement-words.js";
import type { AppContext } from "../../context.js";
import { queryRows } from "../../db/client.js";
import { loadTaskStatements } from "../../db/task-statements.js";
import { notFound } from "../../http-errors.js";
import type { Field } from "./csv.js";
import { ACCOUNTS } from "./ledger.js";

// The provider's statements (docs/product.md, Money: statements), read from their balance account
// on the ledger: every release and tip credits it, every payout empties it. A payout carried the
// tasks credited since the payout before it, so the entries in ledger order say which tasks each
// payout paid.

interface BalanceEntry {
  id: number;
  transactionId: string;
  kind: LedgerKind;
  key: string;
  amountCents: number;
  createdAt: Date;
  taskId: string | null;
  title: string | null;
}

/** Every entry of the provider's balance, oldest first (entry ids follow the order they were written). */
async function balanceEntries(ctx: AppContext, providerId: string): Promise<BalanceEntry[]> {
  const rows = await queryRows<{
    id: number;
    transaction_id: string;
    kind: LedgerKind;
    key: string;
    amount_cents: string;
    created_at: Date | string;
    task_id: string | null;
    title: string | null;
  }>(
    ctx.db,
    sql`select e.id, lt.id as transaction_id, lt.kind, lt.idempotency_key as key, e.amount_cents, e.created_at, t.id as task_id, t.title
        from ledger_entries e
        join ledger_transactions lt on lt.id = e.transaction_id
        left join tasks t on t.id = lt.task_id
        where e.account = ${ACCOUNTS.providerBalance(providerId)}
        order by e.id`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    transactionId: r.transaction_id,
    kind: r.kind,
    key: r.key,
    amountCents: Number(r.amount_cents),
    createdAt: new Date(r.created_at),
    taskId: r.task_id,
    title: r.title,
  }));
}

export async function payoutHistory(ctx: AppContext, providerId: string): Promise<PayoutHistory> {
  const entries = await balanceEntries(ctx, providerId);
  const records = await queryRows<{ id: string; status: "pending" | "paid"; paid_at: Date | string | null }>(
    ctx.db,
    sql`select id, status, paid_at from payouts where provider_id = ${providerId}`,
  );
  const byId = new Map(records.map((r) => [r.id, r]));
  const carried = new Map<string, string>();
  const history: PayoutHistory["payouts"] = [];
  for (const entry of entries) {
    if (entry.kind !== "payout") {
      if (entry.taskId && entry.title) carried.set(entry.taskId, entry.title);
      continue;
    }
    const record = byId.get(entry.key);
    history.push({
      id: entry.key,
      amount: centsToDollars(-entry.amountCents),
      status: record?.status ?? "pending",
      createdAt: entry.createdAt.toISOString(),
      paidAt: record?.paid_at ? new Date(record.paid_at).toISOString() : null,
      tasks: [...carried].map(([id, title]) => ({ id, title })),
    });
    carried.clear();
  }
  const years = [...new Set(entries.map((e) => e.createdAt.getUTCFullYear()))].sort((a, b) => b - a);
  return { payouts: history.reverse(), years };
}

export async function yearlyStatement(ctx: AppContext, provider: { id: string; firstName: string; lastName: string }, year: number): Promise<YearlyStatement> {
  const entries = (await balanceEntries(ctx, provider.id)).filter((e) => e.createdAt.getUTCFullYear() === year);
  if (entries.length === 0) throw notFound(`You had no earnings in ${year}. Pick a year listed on your earnings page.`);
  // Each release's gross is read from its task's statement: the line items fixed when the task was
  // priced and the escrow's figures at the release (docs/product.md, Money: statements).
  const statements = await loadTaskStatements(ctx.db, entries.flatMap((e) => (e.taskId ? [e.taskId] : [])));
  let gross = 0;
  let fees = 0;
  let lateFees = 0;
  let recovered = 0;
  let tips = 0;
  let payouts = 0;
  let transactions = 0;
  for (const entry of entries) {
    if (entry.kind === "payout") {
      payouts -= entry.amountCents;
    } else if (entry.kind === "tip") {
      tips += entry.amountCents;
      transactions += 1;
    } else if (entry.kind === "release" || entry.kind === "split") {
      // Gross is the budget and surcharge behind the released part of the escrow (all of it for a
      // release, what a dispute's split did not refund otherwise: workValueOfRelease); the fee is
      // gross less what the ledger credited, so gross - fees is the ledger's own figure and a split's
      // fee stays the platform's commission on that part, not on the whole budget.
      const statement = entry.taskId ? statements.get(entry.taskId) : undefined;
      const line = statement?.lines.find((l) => l.transactionId === entry.transactionId && l.providerId === provider.id && l.rule !== null);
      if (!statement || !line?.rule) throw new Error(`Release ${entry.transactionId} has no line in its task's statement`);
      const workCents = workValueOfRelease(statement.items, line.rule.releasedCents, line.rule.heldCents);
      gross += workCents;
      fees += workCents - entry.amountCents;
      transactions += 1;
    } else if (entry.kind === "late_fee") {
      // A late-cancellation fee is the provider's in full, no commission, and not work done
      // (docs/product.md, Late cancellation): its own line, not inside gross.
      lateFees += entry.amountCents;
      transactions += 1;
    } else if (entry.kind === "guarantee") {
      // A refund the admin recovered from the provider (decision 057): its own line, taken from net.
      recovered -= entry.amountCents;
    }
  }
  const paid = gross + lateFees - recovered + tips;
  return {
    year,
    gross: centsToDollars(gross),
    fees: centsToDollars(fees),
    lateFees: centsToDollars(lateFees),
    recovered: centsToDollars(recovered),
    tips: centsToDollars(tips),
    net: centsToDollars(gross - fees + lateFees - recovered + tips),
    payouts: centsToDollars(payouts),
    transactions,
    overReportingThreshold: paid > FORM_1099K_THRESHOLD_CENTS && transactions > FORM_1099K_THRESHOLD_TRANSACTIONS,
    providerName: displayName(provider),
  };
}

export const EARNINGS_CSV_HEADER = ["Date", "Type", "Task", "Task ID", "Amount (USD)"];

/** The provider's balance as CSV rows, oldest first: what was credited for which task, and each payout, in words. */
export async function* earningsCsvRows(ctx: AppContext, providerId: string): AsyncGenerator<Field[][]> {
  const entries = await balanceEntries(ctx, providerId);
  yield entries.map((e) => [e.createdAt.toISOString(), BALANCE_ENTRY_WORDS[e.kind], e.title, e.taskId, { cents: e.amountCents }]);
}
