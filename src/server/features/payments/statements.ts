import { sql } from "drizzle-orm";
import { centsToDollars, priceTask, workValueOfRelease } from "../../../shared/money.js";
import type { LedgerKind } from "../../../shared/money-lifecycle.js";
import { displayName } from "../../../shared/names.js";
import { FORM_1099K_THRESHOLD_CENTS, FORM_1099K_THRESHOLD_TRANSACTIONS, type PayoutHistory, type YearlyStatement } from "../../../shared/receipts.js";
import type { Urgency } from "../../../shared/constants.js";
import type { AppContext } from "../../context.js";
import { queryRows } from "../../db/client.js";
import { notFound } from "../../http-errors.js";
import type { Field } from "./csv.js";
import { ACCOUNTS } from "./repository.js";

// The provider's statements (docs/product.md, Money: statements), read from their balance account
// on the ledger: every release and tip credits it, every payout empties it. A payout carried the
// tasks credited since the payout before it, so the entries in ledger order say which tasks each
// payout paid.

interface BalanceEntry {
  id: number;
  kind: LedgerKind;
  key: string;
  amountCents: number;
  createdAt: Date;
  taskId: string | null;
  title: string | null;
  budgetCents: number | null;
  urgency: Urgency | null;
  /** What the entry's transaction took from the task's escrow, and gave back to the poster of it. */
  escrowCents: number;
  refundCents: number;
}

/** Every entry of the provider's balance, oldest first (entry ids follow the order they were written). */
async function balanceEntries(ctx: AppContext, providerId: string): Promise<BalanceEntry[]> {
  const rows = await queryRows<{
    id: number;
    kind: LedgerKind;
    key: string;
    amount_cents: string;
    created_at: Date | string;
    task_id: string | null;
    title: string | null;
    budget_cents: number | null;
    urgency: Urgency | null;
    escrow_cents: string | null;
    refund_cents: string | null;
  }>(
    ctx.db,
    sql`select e.id, lt.kind, lt.idempotency_key as key, e.amount_cents, e.created_at, t.id as task_id, t.title, t.budget_cents, t.urgency,
          (select -sum(x.amount_cents) from ledger_entries x where x.transaction_id = lt.id and x.account = (${ACCOUNTS.escrow("")}::text || lt.task_id::text)) as escrow_cents,
          (select sum(x.amount_cents) from ledger_entries x where x.transaction_id = lt.id and x.account = ${ACCOUNTS.refunds}) as refund_cents
        from ledger_entries e
        join ledger_transactions lt on lt.id = e.transaction_id
        left join tasks t on t.id = lt.task_id
        where e.account = ${ACCOUNTS.providerBalance(providerId)}
        order by e.id`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    kind: r.kind,
    key: r.key,
    amountCents: Number(r.amount_cents),
    createdAt: new Date(r.created_at),
    taskId: r.task_id,
    title: r.title,
    budgetCents: r.budget_cents,
    urgency: r.urgency,
    escrowCents: Number(r.escrow_cents ?? 0),
    refundCents: Number(r.refund_cents ?? 0),
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
  let gross = 0;
  let fees = 0;
  let tips = 0;
  let payouts = 0;
  let transactions = 0;
  for (const entry of entries) {
    if (entry.kind === "payout") {
      payouts -= entry.amountCents;
    } else if (entry.kind === "tip") {
      tips += entry.amountCents;
      transactions += 1;
    } else if ((entry.kind === "release" || entry.kind === "split") && entry.budgetCents !== null && entry.urgency !== null) {
      // Gross is the budget and surcharge behind the released part of the escrow (all of it for a
      // release, what a dispute's split did not refund otherwise: workValueOfRelease); the fee is
      // gross less what the ledger credited, so gross - fees is the ledger's own figure and a split's
      // fee stays the platform's commission on that part, not on the whole budget.
      const released = entry.escrowCents - entry.refundCents;
      const workCents = workValueOfRelease(priceTask(entry.budgetCents, entry.urgency), released, entry.escrowCents);
      gross += workCents;
      fees += workCents - entry.amountCents;
      transactions += 1;
    } else if (entry.kind === "late_fee") {
      // A late-cancellation fee is the provider's in full, no commission (docs/product.md, Late cancellation).
      gross += entry.amountCents;
      transactions += 1;
    } else if (entry.kind === "guarantee") {
      // A refund the admin recovered from the provider (decision 057): it takes back gross earnings.
      gross += entry.amountCents;
    }
  }
  return {
    year,
    gross: centsToDollars(gross),
    fees: centsToDollars(fees),
    tips: centsToDollars(tips),
    net: centsToDollars(gross - fees + tips),
    payouts: centsToDollars(payouts),
    transactions,
    overReportingThreshold: gross + tips > FORM_1099K_THRESHOLD_CENTS && transactions > FORM_1099K_THRESHOLD_TRANSACTIONS,
    providerName: displayName(provider),
  };
}

const KIND_WORDS: Partial<Record<LedgerKind, string>> = { release: "Released", tip: "Tip", payout: "Payout" };

export const EARNINGS_CSV_HEADER = ["Date", "Type", "Task", "Task ID", "Amount (USD)"];

/** The provider's balance as CSV rows, oldest first: what was credited for which task, and each payout. */
export async function* earningsCsvRows(ctx: AppContext, providerId: string): AsyncGenerator<Field[][]> {
  const entries = await balanceEntries(ctx, providerId);
  yield entries.map((e) => [e.createdAt.toISOString(), KIND_WORDS[e.kind] ?? e.kind, e.title, e.taskId, { cents: e.amountCents }]);
}
