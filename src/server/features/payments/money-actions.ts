import { and, eq } from "drizzle-orm";
import { DISPUTE_REASON_LABELS, type DisputeReason } from "../../../shared/disputes.js";
import { findMoneyTransition, type MoneyRecord, type MoneyTransitionName } from "../../../shared/money-lifecycle.js";
import { statementWords } from "../../../shared/statement-words.js";
import { formatDollarsExact, isLateCancellation, lateCancellationFeeCents } from "../../../shared/money.js";
import type { Db } from "../../db/client.js";
import { loadTaskStatement } from "../../db/task-statements.js";
import { escrowHolds, payments } from "../../db/schema/payments.js";
import { sendNotice } from "../../declared-notices.js";
import type { MoneyActionEvent, TaskEventPayload, TaskRow } from "../../transition-actions.js";
import { ACCOUNTS, accountBalance, recordMoneyAction } from "./ledger.js";
import { moveHold } from "./money-records.js";
import { findPayment, paymentOfTask } from "./repository.js";
import type { PaymentsContext } from "./service.js";

// The money table's named actions (src/shared/money-lifecycle.ts), one handler per name, and the
// loop that runs a row's actions in order inside the transition's transaction
// (docs/decisions/045-transitions-name-their-actions.md). Each `ledger.*` handler writes one
// balanced ledger transaction keyed so that it happens at most once.

/** Runs the row's actions, in its order, each by its one registered handler. */
export async function runMoneyRow<R extends MoneyRecord>(
  ctx: PaymentsContext,
  record: R,
  name: MoneyTransitionName<R>,
  event: Omit<MoneyActionEvent, "transition">,
): Promise<void> {
  const row = findMoneyTransition(record, name);
  for (const action of row.actions) await ctx.moneyActions.run(action, { ...event, transition: `${record}.${name}` });
}

export function need<T>(value: T | undefined, what: string, event: MoneyActionEvent): T {
  if (value === undefined) throw new Error(`${event.transition} ran without its ${what}`);
  return value;
}

/** Where the task's money is now, in one sentence both parties read (docs/product.md, Money: disputes). */
export async function moneyWhereabouts(ctx: PaymentsContext, task: TaskRow, tx: Db): Promise<string> {
  const held = await accountBalance(ctx, ACCOUNTS.escrow(task.id), tx);
  if (held > 0) return `${formatDollarsExact(held)} is held in escrow until an admin decides.`;
  return "The payment was already released to the provider; if an admin decides in the poster's favour, Errandly's guarantee pays the refund.";
}

/** "ledger.refund": everything the task's escrow holds goes back to the poster, at the gateway too. */
export async function refundHeld(ctx: PaymentsContext, event: MoneyActionEvent): Promise<void> {
  const { tx, actorId } = event;
  const task = need(event.task, "task", event);
  const payment = need(event.payment, "payment", event);
  const held = await accountBalance(ctx, ACCOUNTS.escrow(task.id), tx);
  if (held <= 0) return;
  const reason = need(event.refundReason, "refund reason", event);
  const recorded = await recordMoneyAction(ctx, "refund", { paymentId: payment.id, taskId: task.id, heldCents: held, actorId, reason }, tx);
  if (!recorded) throw new Error(`Payment ${payment.id} was captured again after its refund`);
  // Inside the transaction on purpose: if the gateway refuses, the cancel rolls back and the
  // poster can retry; the key makes a retry after a rollback the same refund.
  if (payment.gatewayRef) await ctx.gateway.refund({ key: `re-${payment.id}`, ref: payment.gatewayRef, amountCents: held });
}

/** "ledger.release": the escrow to the provider's balance (the task's stored share) and the platform; the provider is told. */
export async function releaseHeld(ctx: PaymentsContext, event: MoneyActionEvent): Promise<void> {
  const { tx, actorId } = event;
  const task = need(event.task, "task", event);
  if (!task.providerId) throw new Error(`Task ${task.id} has no provider to release to`);
  const held = await accountBalance(ctx, ACCOUNTS.escrow(task.id), tx);
  if (held <= 0) return;
  const { providerShareCents } = task;
  const recorded = await recordMoneyAction(ctx, "release", { taskId: task.id, providerId: task.providerId, heldCents: held, providerShareCents, actorId }, tx);
  if (!recorded) return;
  await sendNotice(ctx, tx, "ledger.release", "provider", {
    userId: task.providerId,
    title: "Payment released",
    body: `${formatDollarsExact(providerShareCents)} for "${task.title}" was released to you.`,
    taskId: task.id,
  });
}

/**
 * "ledger.split": an admin's resolution while the escrow holds money: the poster's part back (at the
 * gateway too), the rest released with the provider's usual share of it (providerShareOfRelease).
 * The hold, if the task was completed, settles with it.
 */
export async function splitHeld(ctx: PaymentsContext, event: MoneyActionEvent): Promise<void> {
  const { tx } = event;
  const task = need(event.task, "task", event);
  const dispute = need(event.dispute, "dispute", event);
  const refundCents = dispute.refundCents ?? 0;
  const releaseCents = dispute.releaseCents ?? 0;
  if (refundCents + releaseCents === 0 || (dispute.guaranteeCents ?? 0) > 0) return;
  const payment = await findPayment(ctx, and(paymentOfTask(task.id), eq(payments.status, "captured")), tx);
  if (!payment) throw new Error(`Task ${task.id} holds money in escrow without a captured payment`);
  const providerShareCents = dispute.providerShareCents ?? 0;
  await recordMoneyAction(
    ctx,
    "split",
    { disputeId: dispute.id, taskId: task.id, providerId: task.providerId, heldCents: refundCents + releaseCents, refundCents, providerShareCents, actorId: dispute.resolvedBy ?? "" },
    tx,
  );
  if (refundCents > 0 && payment.gatewayRef) {
    await ctx.gateway.refund({ key: `re-dispute-${dispute.id}`, ref: payment.gatewayRef, amountCents: refundCents });
  }
  const settle = { settledAt: event.now, resolvedBy: dispute.resolvedBy, resolutionReason: dispute.resolutionReason };
  await moveHold(ctx, releaseCents > 0 ? "resolve_release" : "resolve_refund", eq(escrowHolds.taskId, task.id), settle, tx);
}

/**
 * "ledger.guarantee": the money was released before the resolution, so the poster's refund is paid
 * from the platform guarantee account; recovered from the provider's balance (their next payouts)
 * only when the admin chose so.
 */
export async function payFromGuarantee(ctx: PaymentsContext, event: MoneyActionEvent): Promise<void> {
  const { tx } = event;
  const task = need(event.task, "task", event);
  const dispute = need(event.dispute, "dispute", event);
  const amountCents = dispute.guaranteeCents ?? 0;
  if (amountCents <= 0) return;
  const actorId = dispute.resolvedBy ?? "";
  await recordMoneyAction(ctx, "guarantee", { disputeId: dispute.id, taskId: task.id, amountCents, actorId, recoverFrom: null }, tx);
  if (dispute.recoverFromProvider && task.providerId) {
    await recordMoneyAction(ctx, "guarantee", { disputeId: dispute.id, taskId: task.id, amountCents, actorId, recoverFrom: task.providerId }, tx);
  }
  const payment = await findPayment(ctx, and(eq(payments.taskId, task.id), eq(payments.status, "captured")), tx);
  if (payment?.gatewayRef) await ctx.gateway.refund({ key: `re-guarantee-${dispute.id}`, ref: payment.gatewayRef, amountCents });
}

/** The other party of a dispute's opener; null when a task has no provider (cannot happen once paid). */
function otherParty(task: TaskRow, userId: string | null): string | null {
  return userId === task.userId ? task.providerId : task.userId;
}

export async function tellDisputeOpened(ctx: PaymentsContext, event: MoneyActionEvent): Promise<void> {
  const { tx, actorId } = event;
  const task = need(event.task, "task", event);
  const dispute = need(event.dispute, "dispute", event);
  const to = otherParty(task, actorId);
  if (!to) return;
  const who = actorId === task.userId ? "The poster" : "The provider";
  const reason = DISPUTE_REASON_LABELS[dispute.reason as DisputeReason];
  await sendNotice(ctx, tx, "notify.dispute_opened", "other_party", {
    userId: to,
    title: "A problem was reported",
    body: `${who} reported a problem with "${task.title}": ${reason}. ${await moneyWhereabouts(ctx, task, tx)} Give your side on the task page.`,
    taskId: task.id,
  });
}

/**
 * Both parties hear the resolution in the words of the task's statement, which the row's ledger
 * actions have just written: what each received or got back, and the pro-rata rule of a split.
 */
export async function tellDisputeResolved(ctx: PaymentsContext, event: MoneyActionEvent): Promise<void> {
  const { tx } = event;
  const task = need(event.task, "task", event);
  const dispute = need(event.dispute, "dispute", event);
  const statement = await loadTaskStatement(tx, task.id);
  for (const userId of [task.userId, task.providerId]) {
    if (!userId) continue;
    const words = statementWords(statement, userId === task.userId ? { role: "poster" } : { role: "provider", id: userId });
    const rule = words.rule ? ` ${words.rule}` : "";
    await sendNotice(ctx, tx, "notify.dispute_resolved", userId === task.userId ? "poster" : "provider", {
      userId,
      title: "The reported problem was resolved",
      body: `About "${task.title}": ${words.summary}${rule} Reason: ${dispute.resolutionReason ?? ""}`,
      taskId: task.id,
    });
  }
}

/**
 * "escrow.late_fee" (the task table's cancel): a poster cancelling a paid task less than
 * LATE_CANCEL_HOURS before its scheduled time pays the provider the late-cancellation fee from the
 * escrow; "escrow.refund" then gives back what is left (docs/product.md, Money: late cancellation).
 * The provider hears both in the row's one notice, notify.provider_cancelled, read from the statement.
 */
export async function payLateFee(ctx: PaymentsContext, { task, tx, actorId, now }: { task: TaskRow; tx: Db; actorId: string | null; now: Date }): Promise<void> {
  if (!task.paymentCapturedAt || !task.providerId || !isLateCancellation(task.scheduledDate, now)) return;
  const held = await accountBalance(ctx, ACCOUNTS.escrow(task.id), tx);
  const feeCents = lateCancellationFeeCents(task.budgetCents, held);
  if (feeCents <= 0) return;
  const payment = await findPayment(ctx, and(paymentOfTask(task.id), eq(payments.status, "captured")), tx);
  if (!payment) throw new Error(`Task ${task.id} holds money in escrow without a captured payment`);
  await recordMoneyAction(ctx, "late_fee", { paymentId: payment.id, taskId: task.id, providerId: task.providerId, feeCents, actorId }, tx);
}

/** The dispute_message event (src/shared/task-events.ts): the parties other than its author hear of it. */
export async function tellDisputeMessage(ctx: PaymentsContext, event: TaskEventPayload): Promise<void> {
  const { task, tx, actorId } = event;
  if (!task) throw new Error(`${event.event} ran without its task`);
  const side = event.byAdmin ? "An admin" : actorId === task.userId ? "The poster" : "The provider";
  for (const [to, userId] of [["poster", task.userId], ["provider", task.providerId ?? null]] as const) {
    if (!userId || userId === actorId) continue;
    await sendNotice(ctx, tx, "notify.dispute_message", to, {
      userId,
      title: "New message on a reported problem",
      body: `${side} wrote about the problem with "${task.title}". Read it and answer on the task page.`,
      taskId: event.taskId,
    });
  }
}
