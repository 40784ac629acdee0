import { and, eq, sql } from "drizzle-orm";
import type { AppContext } from "../../context.js";
import { payouts } from "../../db/schema/payments.js";
import { providerProfiles } from "../../db/schema/providers.js";
import { conflict, forbidden, notFound } from "../../http-errors.js";
import { ACCOUNTS, accountBalance } from "./ledger.js";
import { runMoneyRow } from "./money-actions.js";
import { movePayout, startPayout } from "./money-records.js";
import { findProviderProfile, lockPayoutAccount, pendingPayouts, providersOwedPayouts, updatePayoutAccount, type ProfileRow } from "./repository.js";
import { sandboxAllowed, type PaymentsContext } from "./service.js";

// Payout accounts (docs/product.md, Money) and payouts: released money waits in the provider's
// balance until payouts are enabled, then the whole balance leaves in one payout (a Stripe Transfer
// to their connected account). The ledger entry is committed first; the transfer is retried with the
// payout's own key until the gateway confirms it.

async function approvedProfile(ctx: AppContext, userId: string): Promise<ProfileRow> {
  const profile = await findProviderProfile(ctx, userId);
  if (profile?.verificationStatus !== "approved") throw forbidden("Only approved providers can set up payouts");
  return profile;
}

export async function createPayoutAccount(ctx: PaymentsContext, userId: string, email: string): Promise<string> {
  const profile = await approvedProfile(ctx, userId);
  if (profile.stripeAccountId) throw conflict("A payout account already exists");
  const { accountId } = await ctx.gateway.createAccount({ key: `acct-${profile.id}`, email });
  const updated = await updatePayoutAccount(
    ctx,
    and(eq(providerProfiles.id, profile.id), sql`${providerProfiles.stripeAccountId} is null`),
    { stripeAccountId: accountId },
  );
  if (!updated) throw conflict("A payout account already exists");
  return accountId;
}

export async function createPayoutAccountLink(ctx: PaymentsContext, userId: string): Promise<string> {
  const profile = await approvedProfile(ctx, userId);
  if (!profile.stripeAccountId) throw conflict("Create a payout account first");
  const { url } = await ctx.gateway.createAccountLink({ accountId: profile.stripeAccountId });
  return url;
}

/** The sandbox onboarding page's submit: payouts become enabled, and waiting money leaves. */
export async function completeSandboxOnboarding(ctx: PaymentsContext, userId: string): Promise<void> {
  if (!sandboxAllowed(ctx)) throw notFound("Sandbox payouts are turned off");
  const profile = await approvedProfile(ctx, userId);
  if (!profile.stripeAccountId) throw conflict("Create a payout account first");
  await updatePayoutAccount(ctx, eq(providerProfiles.id, profile.id), { payoutsEnabled: true, stripeOnboardingComplete: true });
  await payOutProvider(ctx, userId);
}

/** "payout.start": moves a provider's whole balance out when payouts are enabled; safe on several instances. */
export async function payOutProvider(ctx: PaymentsContext, providerId: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const account = await lockPayoutAccount(ctx, providerId, tx);
    if (!account?.payoutsEnabled || !account.stripeAccountId) return;
    const balance = await accountBalance(ctx, ACCOUNTS.providerBalance(providerId), tx);
    if (balance <= 0) return;
    const payout = await startPayout(ctx, providerId, balance, tx);
    await runMoneyRow(ctx, "payout", "start", { payout, actorId: null, tx, now: ctx.now() });
  });
  await transferPending(ctx, providerId);
}

/** "payout.transfer" for every recorded but unconfirmed payout of the provider (or of everyone). */
export async function transferPending(ctx: PaymentsContext, providerId: string | null): Promise<void> {
  for (const payout of await pendingPayouts(ctx, providerId)) {
    if (!payout.destination) continue;
    try {
      const { ref } = await ctx.gateway.transfer({
        key: `tr-${payout.id}`,
        destination: payout.destination,
        amountCents: payout.amountCents,
        metadata: { payoutId: payout.id, providerId: payout.providerId },
      });
      await movePayout(ctx, "transfer", eq(payouts.id, payout.id), { gatewayRef: ref, paidAt: ctx.now() });
    } catch (err) {
      // Left pending: the job retries with the same key, so the transfer happens at most once.
      ctx.log.warn({ err, payoutId: payout.id }, "payout transfer failed; will retry");
    }
  }
}

/** The "payments:payout-pending" job: every enabled provider with money waiting, then retries. */
export async function payOutAll(ctx: PaymentsContext): Promise<void> {
  for (const providerId of await providersOwedPayouts(ctx)) await payOutProvider(ctx, providerId);
  await transferPending(ctx, null);
}
