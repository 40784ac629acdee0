import { and, eq, gt, isNull, lte } from "drizzle-orm";
import { formatDollarsExact, priceTask } from "../../../shared/money.js";
import { APPROVAL_WINDOW_MS } from "../../../shared/money-lifecycle.js";
import type { Db } from "../../db/client.js";
import { escrowHolds, payments } from "../../db/schema/payments.js";
import { auditLog } from "../../db/schema/users.js";
import { tasks } from "../../db/schema/tasks.js";
import { conflict, forbidden, notFound } from "../../http-errors.js";
import { notifyUser } from "../../notify.js";
import type { TaskRow } from "../../task-events.js";
import type { PaymentsDeps } from "./deps.js";
import { ACCOUNTS, accountBalance, recordTransaction } from "./ledger.js";

// Escrow: the poster's payment is held per task from capture until the work is done, then released
// to the provider (85% of budget + surcharge) and the platform (the rest and the service fee), or
// refunded to the poster in full. Each movement is one ledger transaction keyed by the task (the
// release) or by the payment (capture and refund), so a repeated event, job run or request moves
// nothing twice, while a second payment of a reactivated task is still recorded.

type PaymentRow = typeof payments.$inferSelect;
export type HoldRow = typeof escrowHolds.$inferSelect;

export async function findTask(db: Db, taskId: string): Promise<TaskRow> {
  const [task] = await db.select().from(tasks).where(eq(tasks.id, taskId)).limit(1);
  if (!task) throw notFound("Task not found");
  return task;
}

export async function findHold(db: Db, taskId: string): Promise<HoldRow | null> {
  const [hold] = await db.select().from(escrowHolds).where(eq(escrowHolds.taskId, taskId)).limit(1);
  return hold ?? null;
}

/**
 * The poster's money enters the task's escrow, once per payment: a task whose late capture was
 * refunded is paid again with a new payment, and that second charge needs its own entry.
 */
export async function recordCapture(tx: Db, payment: PaymentRow, memo?: string): Promise<void> {
  await recordTransaction(tx, {
    kind: "capture",
    key: payment.id,
    taskId: payment.taskId,
    createdBy: payment.posterId,
    ...(memo ? { memo } : {}),
    postings: [
      { account: ACCOUNTS.posterPayments, amountCents: -payment.amountCents },
      { account: ACCOUNTS.escrow(payment.taskId), amountCents: payment.amountCents },
    ],
  });
}

/**
 * The "pay" transition (docs/decisions/005): one conditional update, then the event, in the caller's
 * transaction. Returns the paid task, or null when the task was no longer payable (cancelled,
 * expired or already paid).
 */
export async function payTask(deps: PaymentsDeps, tx: Db, payment: PaymentRow, now: Date): Promise<TaskRow | null> {
  const [task] = await tx
    .update(tasks)
    .set({ paymentCapturedAt: now, updatedAt: now })
    .where(
      and(
        eq(tasks.id, payment.taskId),
        eq(tasks.status, "claimed"),
        isNull(tasks.paymentCapturedAt),
        gt(tasks.paymentDeadline, now),
      ),
    )
    .returning();
  if (!task) return null;
  await recordCapture(tx, payment);
  await tx
    .update(payments)
    .set({ status: "captured", failureMessage: null, updatedAt: now })
    .where(eq(payments.id, payment.id));
  await deps.ctx.taskEvents.emit({ transition: "pay", task, actorId: null, tx, now });
  if (task.providerId) {
    await notifyUser(deps.ctx, tx, {
      userId: task.providerId,
      kind: "payment_received",
      title: "Payment received",
      body: `The poster paid for "${task.title}". You can start the work.`,
      taskId: task.id,
    });
  }
  return task;
}

/** Moves the escrow to the provider's balance and the platform's revenue. */
export async function releaseEscrow(deps: PaymentsDeps, tx: Db, task: TaskRow, actorId: string | null): Promise<boolean> {
  if (!task.providerId) throw new Error(`Task ${task.id} has no provider to release to`);
  const held = await accountBalance(tx, ACCOUNTS.escrow(task.id));
  if (held <= 0) return false;
  const { providerShareCents } = priceTask(task.budgetCents, task.urgency);
  const recorded = await recordTransaction(tx, {
    kind: "release",
    key: task.id,
    taskId: task.id,
    createdBy: actorId,
    postings: [
      { account: ACCOUNTS.escrow(task.id), amountCents: -held },
      { account: ACCOUNTS.providerBalance(task.providerId), amountCents: providerShareCents },
      { account: ACCOUNTS.revenue, amountCents: held - providerShareCents },
    ],
  });
  if (!recorded) return false;
  await notifyUser(deps.ctx, tx, {
    userId: task.providerId,
    kind: "payout_released",
    title: "Payment released",
    body: `${formatDollarsExact(providerShareCents)} for "${task.title}" was released to you.`,
    taskId: task.id,
  });
  return true;
}

/** Returns everything the task's escrow holds to the poster, at the gateway too. */
export async function refundEscrow(deps: PaymentsDeps, tx: Db, taskId: string, actorId: string | null, now: Date): Promise<boolean> {
  const held = await accountBalance(tx, ACCOUNTS.escrow(taskId));
  if (held <= 0) return false;
  // Money in escrow always came from the task's one captured payment; the refund is keyed by it.
  const [payment] = await tx
    .update(payments)
    .set({ status: "refunded", updatedAt: now })
    .where(and(eq(payments.taskId, taskId), eq(payments.status, "captured")))
    .returning();
  if (!payment) throw new Error(`Task ${taskId} holds ${held} cents in escrow without a captured payment`);
  const recorded = await recordTransaction(tx, {
    kind: "refund",
    key: payment.id,
    taskId,
    createdBy: actorId,
    postings: [
      { account: ACCOUNTS.escrow(taskId), amountCents: -held },
      { account: ACCOUNTS.refunds, amountCents: held },
    ],
  });
  if (!recorded) throw new Error(`Payment ${payment.id} was captured again after its refund`);
  // Inside the transaction on purpose: if the gateway refuses, the cancel rolls back and the
  // poster can retry; the key makes a retry after a rollback the same refund.
  if (payment.gatewayRef) await deps.gateway.refund({ key: `re-${payment.id}`, ref: payment.gatewayRef, amountCents: held });
  return true;
}

/** On completion: under $100 released at once, otherwise held for the 24-hour approval window. */
export async function holdOnCompletion(deps: PaymentsDeps, tx: Db, task: TaskRow, now: Date): Promise<void> {
  if (!task.paymentCapturedAt) return;
  const { needsApprovalWindow } = priceTask(task.budgetCents, task.urgency);
  const [hold] = await tx
    .insert(escrowHolds)
    .values({
      taskId: task.id,
      status: needsApprovalWindow ? "holding" : "released",
      releaseAt: needsApprovalWindow ? new Date(now.getTime() + APPROVAL_WINDOW_MS) : now,
      settledAt: needsApprovalWindow ? null : now,
    })
    .onConflictDoNothing()
    .returning();
  if (hold && !needsApprovalWindow) await releaseEscrow(deps, tx, task, null);
}

function holdRefusal(hold: HoldRow | null): Error {
  switch (hold?.status) {
    case undefined:
      return conflict("This task has no payment waiting for release");
    case "released":
      return conflict("The payment has already been released");
    case "refunded":
      return conflict("The payment has already been refunded");
    case "disputed":
      return conflict("A problem was reported; an admin will resolve it");
    default:
      return conflict("The 24-hour approval window has ended");
  }
}

async function posterTask(db: Db, taskId: string, userId: string, action: string): Promise<TaskRow> {
  const task = await findTask(db, taskId);
  if (task.userId !== userId) throw forbidden(`Only the poster can ${action}`);
  return task;
}

export async function approveRelease(deps: PaymentsDeps, taskId: string, userId: string): Promise<void> {
  const { ctx } = deps;
  const task = await posterTask(ctx.db, taskId, userId, "approve the release");
  await ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    const [hold] = await tx
      .update(escrowHolds)
      .set({ status: "released", settledAt: now })
      .where(and(eq(escrowHolds.taskId, taskId), eq(escrowHolds.status, "holding")))
      .returning();
    if (!hold) throw holdRefusal(await findHold(tx, taskId));
    await releaseEscrow(deps, tx, task, userId);
  });
}

export async function reportProblem(deps: PaymentsDeps, taskId: string, userId: string, reason: string): Promise<void> {
  const { ctx } = deps;
  await posterTask(ctx.db, taskId, userId, "report a problem");
  const now = ctx.now();
  const [hold] = await ctx.db
    .update(escrowHolds)
    .set({ status: "disputed", disputeReason: reason, disputedAt: now })
    .where(and(eq(escrowHolds.taskId, taskId), eq(escrowHolds.status, "holding"), gt(escrowHolds.releaseAt, now)))
    .returning();
  if (!hold) throw holdRefusal(await findHold(ctx.db, taskId));
}

export async function resolveDispute(
  deps: PaymentsDeps,
  taskId: string,
  adminId: string,
  input: { action: "refund" | "release"; reason: string },
): Promise<void> {
  const { ctx } = deps;
  const task = await findTask(ctx.db, taskId);
  await ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    const [hold] = await tx
      .update(escrowHolds)
      .set({
        status: input.action === "refund" ? "refunded" : "released",
        resolvedBy: adminId,
        resolutionReason: input.reason,
        settledAt: now,
      })
      .where(and(eq(escrowHolds.taskId, taskId), eq(escrowHolds.status, "disputed")))
      .returning();
    if (!hold) throw conflict("There is no open dispute for this task");
    const held = await accountBalance(tx, ACCOUNTS.escrow(taskId));
    if (input.action === "refund") await refundEscrow(deps, tx, taskId, adminId, now);
    else await releaseEscrow(deps, tx, task, adminId);
    await tx.insert(auditLog).values({
      actorId: adminId,
      action: `dispute.${input.action}`,
      targetType: "task",
      targetId: taskId,
      reason: input.reason,
      details: { amountCents: held, disputeReason: hold.disputeReason },
    });
  });
}

/** The sweeper: windows that ended with neither approval nor a report are released. */
export async function releaseDue(deps: PaymentsDeps): Promise<number> {
  const { ctx } = deps;
  return ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    const due = await tx
      .update(escrowHolds)
      .set({ status: "released", settledAt: now })
      .where(and(eq(escrowHolds.status, "holding"), lte(escrowHolds.releaseAt, now)))
      .returning({ taskId: escrowHolds.taskId });
    for (const { taskId } of due) await releaseEscrow(deps, tx, await findTask(tx, taskId), null);
    return due.length;
  });
}

/** Reactions to the task lifecycle, run inside each transition's transaction. */
export function registerEscrowHandlers(deps: PaymentsDeps): void {
  deps.ctx.taskEvents.on("complete", ({ task, tx, now }) => holdOnCompletion(deps, tx, task, now));
  deps.ctx.taskEvents.on("cancel", async ({ task, tx, now, actorId }) => {
    await refundEscrow(deps, tx, task.id, actorId, now);
  });
}

