// The card processor behind one interface: the sandbox (sandbox.ts: default, offline, our own card
// form) and Stripe (stripe.ts) when its three keys are set; create-payment-gateway.ts picks one.
// Every call that moves money takes an idempotency key derived from our own record id, so a retry
// after a timeout or a rolled-back transaction never charges, refunds or transfers twice.

export interface CreateIntentInput {
  /** Our record id ("pi-<payment id>", "tip-<tip id>"): also the idempotency key. */
  key: string;
  amountCents: number;
  description: string;
  metadata: Record<string, string>;
}

export interface GatewayEvent {
  /** The gateway's event id, recorded so a redelivery is ignored. */
  id: string;
  type: string;
  /** payment_intent.* events: the intent id and our metadata. */
  intentId: string | null;
  metadata: Record<string, string>;
  failureMessage: string | null;
  /** charge.succeeded events: the card's last four digits, for receipts. */
  cardLast4: string | null;
  /** account.updated events. */
  account: { id: string; payoutsEnabled: boolean; detailsSubmitted: boolean } | null;
}

export interface PaymentGateway {
  readonly name: "sandbox" | "stripe";
  readonly publishableKey: string | null;
  createIntent(input: CreateIntentInput): Promise<{ ref: string; clientSecret: string }>;
  refund(input: { key: string; ref: string; amountCents: number }): Promise<void>;
  transfer(input: { key: string; destination: string; amountCents: number; metadata: Record<string, string> }): Promise<{
    ref: string;
  }>;
  createAccount(input: { key: string; email: string }): Promise<{ accountId: string }>;
  createAccountLink(input: { accountId: string }): Promise<{ url: string }>;
  /** Verifies a webhook's signature over the raw body; throws on a bad or stale signature. */
  parseWebhook(rawBody: Buffer, signature: string, now: Date): GatewayEvent;
}
