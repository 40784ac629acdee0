import type { Env } from "../../config/env.js";
import type { PaymentGateway } from "./gateway.js";
import { createSandboxGateway } from "./sandbox.js";

// Picks the card processor: the offline sandbox by default, Stripe when its three keys are set
// (docs/decisions/008-payments-and-ledger.md). The Stripe SDK is loaded only when chosen.
export async function createPaymentGateway(env: Env): Promise<PaymentGateway> {
  if (env.STRIPE_SECRET_KEY && env.STRIPE_PUBLISHABLE_KEY && env.STRIPE_WEBHOOK_SECRET) {
    const { createStripeGateway } = await import("./stripe.js");
    return createStripeGateway({
      secretKey: env.STRIPE_SECRET_KEY,
      publishableKey: env.STRIPE_PUBLISHABLE_KEY,
      webhookSecret: env.STRIPE_WEBHOOK_SECRET,
      apiUrl: env.STRIPE_API_URL,
      publicUrl: env.PUBLIC_URL,
    });
  }
  return createSandboxGateway();
}
