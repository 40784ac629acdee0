import { eq } from "drizzle-orm";
import { formatDollarsExact } from "../../../shared/money.js";
import { REFUND_REASONS } from "../../../shared/task-statement.js";
import { escrowHolds } from "../../db/schema/payments.js";
import { auditLog } from "../../db/schema/users.js";
import { sendNotice } from "../../declared-notices.js";
import {
  need,
  payFromGuarantee,
  payLateFee,
  refundHeld,
  releaseHeld,
  splitHeld,
  tellDisputeMessage,
  tellDisputeOpened,
  tellDisputeResolved,
} from "./money-actions.js";
import { recordMoneyAction } from "./ledger.js";
import { moveHold } from "./money-records.js";
import { holdOnCompletion, refundEscrow, type PaymentsContext } from "./service.js";

// The payments feature's actions, one typed registration each (docs/decisions/083-every-consequence-in-its-row.md):
// every action of the money table (src/shared/money-lifecycle.ts), the task table's escrow.hold,
// escrow.refund and escrow.late_fee, and the dispute_message event's notice. The handlers are
// money-actions.ts's and service.ts's; their notices are the ones their rows declare.

export function registerPaymentActions(ctx: PaymentsContext): void {
  const m = ctx.moneyActions;
  m.handle("ledger.capture", async (event) => {
    const payment = need(event.payment, "payment", event);
    const input = { paymentId: payment.id, taskId: payment.taskId, amountCents: payment.amountCents, posterId: payment.posterId };
    await recordMoneyAction(ctx, "capture", event.memo ? { ...input, memo: event.memo } : input, event.tx);
  });
  m.handle("ledger.refund", (event) => refundHeld(ctx, event));
  m.handle("ledger.release", (event) => releaseHeld(ctx, event));
  m.handle("ledger.tip", async (event) => {
    const tip = need(event.tip, "tip", event);
    const input = { tipId: tip.id, taskId: tip.taskId, posterId: tip.posterId, providerId: tip.providerId, amountCents: tip.amountCents };
    await recordMoneyAction(ctx, "tip", input, event.tx);
    await sendNotice(ctx, event.tx, "ledger.tip", "provider", {
      userId: tip.providerId,
      title: "You received a tip",
      body: `The poster tipped you ${formatDollarsExact(tip.amountCents)}. Tips are yours in full.`,
      taskId: tip.taskId,
    });
  });
  m.handle("ledger.payout", async (event) => {
    const payout = need(event.payout, "payout", event);
    await recordMoneyAction(ctx, "payout", { payoutId: payout.id, providerId: payout.providerId, amountCents: payout.amountCents }, event.tx);
  });
  m.handle("ledger.split", (event) => splitHeld(ctx, event));
  m.handle("ledger.guarantee", (event) => payFromGuarantee(ctx, event));
  m.handle("escrow.freeze", async (event) => {
    const dispute = need(event.dispute, "dispute", event);
    await moveHold(ctx, "freeze", eq(escrowHolds.taskId, need(event.task, "task", event).id), { disputeReason: dispute.reason, disputedAt: event.now }, event.tx);
  });
  m.handle("task.close_disputed", async (event) => {
    const admin = need(event.admin, "admin", event);
    const task = need(event.task, "task", event);
    if (task.status !== "claimed" && task.status !== "in_progress") return;
    const closed = await ctx.taskTransition("resolve_dispute", task.id, admin, { tx: event.tx, now: event.now });
    if (!closed) throw new Error(`Task ${task.id} could not be closed with its dispute`);
  });
  m.handle("notify.dispute_opened", (event) => tellDisputeOpened(ctx, event));
  m.handle("notify.dispute_resolved", (event) => tellDisputeResolved(ctx, event));
  m.handle("audit.dispute_resolved", async (event) => {
    const dispute = need(event.dispute, "dispute", event);
    await event.tx.insert(auditLog).values({
      actorId: dispute.resolvedBy,
      action: "dispute.resolve",
      targetType: "task",
      targetId: need(event.task, "task", event).id,
      reason: dispute.resolutionReason ?? "",
      details: {
        disputeId: dispute.id,
        refundCents: dispute.refundCents,
        releaseCents: dispute.releaseCents,
        providerShareCents: dispute.providerShareCents,
        guaranteeCents: dispute.guaranteeCents,
        recoverFromProvider: dispute.recoverFromProvider,
      },
    });
  });

  ctx.taskActions.handle("escrow.hold", ({ task, tx, now }) => holdOnCompletion(ctx, tx, task, now));
  ctx.taskActions.handle("escrow.refund", ({ task, tx, actorId, transition }) => {
    // The rows that name escrow.refund are the refund's reasons (cancel, withdraw, remove, release, report_no_show).
    const reason = REFUND_REASONS.find((r) => r === transition);
    if (!reason) throw new Error(`The task transition ${transition} refunds without a reason the statements know`);
    return refundEscrow(ctx, tx, task, actorId, reason);
  });
  ctx.taskActions.handle("escrow.late_fee", (event) => payLateFee(ctx, event));

  ctx.taskEventActions.handle("notify.dispute_message", (event) => tellDisputeMessage(ctx, event));
}
