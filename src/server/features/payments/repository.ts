import { and, eq, sql, type SQL } from "drizzle-orm";
import type { AppContext } from "../../context.js";
import { queryRows, type Db } from "../../db/client.js";
import { disputes, escrowHolds, LIVE_PAYMENT, payments, payouts, tips } from "../../db/schema/payments.js";
import { providerProfiles } from "../../db/schema/providers.js";
import { tasks } from "../../db/schema/tasks.js";
import type { TaskRow } from "../../transition-actions.js";
import type { DisputeRow, HoldRow, PaymentRow, TipRow } from "./money-records.js";

// The payments feature's reads of single records, and the providers' payout accounts and what they
// are owed. The records' moves are money-records.ts's, the ledger ledger.ts's, receipts receipt-ledger.ts's.

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
