import { eq, inArray, sql } from "drizzle-orm";
import type { LedgerKind } from "../../../shared/money-lifecycle.js";
import { LEDGER_ACCOUNTS, type RefundReason } from "../../../shared/task-statement.js";
import type { AppContext } from "../../context.js";
import type { Db } from "../../db/client.js";
import { SqlStatement } from "../../db/prepared.js";
import { ledgerEntries } from "../../db/schema/payments.js";
import { receiptKind } from "./receipts.js";
import { mailReceipt } from "./receipt-ledger.js";

// The payments feature's double-entry ledger (docs/decisions/008-payments-and-ledger.md), written
// only through the money table's ledger.* actions; a write that touches the poster's card mails its
// receipt in the same transaction (receipt-ledger.ts).

// ---------------------------------------------------------------------------------------------
// The ledger, in integer cents. A posting adds its amount to an account's balance; the postings of
// one transaction sum to zero, so money is only ever moved, never made. Entries are append-only: a
// trigger refuses UPDATE and DELETE (drizzle/0001_ledger_append_only.sql).

/** The ledger's accounts, named once in src/shared/task-statement.ts, which reads them back into statements. */
export const ACCOUNTS = LEDGER_ACCOUNTS;

export interface Posting {
  account: string;
  amountCents: number;
}

/** What each money action needs; its ledger transaction is keyed so that it happens at most once. */
interface ActionInputs {
  /** Keyed by the payment: a refunded late capture and a second, real payment are both recorded. */
  capture: { paymentId: string; taskId: string; amountCents: number; posterId: string; memo?: string };
  /** Keyed by the task: a task's escrow is released once. */
  release: { taskId: string; providerId: string; heldCents: number; providerShareCents: number; actorId: string | null };
  /** Keyed by the payment whose capture it gives back; its reason is the memo a statement reads. */
  refund: { paymentId: string; taskId: string; heldCents: number; actorId: string | null; reason: RefundReason };
  tip: { tipId: string; taskId: string; posterId: string; providerId: string; amountCents: number };
  payout: { payoutId: string; providerId: string; amountCents: number };
  /** Keyed by the dispute: a dispute is resolved once. */
  split: { disputeId: string; taskId: string; providerId: string | null; heldCents: number; refundCents: number; providerShareCents: number; actorId: string };
  /** Keyed by the dispute, and by the dispute's recovery when the admin chose to recover it from the provider. */
  guarantee: { disputeId: string; taskId: string; amountCents: number; actorId: string; recoverFrom: string | null };
  /** Keyed by the payment whose escrow pays it. */
  late_fee: { paymentId: string; taskId: string; providerId: string; feeCents: number; actorId: string | null };
}

export interface LedgerTransactionInput {
  kind: LedgerKind;
  key: string;
  taskId: string | null;
  createdBy: string | null;
  memo?: string;
  postings: Posting[];
}

/** Each money action of the table as its ledger transaction; the Record makes a new action fail type checking here. */
const LEDGER_OF: { [A in LedgerKind]: (input: ActionInputs[A]) => LedgerTransactionInput } = {
  capture: (i) => ({
    kind: "capture",
    key: i.paymentId,
    taskId: i.taskId,
    createdBy: i.posterId,
    ...(i.memo ? { memo: i.memo } : {}),
    postings: [
      { account: ACCOUNTS.posterPayments, amountCents: -i.amountCents },
      { account: ACCOUNTS.escrow(i.taskId), amountCents: i.amountCents },
    ],
  }),
  release: (i) => ({
    kind: "release",
    key: i.taskId,
    taskId: i.taskId,
    createdBy: i.actorId,
    postings: [
      { account: ACCOUNTS.escrow(i.taskId), amountCents: -i.heldCents },
      { account: ACCOUNTS.providerBalance(i.providerId), amountCents: i.providerShareCents },
      { account: ACCOUNTS.revenue, amountCents: i.heldCents - i.providerShareCents },
    ],
  }),
  refund: (i) => ({
    kind: "refund",
    key: i.paymentId,
    taskId: i.taskId,
    createdBy: i.actorId,
    memo: i.reason,
    postings: [
      { account: ACCOUNTS.escrow(i.taskId), amountCents: -i.heldCents },
      { account: ACCOUNTS.refunds, amountCents: i.heldCents },
    ],
  }),
  tip: (i) => ({
    kind: "tip",
    key: i.tipId,
    taskId: i.taskId,
    createdBy: i.posterId,
    postings: [
      { account: ACCOUNTS.posterPayments, amountCents: -i.amountCents },
      { account: ACCOUNTS.providerBalance(i.providerId), amountCents: i.amountCents },
    ],
  }),
  split: (i) => {
    const released = i.heldCents - i.refundCents;
    if (released > 0 && i.providerId === null) throw new Error(`Dispute ${i.disputeId} releases money to a task without a provider`);
    return {
      kind: "split",
      key: i.disputeId,
      taskId: i.taskId,
      createdBy: i.actorId,
      postings: [
        { account: ACCOUNTS.escrow(i.taskId), amountCents: -i.heldCents },
        { account: ACCOUNTS.refunds, amountCents: i.refundCents },
        ...(i.providerId ? [{ account: ACCOUNTS.providerBalance(i.providerId), amountCents: i.providerShareCents }] : []),
        { account: ACCOUNTS.revenue, amountCents: released - i.providerShareCents },
      ],
    };
  },
  guarantee: (i) => ({
    kind: "guarantee",
    key: i.recoverFrom ? `${i.disputeId}:recover` : i.disputeId,
    taskId: i.taskId,
    createdBy: i.actorId,
    postings: i.recoverFrom
      ? [
          { account: ACCOUNTS.providerBalance(i.recoverFrom), amountCents: -i.amountCents },
          { account: ACCOUNTS.guarantee, amountCents: i.amountCents },
        ]
      : [
          { account: ACCOUNTS.guarantee, amountCents: -i.amountCents },
          { account: ACCOUNTS.refunds, amountCents: i.amountCents },
        ],
  }),
  late_fee: (i) => ({
    kind: "late_fee",
    key: i.paymentId,
    taskId: i.taskId,
    createdBy: i.actorId,
    postings: [
      { account: ACCOUNTS.escrow(i.taskId), amountCents: -i.feeCents },
      { account: ACCOUNTS.providerBalance(i.providerId), amountCents: i.feeCents },
    ],
  }),
  payout: (i) => ({
    kind: "payout",
    key: i.payoutId,
    taskId: null,
    createdBy: null,
    postings: [
      { account: ACCOUNTS.providerBalance(i.providerId), amountCents: -i.amountCents },
      { account: ACCOUNTS.payouts, amountCents: i.amountCents },
    ],
  }),
};

export class UnbalancedTransactionError extends Error {}

/**
 * Records the ledger transaction of a money action; returns its id, or null when (kind, key) was
 * already recorded (the money moved before, so it must not move again).
 */
export async function recordMoneyAction<A extends LedgerKind>(ctx: AppContext, action: A, input: ActionInputs[A], tx: Db): Promise<string | null> {
  const transaction = LEDGER_OF[action](input);
  const id = await recordTransaction(ctx, transaction, tx);
  // Whether a receipt is due is read from the postings in hand by the receipt's own rule
  // (receiptKind); the receipt is read back only for the transactions that touch the card.
  if (id && receiptKind({ kind: transaction.kind, ...cardMovement(transaction.postings) })) await mailReceipt(ctx, action, id, tx);
  return id;
}

/** What postings take from the poster's card and give back to it, summed as receiptRows sums them in SQL. */
export function cardMovement(postings: readonly Posting[]): { paidCents: number; refundedCents: number } {
  const sum = (account: string, sign: 1 | -1) =>
    postings.filter((p) => p.account === account && Math.sign(p.amountCents) === sign).reduce((total, p) => total + p.amountCents, 0);
  return { paidCents: -sum(ACCOUNTS.posterPayments, -1), refundedCents: sum(ACCOUNTS.refunds, 1) };
}

// A money action's transaction and its postings in one statement: one round trip inside the
// caller's transaction instead of two (docs/decisions/039-hot-statements-written-once.md). No row
// back: the action was recorded before (its kind and key are unique), and no posting is written.
export const recordTransactionStatement = new SqlStatement<{ transactionId: string }>(
  "ledger_record_transaction",
  sql`with created as (
        insert into ledger_transactions (kind, idempotency_key, task_id, created_by, memo, created_at)
        values (${sql.placeholder("kind")}::ledger_kind, ${sql.placeholder("key")}::text, ${sql.placeholder("taskId")}::uuid,
                ${sql.placeholder("createdBy")}::uuid, ${sql.placeholder("memo")}::text, ${sql.placeholder("now")}::timestamptz)
        on conflict (kind, idempotency_key) do nothing
        returning id
      )
      insert into ledger_entries (transaction_id, account, amount_cents, created_at)
      select created.id, posting.account, posting.amount_cents, ${sql.placeholder("now")}::timestamptz
      from created, unnest(${sql.placeholder("accounts")}::text[], ${sql.placeholder("amounts")}::bigint[]) as posting(account, amount_cents)
      returning transaction_id`,
);

async function recordTransaction(ctx: AppContext, input: LedgerTransactionInput, tx: Db): Promise<string | null> {
  const postings = input.postings.filter((p) => p.amountCents !== 0);
  const sum = postings.reduce((s, p) => s + p.amountCents, 0);
  if (postings.length < 2 || sum !== 0 || postings.some((p) => !Number.isSafeInteger(p.amountCents))) {
    throw new UnbalancedTransactionError(`Ledger transaction ${input.kind}:${input.key} does not balance (${sum})`);
  }
  const [created] = await recordTransactionStatement.rows(tx, {
    kind: input.kind,
    key: input.key,
    taskId: input.taskId,
    createdBy: input.createdBy,
    memo: input.memo ?? null,
    now: ctx.now().toISOString(),
    accounts: postings.map((p) => p.account),
    amounts: postings.map((p) => p.amountCents),
  });
  return created?.transactionId ?? null;
}

export async function accountBalance(ctx: AppContext, account: string, tx: Db = ctx.db): Promise<number> {
  const [row] = await tx
    .select({ total: sql<string | null>`sum(${ledgerEntries.amountCents})` })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.account, account));
  return Number(row?.total ?? 0);
}

/** Balances of several accounts at once; missing accounts are 0. */
export async function accountBalances(ctx: AppContext, accounts: string[]): Promise<Map<string, number>> {
  const result = new Map(accounts.map((a) => [a, 0]));
  if (accounts.length === 0) return result;
  const rows = await ctx.db
    .select({ account: ledgerEntries.account, total: sql<string>`sum(${ledgerEntries.amountCents})` })
    .from(ledgerEntries)
    .where(inArray(ledgerEntries.account, accounts))
    .groupBy(ledgerEntries.account);
  for (const row of rows) result.set(row.account, Number(row.total));
  return result;
}
