// Over 400 lines on purpose, for now: the money records' conditional UPDATEs, the ledger that
// every money action writes, and the receipts read from that ledger share the ledger's accounts
// and the write path (a ledger write mails its receipt in the same transaction). The read models
// are in read-models.ts; the money table's named actions are handled in money-actions.ts
// (docs/decisions/045-transitions-name-their-actions.md).
import { and, eq, gt, inArray, lte, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import {
  STUCK_PROCESSING_MS,
  findMoneyTransition,
  type LedgerKind,
  type MoneyCondition,
  type MoneyRecord,
  type MoneyTransition,
  type MoneyTransitionDefinition,
} from "../../../shared/money-lifecycle.js";
import type { Receipt } from "../../../shared/receipts.js";
import { LEDGER_ACCOUNTS, type RefundReason } from "../../../shared/task-statement.js";
import type { AppContext } from "../../context.js";
import { queryRows, type Db } from "../../db/client.js";
import { SqlStatement } from "../../db/prepared.js";
import { loadTaskStatements } from "../../db/task-statements.js";
import { disputes, escrowHolds, LIVE_PAYMENT, ledgerEntries, ledgerTransactions, payments, payouts, receiptFacts, tips } from "../../db/schema/payments.js";
import { providerProfiles } from "../../db/schema/providers.js";
import { tasks } from "../../db/schema/tasks.js";
import { noticeAction, sendNotice } from "../../declared-notices.js";
import type { TaskRow } from "../../transition-actions.js";
import { receiptKind, receiptNotice, receiptOf, type ReceiptRow } from "./receipts.js";

// The payments feature's tables (docs/decisions/008-payments-and-ledger.md): the money records,
// each changed only by a row of the money table (src/shared/money-lifecycle.ts) turned into one
// conditional UPDATE; the double-entry ledger, written only through the table's money actions; and
// the receipts read from it.

export type PaymentRow = typeof payments.$inferSelect;
export type TipRow = typeof tips.$inferSelect;
export type HoldRow = typeof escrowHolds.$inferSelect;
export type PayoutRow = typeof payouts.$inferSelect;
export type DisputeRow = typeof disputes.$inferSelect;

// ---------------------------------------------------------------------------------------------
// The money records: each transition of the table as one conditional UPDATE (or, for the row that
// creates a record, one INSERT in its `to` state). A request, event or job run that finds the
// record already moved gets no row back, and moves no money.

/** SQL meaning of each named condition; the Record makes a new condition fail type checking here. */
const CONDITION_SQL: Record<MoneyCondition, (now: Date) => SQL | undefined> = {
  window_open: (now) => gt(escrowHolds.releaseAt, now),
  window_closed: (now) => lte(escrowHolds.releaseAt, now),
  stuck: (now) => and(eq(payments.gateway, "sandbox"), lte(payments.updatedAt, new Date(now.getTime() - STUCK_PROCESSING_MS))),
};

/** A transition of `R` that moves an existing record (not the one that creates it). */
export type MoveName<R extends MoneyRecord> = Exclude<MoneyTransition<R>, { from: null }>["name"];

/** The WHERE of a transition: the record in one of its `from` states, every condition holding. */
function transitionWhere(record: MoneyRecord, name: string, status: SQLWrapper, now: Date): SQL | undefined {
  const transition: MoneyTransitionDefinition = findMoneyTransition(record, name as never);
  if (transition.from === null) throw new Error(`${record}.${name} creates its record`);
  return and(inArray(status, [...transition.from]), ...transition.requires.map((r) => CONDITION_SQL[r.condition](now)));
}

/** The record a transition moves; never "every record in the from states" by mistake (the sweepers say `sql\`true\``). */
function only(match: SQL | undefined): SQL {
  if (!match) throw new Error("A money transition needs the records it moves");
  return match;
}

const toState = <R extends MoneyRecord>(record: R, name: string): MoneyTransitionDefinition<R>["to"] =>
  (findMoneyTransition(record, name as never) as MoneyTransitionDefinition<R>).to;

type PaymentSet = Omit<Partial<typeof payments.$inferInsert>, "status" | "id">;
type TipSet = Omit<Partial<typeof tips.$inferInsert>, "status" | "id">;
type HoldSet = Omit<Partial<typeof escrowHolds.$inferInsert>, "status" | "taskId">;
type PayoutSet = Omit<Partial<typeof payouts.$inferInsert>, "status" | "id">;

export async function movePayment(ctx: AppContext, name: MoveName<"payment">, match: SQL | undefined, set: PaymentSet = {}, tx: Db = ctx.db): Promise<PaymentRow[]> {
  const now = ctx.now();
  return tx
    .update(payments)
    .set({ ...set, status: toState("payment", name), updatedAt: now })
    .where(and(only(match), transitionWhere("payment", name, payments.status, now)))
    .returning();
}

export async function moveTip(ctx: AppContext, name: MoveName<"tip">, match: SQL | undefined, set: TipSet = {}, tx: Db = ctx.db): Promise<TipRow[]> {
  return tx
    .update(tips)
    .set({ ...set, status: toState("tip", name) })
    .where(and(only(match), transitionWhere("tip", name, tips.status, ctx.now())))
    .returning();
}

export async function moveHold(ctx: AppContext, name: MoveName<"escrow">, match: SQL | undefined, set: HoldSet = {}, tx: Db = ctx.db): Promise<HoldRow[]> {
  return tx
    .update(escrowHolds)
    .set({ ...set, status: toState("escrow", name) })
    .where(and(only(match), transitionWhere("escrow", name, escrowHolds.status, ctx.now())))
    .returning();
}

export async function movePayout(ctx: AppContext, name: MoveName<"payout">, match: SQL | undefined, set: PayoutSet = {}, tx: Db = ctx.db): Promise<PayoutRow[]> {
  return tx
    .update(payouts)
    .set({ ...set, status: toState("payout", name) })
    .where(and(only(match), transitionWhere("payout", name, payouts.status, ctx.now())))
    .returning();
}

/**
 * "payment.start": one live payment per task, so the partial unique index makes this idempotent;
 * null when the task already has one.
 */
export async function startPayment(
  ctx: AppContext,
  values: { taskId: string; posterId: string; amountCents: number; gateway: string },
): Promise<PaymentRow | null> {
  const [inserted] = await ctx.db
    .insert(payments)
    .values({ ...values, status: toState("payment", "start") })
    .onConflictDoNothing({ target: payments.taskId, where: LIVE_PAYMENT })
    .returning();
  return inserted ?? null;
}

/** "tip.start", once per (poster, idempotency key); null when that key was used before. */
export async function startTip(
  ctx: AppContext,
  values: { taskId: string; posterId: string; providerId: string; amountCents: number; gateway: string; idempotencyKey: string },
  tx: Db = ctx.db,
): Promise<TipRow | null> {
  const [tip] = await tx
    .insert(tips)
    .values({ ...values, status: toState("tip", "start") })
    .onConflictDoNothing({ target: [tips.posterId, tips.idempotencyKey] })
    .returning();
  return tip ?? null;
}

/** "escrow.hold", once per task; null when the task's escrow is held already. */
export async function startHold(ctx: AppContext, taskId: string, releaseAt: Date, tx: Db = ctx.db): Promise<HoldRow | null> {
  const [hold] = await tx
    .insert(escrowHolds)
    .values({ taskId, status: toState("escrow", "hold"), releaseAt })
    .onConflictDoNothing()
    .returning();
  return hold ?? null;
}

/** "payout.start". */
export async function startPayout(ctx: AppContext, providerId: string, amountCents: number, tx: Db = ctx.db): Promise<PayoutRow> {
  const [payout] = await tx
    .insert(payouts)
    .values({ providerId, amountCents, status: toState("payout", "start"), createdAt: ctx.now() })
    .returning();
  if (!payout) throw new Error("payout not stored");
  return payout;
}

// ---------------------------------------------------------------------------------------------
// Reads of single records.

export async function findTask(ctx: AppContext, taskId: string, tx: Db = ctx.db): Promise<TaskRow | null> {
  const [task] = await tx.select().from(tasks).where(eq(tasks.id, taskId)).limit(1);
  return task ?? null;
}

export async function findHold(ctx: AppContext, taskId: string, tx: Db = ctx.db): Promise<HoldRow | null> {
  const [hold] = await tx.select().from(escrowHolds).where(eq(escrowHolds.taskId, taskId)).limit(1);
  return hold ?? null;
}

/** The task's open dispute, if any (at most one: a partial unique index). */
export async function openDisputeOf(ctx: AppContext, taskId: string, tx: Db = ctx.db): Promise<DisputeRow | null> {
  const [dispute] = await tx.select().from(disputes).where(and(eq(disputes.taskId, taskId), eq(disputes.status, "open"))).limit(1);
  return dispute ?? null;
}

export async function findPayment(ctx: AppContext, match: SQL | undefined, tx: Db = ctx.db): Promise<PaymentRow | null> {
  const [row] = await tx.select().from(payments).where(match).limit(1);
  return row ?? null;
}

export const paymentOfTask = (taskId: string) => and(eq(payments.taskId, taskId), LIVE_PAYMENT);

/** Stores the gateway's intent on the payment unless a concurrent first call stored it already. */
export async function fillPaymentIntent(ctx: AppContext, id: string, intent: { ref: string; clientSecret: string }): Promise<PaymentRow | null> {
  const [filled] = await ctx.db
    .update(payments)
    .set({ clientSecret: intent.clientSecret, gatewayRef: intent.ref, updatedAt: ctx.now() })
    .where(and(eq(payments.id, id), sql`${payments.clientSecret} is null`))
    .returning();
  return filled ?? null;
}

export async function findTip(ctx: AppContext, match: SQL | undefined, tx: Db = ctx.db): Promise<TipRow | null> {
  const [tip] = await tx.select().from(tips).where(match).limit(1);
  return tip ?? null;
}

export async function fillTipIntent(ctx: AppContext, id: string, intent: { ref: string; clientSecret: string }): Promise<void> {
  await ctx.db
    .update(tips)
    .set({ gatewayRef: intent.ref, clientSecret: intent.clientSecret })
    .where(and(eq(tips.id, id), sql`${tips.clientSecret} is null`));
}

export type ProfileRow = typeof providerProfiles.$inferSelect;

export async function findProviderProfile(ctx: AppContext, userId: string): Promise<ProfileRow | null> {
  const [profile] = await ctx.db.select().from(providerProfiles).where(eq(providerProfiles.userId, userId)).limit(1);
  return profile ?? null;
}

export async function updatePayoutAccount(
  ctx: AppContext,
  match: SQL | undefined,
  set: Pick<Partial<ProfileRow>, "stripeAccountId" | "payoutsEnabled" | "stripeOnboardingComplete">,
  tx: Db = ctx.db,
): Promise<ProfileRow | null> {
  const [updated] = await tx
    .update(providerProfiles)
    .set({ ...set, updatedAt: ctx.now() })
    .where(match)
    .returning();
  return updated ?? null;
}

/**
 * The provider's payout settings under a row lock, which serialises the provider's payouts so the
 * balance read after it cannot be spent twice.
 */
export async function lockPayoutAccount(
  ctx: AppContext,
  providerId: string,
  tx: Db,
): Promise<{ payoutsEnabled: boolean; stripeAccountId: string | null } | null> {
  const [profile] = await queryRows<{ payouts_enabled: boolean; stripe_account_id: string | null }>(
    tx,
    sql`select payouts_enabled, stripe_account_id from provider_profiles where user_id = ${providerId} for update`,
  );
  return profile ? { payoutsEnabled: profile.payouts_enabled, stripeAccountId: profile.stripe_account_id } : null;
}

/** Payouts recorded but not yet confirmed by the gateway, of one provider or of everyone. */
export async function pendingPayouts(ctx: AppContext, providerId: string | null) {
  return ctx.db
    .select({ id: payouts.id, providerId: payouts.providerId, amountCents: payouts.amountCents, destination: providerProfiles.stripeAccountId })
    .from(payouts)
    .innerJoin(providerProfiles, eq(providerProfiles.userId, payouts.providerId))
    .where(and(eq(payouts.status, "pending"), providerId ? eq(payouts.providerId, providerId) : undefined))
    .limit(100);
}

/** Providers with payouts enabled and money waiting in their balance. */
export async function providersOwedPayouts(ctx: AppContext): Promise<string[]> {
  const rows = await queryRows<{ user_id: string }>(
    ctx.db,
    sql`select p.user_id from provider_profiles p
        where p.payouts_enabled and p.stripe_account_id is not null
          and (select coalesce(sum(e.amount_cents), 0) from ledger_entries e
               where e.account = 'provider:' || p.user_id || ':balance') > 0
        limit 100`,
  );
  return rows.map((row) => row.user_id);
}

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
          coalesce(-sum(e.amount_cents) filter (where e.account = ${ACCOUNTS.posterPayments} and e.amount_cents < 0), 0) as paid_cents,
          coalesce(sum(e.amount_cents) filter (where e.account = ${ACCOUNTS.refunds} and e.amount_cents > 0), 0) as refunded_cents,
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
        having bool_or((e.account = ${ACCOUNTS.posterPayments} and e.amount_cents < 0) or (e.account = ${ACCOUNTS.refunds} and e.amount_cents > 0))
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
async function mailReceipt(ctx: AppContext, kind: LedgerKind, transactionId: string, tx: Db): Promise<void> {
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
