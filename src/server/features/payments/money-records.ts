import { and, desc, eq, gt, inArray, lte, type SQL, type SQLWrapper } from "drizzle-orm";
import { reportWindowRefusal } from "../../../shared/disputes.js";
import {
  STUCK_PROCESSING_MS,
  evaluateMoneyTransition,
  findMoneyTransition,
  moneyActorRefusal,
  type MoneyCondition,
  type MoneyGuard,
  type MoneyRecord,
  type MoneyTransition,
  type MoneyRequester,
  type MoneyState,
  type MoneyTransitionDefinition,
  type MoneyTransitionName,
} from "../../../shared/money-lifecycle.js";
import type { AppContext } from "../../context.js";
import type { Db } from "../../db/client.js";
import { disputes, escrowHolds, LIVE_PAYMENT, payments, payouts, tips } from "../../db/schema/payments.js";
import { conflict, forbidden, HttpError } from "../../http-errors.js";
import type { TaskRow } from "../../transition-actions.js";

// The money records (docs/decisions/008-payments-and-ledger.md): payments, tips, escrow holds,
// payouts and disputes, each changed only by a row of the money table (src/shared/money-lifecycle.ts)
// turned into one conditional UPDATE, or for the row that creates a record one INSERT in its `to` state.

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
// Disputes (docs/decisions/057-disputes-guarantee-late-cancellation.md): opened and resolved only by
// the rows of DISPUTE_TRANSITIONS, whose actor, guards, states and refusal texts this reads.

/** Each named guard of the money table, on the task the record belongs to: its refusal, or null when it holds. */
const MONEY_GUARDS: Record<MoneyGuard, (task: TaskRow, now: Date) => string | null> = {
  report_window: reportWindowRefusal,
};

type DisputeMove = MoneyTransitionName<"dispute">;
/** What a move writes besides the status: the new dispute's fields for the row that creates it, any of them for the others. */
type DisputeOpen = Omit<typeof disputes.$inferInsert, "status" | "id" | "taskId" | "createdAt">;
type DisputeSet<N extends DisputeMove> = Extract<MoneyTransition<"dispute">, { name: N }>["from"] extends null ? DisputeOpen : Partial<DisputeOpen>;

/** Why `requester` may not make the move on this task whatever its dispute's state (the row's actor, then its guards), or null. */
export function disputeMoveRefusal(name: DisputeMove, task: TaskRow, requester: MoneyRequester, now: Date): HttpError | null {
  const notActor = moneyActorRefusal("dispute", name, requester);
  if (notActor !== null) return forbidden(notActor);
  const row: MoneyTransitionDefinition<"dispute"> = findMoneyTransition("dispute", name);
  for (const guard of row.guards) {
    const refusal = MONEY_GUARDS[guard](task, now);
    if (refusal !== null) return conflict(refusal);
  }
  return null;
}

/** The row's refusal of the move for the task's latest dispute as it now is (none, open or resolved). */
export async function disputeStateRefusal(tx: Db, name: DisputeMove, taskId: string, requester: MoneyRequester, now: Date): Promise<HttpError> {
  const [latest] = await tx.select({ status: disputes.status }).from(disputes).where(eq(disputes.taskId, taskId)).orderBy(desc(disputes.createdAt)).limit(1);
  const verdict = evaluateMoneyTransition("dispute", name, { status: (latest?.status ?? null) as MoneyState<"dispute"> | null }, requester, now);
  if (verdict.ok) throw new Error(`dispute.${name} found no dispute to move on task ${taskId}, though its row allows the one there is`);
  return new HttpError(verdict.status, verdict.message);
}

/**
 * A dispute's move by its row of the money table: the row's actor and guards, then one INSERT in the
 * row's `to` state (open) or one UPDATE of the task's dispute conditional on the row's `from` states
 * (resolve), so of two concurrent moves one wins; the other is refused with the row's text.
 */
export async function moveDispute<N extends DisputeMove>(ctx: AppContext, name: N, task: TaskRow, requester: MoneyRequester, set: DisputeSet<N>, tx: Db): Promise<DisputeRow> {
  const now = ctx.now();
  const early = disputeMoveRefusal(name, task, requester, now);
  if (early) throw early;
  const row: MoneyTransitionDefinition<"dispute"> = findMoneyTransition("dispute", name);
  const [moved] =
    row.from === null
      ? // The row that creates the record is handed the new dispute's fields (DisputeSet).
        await tx.insert(disputes).values({ ...(set as DisputeOpen), createdAt: now, taskId: task.id, status: row.to }).onConflictDoNothing().returning()
      : await tx
          .update(disputes)
          .set({ ...set, status: row.to })
          .where(and(eq(disputes.taskId, task.id), inArray(disputes.status, [...row.from])))
          .returning();
  if (moved) return moved;
  throw await disputeStateRefusal(tx, name, task.id, requester, now);
}

/** An admin's note in the thread counts as acting on the dispute (its escalation clock; docs/product.md, Money: disputes). */
export async function noteAdminAction(tx: Db, disputeId: string, now: Date): Promise<void> {
  await tx.update(disputes).set({ lastAdminActionAt: now }).where(eq(disputes.id, disputeId));
}
