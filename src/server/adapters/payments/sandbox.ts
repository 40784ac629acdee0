import { randomBytes } from "node:crypto";
import type { PaymentGateway } from "./gateway.js";

// The offline gateway: no network, our own card form. The card's outcome is decided here from
// Stripe's documented test numbers, so a demo behaves as it would against Stripe's test mode.

const DECLINED: Record<string, string> = {
  "4000000000000002": "Your card was declined.",
  "4000000000009995": "Your card has insufficient funds.",
};

/** null when the card is charged; otherwise the message the card network gave. */
export function sandboxCardDecline(cardNumber: string): string | null {
  return DECLINED[cardNumber] ?? null;
}

export function createSandboxGateway(): PaymentGateway {
  return {
    name: "sandbox",
    publishableKey: null,
    async createIntent({ key }) {
      // The secret is what the card form presents to confirm; unguessable like Stripe's.
      return { ref: `sandbox_${key}`, clientSecret: `sandbox_${key}_secret_${randomBytes(18).toString("base64url")}` };
    },
    async refund() {},
    async transfer({ key }) {
      return { ref: `sandbox_${key}` };
    },
    async createAccount({ key }) {
      return { accountId: `sandbox_${key}` };
    },
    async createAccountLink() {
      return { url: "/payouts/sandbox-onboarding" };
    },
    parseWebhook() {
      throw new Error("The sandbox gateway receives no webhooks");
    },
  };
}
