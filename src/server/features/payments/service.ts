import type { FastifyInstance, FastifyRequest } from "fastify";
import { and, eq, sql } from "drizzle-orm";
import { APPROVAL_WINDOW_MS, evaluateMoneyTransition, moneyActorRefusal, type MoneyRecord, type MoneyRecordState, type MoneyRequester, type MoneyTransitionName } from "../../../shared/money-lifecycle.js";
import { formatDollarsExact, needsApprovalWindow } from "../../../shared/money.js";
import { expiryPassed, luhnValid, type SandboxConfirmBody, type TaskEscrow, type TipResult } from "../../../shared/payments.js";
import type { SecurityEventName } from "../../../shared/security-rules.js";
import type { RefundReason } from "../../../shared/task-statement.js";
import { evaluateTransition } from "../../../shared/task-lifecycle.js";
import type { PaymentGateway } from "../../adapters/payments/gateway.js";
import { sandboxCardDecline } from "../../adapters/payments/sandbox.js";
import type { AppContext } from "../../context.js";
import type { Db } from "../../db/client.js";
import { escrowHolds, payments, tips } from "../../db/schema/payments.js";
import { conflict, forbidden, HttpError, notFound, namedFieldError } from "../../http-errors.js";
import type { Viewer } from "../../policy.js";
import type { TaskRow } from "../../transition-actions.js";
import { runMoneyRow } from "./money-actions.js";
import { ACCOUNTS, accountBalance } from "./ledger.js";
import { moveHold, movePayment, moveTip, startHold, startPayment, startTip, type PaymentRow, type TipRow } from "./money-records.js";
import { fillPaymentIntent, fillTipIntent, findHold, findPayment, findTask, findTip, openDisputeOf, paymentOfTask } from "./repository.js";
import { escrowOfTask } from "./read-models.js";

// The payments feature's use cases (docs/decisions/008-payments-and-ledger.md): taking the poster's
// money (the payment intent, the sandbox card form, tips), holding it in escrow until the work is
// done, releasing it to the provider or refunding the poster. Stripe's events are gateway-events.ts's,
// payout accounts and payouts payouts.ts's, the records' moves money-records.ts's.
// Every state change of a money record is a transition of the money table
// (src/shared/money-lifecycle.ts) and every movement of money that transition's ledger action, in
// one database transaction. The task's own "pay" runs through the tasks feature's one transition
// function.

/** The app's context, the card processor, and the tasks feature's transition function (its plugin's decorator). */
export interface PaymentsContext extends AppContext {
  gateway: PaymentGateway;
  taskTransition: FastifyInstance["taskTransition"];
  /**
   * The auth feature's security log, handed over by app.ts: every change of payout details is
   * shown under Recent security activity (docs/decisions/050-step-up-and-security-log.md). `request`
   * is null for a change the payment provider reports.
   */
  recordSecurityEvent(
    db: Db,
    request: Pick<FastifyRequest, "ip" | "headers"> | null,
    now: Date,
    input: { userId: string; event: SecurityEventName; result: "success" | "failure"; details?: Record<string, unknown> },
  ): Promise<void>;
}

/** 402 carries the card network's message; the client shows it under 'Payment Failed'. */
const paymentRequired = (message: string) => new HttpError(402, message);

/** A person, seen from the task the money belongs to (admins act only through admin routes). */
function requester(task: TaskRow, userId: string): MoneyRequester {
  return { poster: task.userId === userId, admin: false };
}

/** The table's 403 when `who` is not the transition's actor (checked before anything about the record). */
function assertActor<R extends MoneyRecord>(record: R, name: MoneyTransitionName<R>, who: MoneyRequester): void {
  const notActor = moneyActorRefusal(record, name, who);
  if (notActor !== null) throw forbidden(notActor);
}

/** The table's refusal when the transition's conditional update matched nothing. */
function refusal<R extends MoneyRecord>(ctx: AppContext, record: R, name: MoneyTransitionName<R>, state: MoneyRecordState<R>, who: MoneyRequester): HttpError {
  const verdict = evaluateMoneyTransition(record, name, state, who, ctx.now());
  // Allowed now, so the record moved under us and back: ask to retry.
  return verdict.ok ? conflict("The payment changed while you were acting on it. Please try again.") : new HttpError(verdict.status, verdict.message);
}

export async function taskOf(ctx: AppContext, taskId: string, tx?: Db): Promise<TaskRow> {
  const task = await findTask(ctx, taskId, tx);
  if (!task) throw notFound("Task not found");
  return task;
}

// ---------------------------------------------------------------------------------------------
// Paying for a claimed task.

export async function createPaymentIntent(ctx: PaymentsContext, userId: string, input: { taskId: string; amountCents: number }): Promise<string> {
  const task = await taskOf(ctx, input.taskId);
  assertActor("payment", "start", requester(task, userId));
  // Why the task cannot be paid now, in the task table's own words (already paid, not claimed,
  // the window closed): the same rule the capture's "pay" transition enforces.
  const payable = evaluateTransition("pay", task, "payment_system", ctx.now());
  if (!payable.ok) throw new HttpError(payable.status, payable.message);
  if (input.amountCents !== task.totalCents) {
    throw namedFieldError("amount", `must equal the task total of ${formatDollarsExact(task.totalCents)}`);
  }
  // One live payment per task: a second call finds the first row and returns its secret. A refunded
  // payment (a capture that came too late) is not live, so the task gets a new payment and intent.
  const inserted = await startPayment(ctx, { taskId: task.id, posterId: userId, amountCents: task.totalCents, gateway: ctx.gateway.name });
  const payment = inserted ?? (await livePayment(ctx, task.id));
  if (payment.status === "captured") throw conflict("This task's payment was already taken");
  if (payment.clientSecret) return payment.clientSecret;
  // Concurrent first calls both reach the gateway with the same key and get the same intent.
  const intent = await ctx.gateway.createIntent({
    key: `pi-${payment.id}`,
    amountCents: payment.amountCents,
    description: `Errandly task: ${task.title}`,
    metadata: { paymentId: payment.id, taskId: task.id },
  });
  const filled = await fillPaymentIntent(ctx, payment.id, intent);
  return filled?.clientSecret ?? (await findPayment(ctx, eq(payments.id, payment.id)))?.clientSecret ?? intent.clientSecret;
}

async function livePayment(ctx: AppContext, taskId: string): Promise<PaymentRow> {
  const row = await findPayment(ctx, paymentOfTask(taskId));
  // The conflicting row was refunded in between: a late capture is being given back right now.
  if (!row) throw conflict("This task's payment is being refunded; try again");
  return row;
}

function checkCard(card: SandboxConfirmBody & { cardNumber: string }, now: Date): void {
  if (!luhnValid(card.cardNumber)) throw namedFieldError("cardNumber", "Your card number is invalid.");
  if (expiryPassed(card.expMonth, card.expYear, now)) throw namedFieldError("expYear", "Your card's expiration date is in the past.");
}

export function sandboxAllowed(ctx: PaymentsContext): boolean {
  const { env } = ctx;
  return ctx.gateway.name === "sandbox" && (env.NODE_ENV !== "production" || env.SANDBOX_PAYMENTS_IN_PRODUCTION);
}

/** The sandbox card form's submit: checks the card as a processor would, then captures once. */
export async function confirmSandboxPayment(ctx: PaymentsContext, userId: string, card: SandboxConfirmBody & { cardNumber: string }): Promise<void> {
  if (!sandboxAllowed(ctx)) throw notFound("Sandbox payments are turned off");
  checkCard(card, ctx.now());
  // Of two concurrent submits only one moves the payment to processing. Only its poster's submit
  // moves it; the payment is read only to explain a refusal (one round trip on the way that pays).
  // The last four digits go on the poster's receipts, as a processor reports them.
  const [claimed] = await movePayment(ctx, "confirm", and(eq(payments.clientSecret, card.clientSecret), eq(payments.posterId, userId)), {
    cardLast4: card.cardNumber.slice(-4),
  });
  if (!claimed) {
    const payment = await findPayment(ctx, eq(payments.clientSecret, card.clientSecret));
    if (!payment) throw notFound("Payment not found");
    const who: MoneyRequester = { poster: payment.posterId === userId, admin: false };
    assertActor("payment", "confirm", who);
    throw refusal(ctx, "payment", "confirm", payment, who);
  }
  const payment = claimed;
  const failed = (failureMessage: string) => movePayment(ctx, "fail", eq(payments.id, payment.id), { failureMessage });
  const decline = sandboxCardDecline(card.cardNumber);
  if (decline) {
    // Only from "processing": the stuck-payment sweep may have moved it on already.
    await failed(decline);
    throw paymentRequired(decline);
  }
  let paid;
  try {
    paid = await ctx.db.transaction(async (tx) => capture(ctx, tx, claimed));
  } catch (err) {
    // Nothing was captured (the transaction rolled back): hand the payment back so a retry works.
    await failed("The payment could not be completed");
    throw err;
  }
  if (!paid) {
    // Nothing was charged: the sandbox decides after the task check, unlike a real processor.
    const message = "The payment window for this task has closed";
    await failed(message);
    throw conflict(message);
  }
}

/**
 * The capture: the task's "pay" transition (through the tasks feature's transition function; its row
 * tells the provider, notify.provider_paid), then
 * the payment's "capture" with its ledger action, in the caller's transaction. Returns the paid task,
 * or null when the task was no longer payable (cancelled, expired or already paid).
 */
export async function capture(ctx: PaymentsContext, tx: Db, payment: PaymentRow): Promise<TaskRow | null> {
  const now = ctx.now();
  const task = await ctx.taskTransition("pay", payment.taskId, "payment_system", { tx, now });
  if (!task) return null;
  await captureMoney(ctx, tx, payment);
  return task;
}

/** "payment.capture": the poster's money enters the task's escrow, once per payment. */
export async function captureMoney(ctx: PaymentsContext, tx: Db, payment: PaymentRow, memo?: string): Promise<void> {
  const [captured] = await movePayment(ctx, "capture", eq(payments.id, payment.id), { failureMessage: null }, tx);
  if (!captured) throw new Error(`Payment ${payment.id} could not be captured from ${payment.status}`);
  const task = await taskOf(ctx, payment.taskId, tx);
  await runMoneyRow(ctx, "payment", "capture", { task, payment: captured, actorId: payment.posterId, tx, now: ctx.now(), ...(memo ? { memo } : {}) });
}

/**
 * The sweeper for sandbox confirms cut off between "processing" and the capture (the process
 * killed, the database gone; test/faults/process-kill.faults.ts): the payment's "time_out". Nothing
 * was captured: the capture's own transaction sets "captured", and if it commits after this update
 * it still wins (it waits on the row lock, and "capture" leaves "failed" too). So the payment goes
 * back to "failed", which a retry may confirm again, as after a decline.
 */
export async function failStuckSandboxPayments(ctx: PaymentsContext): Promise<number> {
  const stuck = await movePayment(ctx, "time_out", sql`true`, { failureMessage: "The payment could not be completed" });
  return stuck.length;
}

// ---------------------------------------------------------------------------------------------
// Tips: after completion, 100% to the provider.

/** "tip.capture": credits the tip once; returns the captured row, or null when it was captured before. */
export async function captureTip(ctx: PaymentsContext, tx: Db, tip: TipRow): Promise<TipRow | null> {
  const [captured] = await moveTip(ctx, "capture", eq(tips.id, tip.id), {}, tx);
  if (!captured) return null;
  await runMoneyRow(ctx, "tip", "capture", { task: await taskOf(ctx, tip.taskId, tx), tip: captured, actorId: tip.posterId, tx, now: ctx.now() });
  return captured;
}

/**
 * A tip after completion. The sandbox charges it at once (a simulated card on file); Stripe answers
 * a client secret that the Payment Element confirms, and the webhook credits it. The client's
 * idempotency key makes a double submit answer the first tip instead of charging again.
 */
export async function tipTask(
  ctx: PaymentsContext,
  taskId: string,
  userId: string,
  input: { amountCents: number; idempotencyKey: string },
): Promise<TipResult> {
  const { gateway } = ctx;
  const task = await taskOf(ctx, taskId);
  assertActor("tip", "start", requester(task, userId));
  if (task.status !== "completed" || !task.providerId) throw conflict("You can tip once the task is completed");
  if (gateway.name === "sandbox" && !sandboxAllowed(ctx)) throw notFound("Sandbox payments are turned off");
  const values = {
    taskId,
    posterId: userId,
    providerId: task.providerId,
    amountCents: input.amountCents,
    gateway: gateway.name,
    idempotencyKey: input.idempotencyKey,
  };
  const inserted = await ctx.db.transaction(async (tx) => {
    // A concurrent twin waits here on the unique key until this transaction ends, then finds the tip.
    const tip = await startTip(ctx, values, tx);
    if (tip && gateway.name === "sandbox") return captureTip(ctx, tx, tip);
    return tip;
  });
  const tip = inserted ?? (await existingTip(ctx, values));
  if (tip.status === "captured") return { status: "succeeded", clientSecret: null };
  if (tip.clientSecret) return { status: "requires_payment", clientSecret: tip.clientSecret };
  // A twin that arrives before the first call stored the secret gets the same intent from the same key.
  const intent = await gateway.createIntent({
    key: `tip-${tip.id}`,
    amountCents: tip.amountCents,
    description: `Errandly tip: ${task.title}`,
    metadata: { tipId: tip.id, taskId },
  });
  await fillTipIntent(ctx, tip.id, intent);
  return { status: "requires_payment", clientSecret: intent.clientSecret };
}

/** The tip a repeated request refers to; the same key for a different tip is the client's mistake. */
async function existingTip(ctx: AppContext, values: { taskId: string; posterId: string; amountCents: number; idempotencyKey: string }): Promise<TipRow> {
  const tip = await findTip(ctx, and(eq(tips.posterId, values.posterId), eq(tips.idempotencyKey, values.idempotencyKey)));
  if (!tip) throw new Error(`Tip ${values.idempotencyKey} vanished`);
  if (tip.taskId !== values.taskId || tip.amountCents !== values.amountCents) {
    throw conflict("idempotencyKey: this key was already used for a different tip");
  }
  return tip;
}

// ---------------------------------------------------------------------------------------------
// Escrow: the poster's payment is held per task from capture until the work is done, then released
// to the provider (85% of budget + surcharge) and the platform (the rest and the service fee), or
// refunded to the poster in full.

/**
 * "payment.refund": everything the task's escrow holds goes back to the poster ("ledger.refund"), keyed
 * by its one captured payment, with why: the task transition that refunded it, or a late capture.
 */
export async function refundEscrow(ctx: PaymentsContext, tx: Db, task: TaskRow, actorId: string | null, refundReason: RefundReason): Promise<void> {
  const held = await accountBalance(ctx, ACCOUNTS.escrow(task.id), tx);
  if (held <= 0) return;
  // Money in escrow always came from the task's one captured payment.
  const [payment] = await movePayment(ctx, "refund", eq(payments.taskId, task.id), {}, tx);
  if (!payment) throw new Error(`Task ${task.id} holds ${held} cents in escrow without a captured payment`);
  await runMoneyRow(ctx, "payment", "refund", { task, payment, actorId, tx, now: ctx.now(), refundReason });
}

/**
 * "escrow.hold" on completion of a paid task: the release falls due after the approval window,
 * 24 hours for budgets of $100 or more; below that the window is empty and "release_due" follows
 * at once.
 */
export async function holdOnCompletion(ctx: PaymentsContext, tx: Db, task: TaskRow, now: Date): Promise<void> {
  if (!task.paymentCapturedAt) return;
  const windowed = needsApprovalWindow(task.budgetCents);
  const hold = await startHold(ctx, task.id, new Date(now.getTime() + (windowed ? APPROVAL_WINDOW_MS : 0)), tx);
  if (!hold) return;
  // A dispute opened before completion: the escrow waits for its resolution ("escrow.freeze", after "escrow:hold").
  const dispute = await openDisputeOf(ctx, task.id, tx);
  if (dispute) await moveHold(ctx, "freeze", eq(escrowHolds.taskId, task.id), { disputeReason: dispute.reason, disputedAt: now }, tx);
  else if (!windowed) await releaseDueHold(ctx, tx, task);
}

/** "escrow.release_due" for one task's hold, in the caller's transaction. */
async function releaseDueHold(ctx: PaymentsContext, tx: Db, task: TaskRow): Promise<void> {
  const [released] = await moveHold(ctx, "release_due", eq(escrowHolds.taskId, task.id), { settledAt: ctx.now() }, tx);
  if (released) await runMoneyRow(ctx, "escrow", "release_due", { task, actorId: null, tx, now: ctx.now() });
}

export async function approveRelease(ctx: PaymentsContext, taskId: string, userId: string): Promise<void> {
  const task = await taskOf(ctx, taskId);
  const who = requester(task, userId);
  assertActor("escrow", "approve", who);
  await ctx.db.transaction(async (tx) => {
    const [hold] = await moveHold(ctx, "approve", eq(escrowHolds.taskId, taskId), { settledAt: ctx.now() }, tx);
    if (!hold) throw refusal(ctx, "escrow", "approve", (await findHold(ctx, taskId, tx)) ?? { status: null }, who);
    await runMoneyRow(ctx, "escrow", "approve", { task, actorId: userId, tx, now: ctx.now() });
  });
}

/** The sweeper ("payments:release-due"): windows that ended with neither approval nor a report are released. */
export async function releaseDue(ctx: PaymentsContext): Promise<number> {
  return ctx.db.transaction(async (tx) => {
    const due = await moveHold(ctx, "release_due", sql`true`, { settledAt: ctx.now() }, tx);
    for (const { taskId } of due) await runMoneyRow(ctx, "escrow", "release_due", { task: await taskOf(ctx, taskId, tx), actorId: null, tx, now: ctx.now() });
    return due.length;
  });
}

// ---------------------------------------------------------------------------------------------
// Reads.

/** What the poster, the assigned provider and admins see about a task's money. */
export async function taskEscrow(ctx: PaymentsContext, taskId: string, viewer: Viewer): Promise<TaskEscrow> {
  return escrowOfTask(ctx, await taskOf(ctx, taskId), viewer);
}
