import { and, eq, inArray, lte, sql } from "drizzle-orm";
import { formatDollarsExact } from "../../../shared/money.js";
import { expiryPassed, luhnValid, type SandboxConfirmBody, type TipResult } from "../../../shared/payments.js";
import { sandboxCardDecline } from "../../adapters/payments/sandbox.js";
import type { GatewayEvent } from "../../adapters/payments/gateway.js";
import type { Db } from "../../db/client.js";
import { LIVE_PAYMENT, payments, tips, webhookEvents } from "../../db/schema/payments.js";
import { providerProfiles } from "../../db/schema/providers.js";
import { badRequest, conflict, forbidden, HttpError, notFound } from "../../http-errors.js";
import { notifyUser } from "../../notify.js";
import type { PaymentsDeps } from "./deps.js";
import { findTask, payTask, recordCapture, refundEscrow } from "./escrow.js";
import { ACCOUNTS, recordTransaction } from "./ledger.js";

// Taking the poster's money: the payment intent for a claimed task, its confirmation (the sandbox
// card form, or Stripe's webhook, the only way a Stripe payment becomes captured), and tips.

type PaymentRow = typeof payments.$inferSelect;
type TipRow = typeof tips.$inferSelect;

/** 402 carries the card network's message; the client shows it under 'Payment Failed'. */
const paymentRequired = (message: string) => new HttpError(402, message);

export async function createPaymentIntent(
  deps: PaymentsDeps,
  userId: string,
  input: { taskId: string; amountCents: number },
): Promise<string> {
  const { ctx, gateway } = deps;
  const now = ctx.now();
  const task = await findTask(ctx.db, input.taskId);
  if (task.userId !== userId) throw forbidden("Only the poster can pay for this task");
  if (task.paymentCapturedAt) throw conflict("This task has already been paid");
  if (task.status !== "claimed") throw conflict("Only a claimed task can be paid");
  if (!task.paymentDeadline || task.paymentDeadline <= now) throw conflict("The payment window for this task has closed");
  if (input.amountCents !== task.totalCents) {
    throw badRequest(`amount: must equal the task total of ${formatDollarsExact(task.totalCents)}`);
  }
  // One live payment per task: a second call finds the first row and returns its secret. A refunded
  // payment (a capture that came too late) is not live, so the task gets a new payment and intent.
  const [inserted] = await ctx.db
    .insert(payments)
    .values({ taskId: task.id, posterId: userId, amountCents: task.totalCents, gateway: gateway.name })
    .onConflictDoNothing({ target: payments.taskId, where: LIVE_PAYMENT })
    .returning();
  const payment = inserted ?? (await livePayment(ctx.db, task.id));
  if (payment.status === "captured") throw conflict("This task's payment was already taken");
  if (payment.clientSecret) return payment.clientSecret;
  // Concurrent first calls both reach the gateway with the same key and get the same intent.
  const intent = await gateway.createIntent({
    key: `pi-${payment.id}`,
    amountCents: payment.amountCents,
    description: `Errandly task: ${task.title}`,
    metadata: { paymentId: payment.id, taskId: task.id },
  });
  const [filled] = await ctx.db
    .update(payments)
    .set({ clientSecret: intent.clientSecret, gatewayRef: intent.ref, updatedAt: now })
    .where(and(eq(payments.id, payment.id), sql`${payments.clientSecret} is null`))
    .returning();
  return filled?.clientSecret ?? (await paymentById(ctx.db, payment.id)).clientSecret ?? intent.clientSecret;
}

async function livePayment(db: Db, taskId: string): Promise<PaymentRow> {
  const [row] = await db.select().from(payments).where(and(eq(payments.taskId, taskId), LIVE_PAYMENT)).limit(1);
  // The conflicting row was refunded in between: a late capture is being given back right now.
  if (!row) throw conflict("This task's payment is being refunded; try again");
  return row;
}

async function paymentById(db: Db, id: string): Promise<PaymentRow> {
  const [row] = await db.select().from(payments).where(eq(payments.id, id)).limit(1);
  if (!row) throw new Error(`Payment ${id} vanished`);
  return row;
}

function checkCard(card: SandboxConfirmBody & { cardNumber: string }, now: Date): void {
  if (!luhnValid(card.cardNumber)) throw badRequest("cardNumber: Your card number is invalid.");
  if (expiryPassed(card.expMonth, card.expYear, now)) throw badRequest("expYear: Your card's expiration date is in the past.");
}

export function sandboxAllowed(deps: PaymentsDeps): boolean {
  const { env } = deps.ctx;
  return deps.gateway.name === "sandbox" && (env.NODE_ENV !== "production" || env.SANDBOX_PAYMENTS_IN_PRODUCTION);
}

/** The sandbox card form's submit: checks the card as a processor would, then captures once. */
export async function confirmSandboxPayment(
  deps: PaymentsDeps,
  userId: string,
  card: SandboxConfirmBody & { cardNumber: string },
): Promise<void> {
  const { ctx } = deps;
  if (!sandboxAllowed(deps)) throw notFound("Sandbox payments are turned off");
  const [payment] = await ctx.db.select().from(payments).where(eq(payments.clientSecret, card.clientSecret)).limit(1);
  if (!payment) throw notFound("Payment not found");
  if (payment.posterId !== userId) throw forbidden("Only the poster can pay for this task");
  checkCard(card, ctx.now());
  // The atomic claim: of two concurrent submits only one moves the payment to processing.
  const [claimed] = await ctx.db
    .update(payments)
    .set({ status: "processing", updatedAt: ctx.now() })
    .where(and(eq(payments.id, payment.id), inArray(payments.status, ["requires_payment", "failed"])))
    .returning();
  if (!claimed) {
    throw conflict(payment.status === "captured" ? "This task has already been paid" : "This payment is already being processed");
  }
  const decline = sandboxCardDecline(card.cardNumber);
  if (decline) {
    // Only from "processing": the stuck-payment sweep may have moved it on already.
    await ctx.db
      .update(payments)
      .set({ status: "failed", failureMessage: decline, updatedAt: ctx.now() })
      .where(and(eq(payments.id, payment.id), eq(payments.status, "processing")));
    throw paymentRequired(decline);
  }
  let paid;
  try {
    paid = await ctx.db.transaction(async (tx) => payTask(deps, tx, claimed, ctx.now()));
  } catch (err) {
    // Nothing was captured (the transaction rolled back): hand the payment back so a retry works.
    await ctx.db
      .update(payments)
      .set({ status: "failed", failureMessage: "The payment could not be completed", updatedAt: ctx.now() })
      .where(and(eq(payments.id, payment.id), eq(payments.status, "processing")));
    throw err;
  }
  if (!paid) {
    // Nothing was charged: the sandbox decides after the task check, unlike a real processor.
    const message = "The payment window for this task has closed";
    await ctx.db
      .update(payments)
      .set({ status: "failed", failureMessage: message, updatedAt: ctx.now() })
      .where(and(eq(payments.id, payment.id), eq(payments.status, "processing")));
    throw conflict(message);
  }
}

/** A sandbox confirm takes milliseconds; one still "processing" after this was cut off. */
export const STUCK_PROCESSING_MS = 2 * 60_000;

/**
 * The sweeper for sandbox confirms cut off between "processing" and the capture (the process
 * killed, the database gone; test/faults/process-kill.faults.ts): such a payment refuses every
 * retry with 409 and, being live, blocks the task's payment for good. Nothing was captured: the
 * capture's own transaction sets "captured", and if it commits after this update it still wins
 * (it waits on the row lock, then overwrites). So the payment goes back to "failed", which a
 * retry may claim again, as after a decline.
 */
export async function failStuckSandboxPayments(deps: PaymentsDeps): Promise<number> {
  const { ctx } = deps;
  const now = ctx.now();
  const stuck = await ctx.db
    .update(payments)
    .set({ status: "failed", failureMessage: "The payment could not be completed", updatedAt: now })
    .where(
      and(
        eq(payments.status, "processing"),
        eq(payments.gateway, "sandbox"),
        lte(payments.updatedAt, new Date(now.getTime() - STUCK_PROCESSING_MS)),
      ),
    )
    .returning({ id: payments.id });
  return stuck.length;
}

/** A Stripe event, once per event id; an error rolls back so Stripe redelivers it. */
export async function handleGatewayEvent(deps: PaymentsDeps, event: GatewayEvent): Promise<void> {
  const { ctx } = deps;
  await ctx.db.transaction(async (tx) => {
    const [fresh] = await tx
      .insert(webhookEvents)
      .values({ id: event.id, type: event.type, receivedAt: ctx.now() })
      .onConflictDoNothing()
      .returning();
    if (!fresh) return;
    const now = ctx.now();
    if (event.type === "payment_intent.succeeded" && event.intentId) await intentSucceeded(deps, tx, event.intentId, now);
    if (event.type === "payment_intent.payment_failed" && event.intentId) {
      await tx
        .update(payments)
        .set({ status: "failed", failureMessage: event.failureMessage, updatedAt: now })
        .where(and(eq(payments.gatewayRef, event.intentId), inArray(payments.status, ["requires_payment", "processing"])));
    }
    if (event.type === "account.updated" && event.account) {
      await tx
        .update(providerProfiles)
        .set({
          payoutsEnabled: event.account.payoutsEnabled,
          stripeOnboardingComplete: event.account.detailsSubmitted,
          updatedAt: now,
        })
        .where(eq(providerProfiles.stripeAccountId, event.account.id));
    }
  });
}

async function intentSucceeded(deps: PaymentsDeps, tx: Db, intentId: string, now: Date): Promise<void> {
  const [payment] = await tx.select().from(payments).where(eq(payments.gatewayRef, intentId)).limit(1);
  if (payment) {
    if (payment.status === "captured" || payment.status === "refunded") return;
    if (await payTask(deps, tx, payment, now)) return;
    // The money arrived after the task stopped being payable (cancelled, or the deadline passed):
    // record it and give it straight back (docs/decisions/005, "pay").
    await recordCapture(tx, payment, "late capture");
    await tx.update(payments).set({ status: "captured", updatedAt: now }).where(eq(payments.id, payment.id));
    await refundEscrow(deps, tx, payment.taskId, null, now);
    return;
  }
  const [tip] = await tx.select().from(tips).where(eq(tips.gatewayRef, intentId)).limit(1);
  if (tip) await captureTip(deps, tx, tip);
}

/** Credits the tip once; returns the captured row, or null when it was captured before. */
async function captureTip(deps: PaymentsDeps, tx: Db, tip: TipRow): Promise<TipRow | null> {
  const [captured] = await tx
    .update(tips)
    .set({ status: "captured" })
    .where(and(eq(tips.id, tip.id), eq(tips.status, "requires_payment")))
    .returning();
  if (!captured) return null;
  await recordTransaction(tx, {
    kind: "tip",
    key: tip.id,
    taskId: tip.taskId,
    createdBy: tip.posterId,
    postings: [
      { account: ACCOUNTS.posterPayments, amountCents: -tip.amountCents },
      { account: ACCOUNTS.providerBalance(tip.providerId), amountCents: tip.amountCents },
    ],
  });
  await notifyUser(deps.ctx, tx, {
    userId: tip.providerId,
    kind: "payment_received",
    title: "You received a tip",
    body: `The poster tipped you ${formatDollarsExact(tip.amountCents)}. Tips are yours in full.`,
    taskId: tip.taskId,
  });
  return captured;
}

/**
 * A tip after completion, 100% to the provider. The sandbox charges it at once (a simulated card on
 * file); Stripe answers a client secret that the Payment Element confirms, and the webhook credits it.
 * The client's idempotency key makes a double submit answer the first tip instead of charging again.
 */
export async function tipTask(
  deps: PaymentsDeps,
  taskId: string,
  userId: string,
  input: { amountCents: number; idempotencyKey: string },
): Promise<TipResult> {
  const { ctx, gateway } = deps;
  const task = await findTask(ctx.db, taskId);
  if (task.userId !== userId) throw forbidden("Only the poster can tip");
  if (task.status !== "completed" || !task.providerId) throw conflict("You can tip once the task is completed");
  if (gateway.name === "sandbox" && !sandboxAllowed(deps)) throw notFound("Sandbox payments are turned off");
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
    const [tip] = await tx
      .insert(tips)
      .values(values)
      .onConflictDoNothing({ target: [tips.posterId, tips.idempotencyKey] })
      .returning();
    if (tip && gateway.name === "sandbox") return captureTip(deps, tx, tip);
    return tip;
  });
  const tip = inserted ?? (await existingTip(ctx.db, values));
  if (tip.status === "captured") return { status: "succeeded", clientSecret: null };
  if (tip.clientSecret) return { status: "requires_payment", clientSecret: tip.clientSecret };
  // A twin that arrives before the first call stored the secret gets the same intent from the same key.
  const intent = await gateway.createIntent({
    key: `tip-${tip.id}`,
    amountCents: tip.amountCents,
    description: `Errandly tip: ${task.title}`,
    metadata: { tipId: tip.id, taskId },
  });
  await ctx.db
    .update(tips)
    .set({ gatewayRef: intent.ref, clientSecret: intent.clientSecret })
    .where(and(eq(tips.id, tip.id), sql`${tips.clientSecret} is null`));
  return { status: "requires_payment", clientSecret: intent.clientSecret };
}

/** The tip a repeated request refers to; the same key for a different tip is the client's mistake. */
async function existingTip(
  db: Db,
  values: { taskId: string; posterId: string; amountCents: number; idempotencyKey: string },
): Promise<TipRow> {
  const [tip] = await db
    .select()
    .from(tips)
    .where(and(eq(tips.posterId, values.posterId), eq(tips.idempotencyKey, values.idempotencyKey)))
    .limit(1);
  if (!tip) throw new Error(`Tip ${values.idempotencyKey} vanished`);
  if (tip.taskId !== values.taskId || tip.amountCents !== values.amountCents) {
    throw conflict("idempotencyKey: this key was already used for a different tip");
  }
  return tip;
}
