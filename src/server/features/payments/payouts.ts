import { and, eq, sql } from "drizzle-orm";
import { queryRows } from "../../db/client.js";
import { payouts } from "../../db/schema/payments.js";
import { providerProfiles } from "../../db/schema/providers.js";
import { conflict, forbidden, notFound } from "../../http-errors.js";
import type { PaymentsDeps } from "./deps.js";
import { ACCOUNTS, accountBalance, recordTransaction } from "./ledger.js";
import { sandboxAllowed } from "./charges.js";

// Payout accounts (spec §7 onboarding) and payouts: released money waits in the provider's
// balance until payouts are enabled, then the whole balance leaves in one payout (a Stripe
// Transfer to their connected account). The ledger entry is committed first; the transfer is
// retried with the payout's own key until the gateway confirms it.

type ProfileRow = typeof providerProfiles.$inferSelect;

async function approvedProfile(deps: PaymentsDeps, userId: string): Promise<ProfileRow> {
  const [profile] = await deps.ctx.db.select().from(providerProfiles).where(eq(providerProfiles.userId, userId)).limit(1);
  if (profile?.verificationStatus !== "approved") throw forbidden("Only approved providers can set up payouts");
  return profile;
}

export async function createPayoutAccount(deps: PaymentsDeps, userId: string, email: string): Promise<string> {
  const profile = await approvedProfile(deps, userId);
  if (profile.stripeAccountId) throw conflict("A payout account already exists");
  const { accountId } = await deps.gateway.createAccount({ key: `acct-${profile.id}`, email });
  const [updated] = await deps.ctx.db
    .update(providerProfiles)
    .set({ stripeAccountId: accountId, updatedAt: deps.ctx.now() })
    .where(and(eq(providerProfiles.id, profile.id), sql`${providerProfiles.stripeAccountId} is null`))
    .returning();
  if (!updated) throw conflict("A payout account already exists");
  return accountId;
}

export async function createPayoutAccountLink(deps: PaymentsDeps, userId: string): Promise<string> {
  const profile = await approvedProfile(deps, userId);
  if (!profile.stripeAccountId) throw conflict("Create a payout account first");
  const { url } = await deps.gateway.createAccountLink({ accountId: profile.stripeAccountId });
  return url;
}

/** The sandbox onboarding page's submit: payouts become enabled, and waiting money leaves. */
export async function completeSandboxOnboarding(deps: PaymentsDeps, userId: string): Promise<void> {
  if (!sandboxAllowed(deps)) throw notFound("Sandbox payouts are turned off");
  const profile = await approvedProfile(deps, userId);
  if (!profile.stripeAccountId) throw conflict("Create a payout account first");
  await deps.ctx.db
    .update(providerProfiles)
    .set({ payoutsEnabled: true, stripeOnboardingComplete: true, updatedAt: deps.ctx.now() })
    .where(eq(providerProfiles.id, profile.id));
  await payOutProvider(deps, userId);
}

/** Moves a provider's whole balance out when payouts are enabled; safe on several instances. */
export async function payOutProvider(deps: PaymentsDeps, providerId: string): Promise<void> {
  const { ctx } = deps;
  await ctx.db.transaction(async (tx) => {
    // The row lock serialises payouts of one provider, so the balance read below cannot be spent twice.
    const [profile] = await queryRows<{ payouts_enabled: boolean; stripe_account_id: string | null }>(
      tx,
      sql`select payouts_enabled, stripe_account_id from provider_profiles where user_id = ${providerId} for update`,
    );
    if (!profile?.payouts_enabled || !profile.stripe_account_id) return;
    const balance = await accountBalance(tx, ACCOUNTS.providerBalance(providerId));
    if (balance <= 0) return;
    const [payout] = await tx.insert(payouts).values({ providerId, amountCents: balance, createdAt: ctx.now() }).returning();
    if (!payout) throw new Error("payout not stored");
    await recordTransaction(tx, {
      kind: "payout",
      key: payout.id,
      taskId: null,
      postings: [
        { account: ACCOUNTS.providerBalance(providerId), amountCents: -balance },
        { account: ACCOUNTS.payouts, amountCents: balance },
      ],
    });
  });
  await transferPending(deps, providerId);
}

/** Sends every recorded but unconfirmed payout of the provider (or of everyone) to the gateway. */
export async function transferPending(deps: PaymentsDeps, providerId: string | null): Promise<void> {
  const { ctx, gateway } = deps;
  const pending = await ctx.db
    .select({ id: payouts.id, providerId: payouts.providerId, amountCents: payouts.amountCents, destination: providerProfiles.stripeAccountId })
    .from(payouts)
    .innerJoin(providerProfiles, eq(providerProfiles.userId, payouts.providerId))
    .where(and(eq(payouts.status, "pending"), providerId ? eq(payouts.providerId, providerId) : undefined))
    .limit(100);
  for (const payout of pending) {
    if (!payout.destination) continue;
    try {
      const { ref } = await gateway.transfer({
        key: `tr-${payout.id}`,
        destination: payout.destination,
        amountCents: payout.amountCents,
        metadata: { payoutId: payout.id, providerId: payout.providerId },
      });
      await ctx.db
        .update(payouts)
        .set({ status: "paid", gatewayRef: ref, paidAt: ctx.now() })
        .where(and(eq(payouts.id, payout.id), eq(payouts.status, "pending")));
    } catch (err) {
      // Left pending: the job retries with the same key, so the transfer happens at most once.
      ctx.log.warn({ err, payoutId: payout.id }, "payout transfer failed; will retry");
    }
  }
}

/** The "payments:payout-pending" job: every enabled provider with money waiting, then retries. */
export async function payOutAll(deps: PaymentsDeps): Promise<void> {
  const waiting = await queryRows<{ user_id: string }>(
    deps.ctx.db,
    sql`select p.user_id from provider_profiles p
        where p.payouts_enabled and p.stripe_account_id is not null
          and (select coalesce(sum(e.amount_cents), 0) from ledger_entries e
               where e.account = 'provider:' || p.user_id || ':balance') > 0
        limit 100`,
  );
  for (const { user_id } of waiting) await payOutProvider(deps, user_id);
  await transferPending(deps, null);
}
