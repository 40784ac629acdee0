import Stripe from "stripe";
import type { GatewayEvent, PaymentGateway } from "./gateway.js";

// Stripe with separate charges and transfers: the poster's charge lands on the platform account,
// a Transfer moves the provider's share to their Express account at payout, and refunds come from
// the platform. STRIPE_API_URL points the SDK at a local fake in tests.

export interface StripeGatewayOptions {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  apiUrl: string | undefined;
  publicUrl: string;
}

export function createStripeGateway(options: StripeGatewayOptions): PaymentGateway {
  const api = options.apiUrl ? new URL(options.apiUrl) : null;
  const stripe = new Stripe(options.secretKey, {
    maxNetworkRetries: 2,
    ...(api
      ? {
          host: api.hostname,
          port: Number(api.port || (api.protocol === "https:" ? 443 : 80)),
          protocol: api.protocol === "https:" ? ("https" as const) : ("http" as const),
        }
      : {}),
  });

  return {
    name: "stripe",
    publishableKey: options.publishableKey,
    async createIntent({ key, amountCents, description, metadata }) {
      const intent = await stripe.paymentIntents.create(
        {
          amount: amountCents,
          currency: "usd",
          description,
          metadata,
          automatic_payment_methods: { enabled: true },
        },
        { idempotencyKey: key },
      );
      if (!intent.client_secret) throw new Error("Stripe returned a PaymentIntent without a client secret");
      return { ref: intent.id, clientSecret: intent.client_secret };
    },
    async refund({ key, ref, amountCents }) {
      await stripe.refunds.create({ payment_intent: ref, amount: amountCents }, { idempotencyKey: key });
    },
    async transfer({ key, destination, amountCents, metadata }) {
      const transfer = await stripe.transfers.create(
        { amount: amountCents, currency: "usd", destination, metadata },
        { idempotencyKey: key },
      );
      return { ref: transfer.id };
    },
    async createAccount({ key, email }) {
      const account = await stripe.accounts.create(
        { type: "express", email, capabilities: { transfers: { requested: true } } },
        { idempotencyKey: key },
      );
      return { accountId: account.id };
    },
    async createAccountLink({ accountId }) {
      const link = await stripe.accountLinks.create({
        account: accountId,
        type: "account_onboarding",
        refresh_url: `${options.publicUrl}/dashboard?error=stripe_error`,
        return_url: `${options.publicUrl}/dashboard?setup=success`,
      });
      return { url: link.url };
    },
    parseWebhook(rawBody, signature, now) {
      // Tolerance 300 s as Stripe recommends, measured against our clock.
      const event = stripe.webhooks.constructEvent(rawBody, signature, options.webhookSecret, 300, undefined, now.getTime());
      return toGatewayEvent(event);
    },
  };
}

function toGatewayEvent(event: Stripe.Event): GatewayEvent {
  const base: GatewayEvent = { id: event.id, type: event.type, intentId: null, metadata: {}, failureMessage: null, cardLast4: null, account: null };
  switch (event.type) {
    case "payment_intent.succeeded":
    case "payment_intent.payment_failed": {
      const intent = event.data.object;
      return {
        ...base,
        intentId: intent.id,
        metadata: { ...intent.metadata },
        failureMessage: intent.last_payment_error?.message ?? null,
      };
    }
    case "charge.succeeded": {
      const charge = event.data.object;
      const intent = charge.payment_intent;
      return {
        ...base,
        intentId: typeof intent === "string" ? intent : (intent?.id ?? null),
        cardLast4: charge.payment_method_details?.card?.last4 ?? null,
      };
    }
    case "account.updated": {
      const account = event.data.object;
      return {
        ...base,
        account: { id: account.id, payoutsEnabled: account.payouts_enabled ?? false, detailsSubmitted: account.details_submitted ?? false },
      };
    }
    default:
      return base;
  }
}
