import { eq, sql, type SQL } from "drizzle-orm";
import type { LedgerKind } from "../../../shared/money-lifecycle.js";
import type { Receipt } from "../../../shared/receipts.js";
import { LEDGER_ACCOUNTS } from "../../../shared/task-statement.js";
import type { AppContext } from "../../context.js";
import { queryRows, type Db } from "../../db/client.js";
import { ledgerTransactions, receiptFacts } from "../../db/schema/payments.js";
import { loadTaskStatements } from "../../db/task-statements.js";
import { tasks } from "../../db/schema/tasks.js";
import { noticeAction, sendNotice } from "../../declared-notices.js";
import { receiptNotice, receiptOf, type ReceiptRow } from "./receipts.js";

// ---------------------------------------------------------------------------------------------
// Receipts (docs/decisions/060-receipts-from-the-ledger.md): every ledger transaction that touches
// the poster's card, read with what its receipt names. Which transactions those are is decided by
// the two outside accounts alone, so any kind of payment or refund is covered.

const receiptCard = sql`coalesce(
    (select p.card_last4 from payments p where p.id::text = lt.idempotency_key),
    (select tp.card_last4 from tips tp where tp.id::text = lt.idempotency_key),
    (select p.card_last4 from payments p where p.task_id = lt.task_id and p.card_last4 is not null order by p.created_at desc limit 1))`;

interface ReceiptSqlRow {
  id: string;
  kind: LedgerKind;
  created_at: Date | string;
  paid_cents: string;
  refunded_cents: string;
  card_last4: string | null;
  task_id: string;
  title: string;
  scheduled_date: Date | string | null;
  budget_cents: number;
  urgent_fee_cents: number;
  service_fee_cents: number;
  total_cents: number;
  poster_id: string;
  payer_first: string;
  payer_last: string;
  provider_first: string | null;
  provider_last: string | null;
}

/** The receipts matching `where` (over lt, t), newest first, with the payer's id. */
async function receiptRows(db: Db, where: SQL, limit: number): Promise<{ payerId: string; row: ReceiptRow }[]> {
  const rows = await queryRows<ReceiptSqlRow>(
    db,
    sql`select lt.id, lt.kind, lt.created_at,
          coalesce(-sum(e.amount_cents) filter (where e.account = ${LEDGER_ACCOUNTS.posterPayments} and e.amount_cents < 0), 0) as paid_cents,
          coalesce(sum(e.amount_cents) filter (where e.account = ${LEDGER_ACCOUNTS.refunds} and e.amount_cents > 0), 0) as refunded_cents,
          ${receiptCard} as card_last4,
          t.id as task_id,
          coalesce(f.title, t.title) as title,
          case when f.transaction_id is null then t.scheduled_date else f.scheduled_date end as scheduled_date,
          coalesce(f.budget_cents, t.budget_cents) as budget_cents,
          coalesce(f.urgent_fee_cents, t.urgent_fee_cents) as urgent_fee_cents,
          coalesce(f.service_fee_cents, t.service_fee_cents) as service_fee_cents,
          coalesce(f.total_cents, t.total_cents) as total_cents,
          t.user_id as poster_id, payer.first_name as payer_first, payer.last_name as payer_last,
          provider.first_name as provider_first, provider.last_name as provider_last
        from ledger_transactions lt
        join ledger_entries e on e.transaction_id = lt.id
        join tasks t on t.id = lt.task_id
        join users payer on payer.id = t.user_id
        -- The facts frozen when the money moved; a receipt issued before migration 0024 has none and
        -- reads the task as it is now (decision 060, "Facts frozen at issue").
        left join receipt_facts f on f.transaction_id = lt.id
        left join users provider on provider.id = case when f.transaction_id is null then t.provider_id else f.provider_id end
        where ${where}
        group by lt.id, t.id, f.transaction_id, payer.id, provider.id
        having bool_or((e.account = ${LEDGER_ACCOUNTS.posterPayments} and e.amount_cents < 0) or (e.account = ${LEDGER_ACCOUNTS.refunds} and e.amount_cents > 0))
        order by lt.created_at desc, max(e.id) desc
        limit ${limit}`,
  );
  // A refund's receipt shows its place in the task's account (receipts.ts, refundAccount).
  const statements = await loadTaskStatements(db, rows.filter((r) => Number(r.refunded_cents) > 0).map((r) => r.task_id));
  return rows.map((r) => ({
    payerId: r.poster_id,
    row: {
      statement: statements.get(r.task_id) ?? null,
      id: r.id,
      kind: r.kind,
      createdAt: new Date(r.created_at),
      paidCents: Number(r.paid_cents),
      refundedCents: Number(r.refunded_cents),
      cardLast4: r.card_last4,
      task: {
        id: r.task_id,
        title: r.title,
        scheduledDate: r.scheduled_date === null ? null : new Date(r.scheduled_date),
        budgetCents: r.budget_cents,
        urgentFeeCents: r.urgent_fee_cents,
        serviceFeeCents: r.service_fee_cents,
        totalCents: r.total_cents,
      },
      payer: { firstName: r.payer_first, lastName: r.payer_last },
      provider: r.provider_first === null ? null : { firstName: r.provider_first, lastName: r.provider_last ?? "" },
    },
  }));
}

/** One receipt and whose it is; null when the transaction has none. */
export async function findReceipt(ctx: AppContext, transactionId: string, tx: Db = ctx.db): Promise<{ payerId: string; receipt: Receipt } | null> {
  const [found] = await receiptRows(tx, sql`lt.id = ${transactionId}`, 1);
  const receipt = found ? receiptOf(found.row) : null;
  return found && receipt ? { payerId: found.payerId, receipt } : null;
}

/** The poster's receipts, newest first. */
export async function receiptsOfPayer(ctx: AppContext, payerId: string): Promise<Receipt[]> {
  const rows = await receiptRows(ctx.db, sql`t.user_id = ${payerId}`, 500);
  return rows.flatMap(({ row }) => receiptOf(row) ?? []);
}

/**
 * Freezes the receipt's facts (the task's price, title, date and provider as they are now), then
 * sends its e-mail and notice, in the transaction that moved the money, so all three commit together
 * and the receipt reads later as the e-mail did (decision 060, "Facts frozen at issue").
 */
export async function mailReceipt(ctx: AppContext, kind: LedgerKind, transactionId: string, tx: Db): Promise<void> {
  await tx.insert(receiptFacts).select(
    tx
      .select({
        transactionId: ledgerTransactions.id,
        title: tasks.title,
        scheduledDate: tasks.scheduledDate,
        budgetCents: tasks.budgetCents,
        urgentFeeCents: tasks.urgentFeeCents,
        serviceFeeCents: tasks.serviceFeeCents,
        totalCents: tasks.totalCents,
        providerId: tasks.providerId,
      })
      .from(ledgerTransactions)
      .innerJoin(tasks, eq(tasks.id, ledgerTransactions.taskId))
      .where(eq(ledgerTransactions.id, transactionId)),
  );
  const found = await findReceipt(ctx, transactionId, tx);
  // The receipt is the notice its ledger action declares (MONEY_NOTICES, decision 083).
  if (found) await sendNotice(ctx, tx, noticeAction(`ledger.${kind}`), "poster", receiptNotice(found.receipt, found.payerId, ctx.env.PUBLIC_URL));
}
