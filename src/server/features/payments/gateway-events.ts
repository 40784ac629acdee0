import { eq } from "drizzle-orm";
import { evaluateMoneyTransition } from "../../../shared/money-lifecycle.js";
import type { GatewayEvent } from "../../adapters/payments/gateway.js";
import type { Db } from "../../db/client.js";
import { payments, tips, webhookEvents } from "../../db/schema/payments.js";
import { providerProfiles } from "../../db/schema/providers.js";
import { movePayment } from "./money-records.js";
import { findPayment, findTip, updatePayoutAccount } from "./repository.js";
import { capture, captureMoney, captureTip, refundEscrow, taskOf, type PaymentsContext } from "./service.js";

// The card processor's events (docs/decisions/008-payments-and-ledger.md): Stripe's webhook tells a
// payment or tip succeeded or failed, names the card, and reports a payout account's state. Each is
// handled once per event id, as the money table's rows of the record it names.

/** A Stripe event, once per event id; an error rolls back so Stripe redelivers it. */
export async function handleGatewayEvent(ctx: PaymentsContext, event: GatewayEvent): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [fresh] = await tx
      .insert(webhookEvents)
      .values({ id: event.id, type: event.type, receivedAt: ctx.now() })
      .onConflictDoNothing()
      .returning();
    if (!fresh) return;
    if (event.type === "charge.succeeded" && event.intentId && event.cardLast4) await storeCardDigits(tx, event.intentId, event.cardLast4);
    if (event.type === "payment_intent.succeeded" && event.intentId) await intentSucceeded(ctx, tx, event.intentId);
    if (event.type === "payment_intent.payment_failed" && event.intentId) {
      await movePayment(ctx, "fail", eq(payments.gatewayRef, event.intentId), { failureMessage: event.failureMessage }, tx);
    }
    if (event.type === "account.updated" && event.account) {
      const { payoutsEnabled, detailsSubmitted } = event.account;
      const [before] = await tx
        .select({ payoutsEnabled: providerProfiles.payoutsEnabled, detailsSubmitted: providerProfiles.stripeOnboardingComplete })
        .from(providerProfiles)
        .where(eq(providerProfiles.stripeAccountId, event.account.id));
      const after = await updatePayoutAccount(ctx, eq(providerProfiles.stripeAccountId, event.account.id), { payoutsEnabled, stripeOnboardingComplete: detailsSubmitted }, tx);
      // The details themselves are entered at the provider; what we learn is whether they are complete.
      if (after && before && (before.payoutsEnabled !== payoutsEnabled || before.detailsSubmitted !== detailsSubmitted)) {
        await ctx.recordSecurityEvent(tx, null, ctx.now(), { userId: after.userId, event: "payout_account_updated", result: "success", details: { payoutsEnabled, detailsSubmitted } });
      }
    }
  });
}

/** Stripe names the card on the charge, not the intent: its last four digits, for the receipts. */
async function storeCardDigits(tx: Db, intentId: string, cardLast4: string): Promise<void> {
  await tx.update(payments).set({ cardLast4 }).where(eq(payments.gatewayRef, intentId));
  await tx.update(tips).set({ cardLast4 }).where(eq(tips.gatewayRef, intentId));
}

async function intentSucceeded(ctx: PaymentsContext, tx: Db, intentId: string): Promise<void> {
  const payment = await findPayment(ctx, eq(payments.gatewayRef, intentId), tx);
  if (payment) {
    // A redelivered success for a payment captured (or captured and refunded) before.
    if (!evaluateMoneyTransition("payment", "capture", payment, "payment_system", ctx.now()).ok) return;
    if (await capture(ctx, tx, payment)) return;
    // The money arrived after the task stopped being payable (cancelled, or the deadline passed):
    // record it and give it straight back (docs/decisions/005, "pay").
    await captureMoney(ctx, tx, payment, "late capture");
    await refundEscrow(ctx, tx, await taskOf(ctx, payment.taskId, tx), null, "late_capture");
    return;
  }
  const tip = await findTip(ctx, eq(tips.gatewayRef, intentId), tx);
  if (tip) await captureTip(ctx, tx, tip);
}
