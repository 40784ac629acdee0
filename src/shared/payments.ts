import { z } from "zod";
import { TASK_STATUSES } from "./constants.js";
import { ESCROW_STATUSES } from "./money-lifecycle.js";
import { centsToDollars } from "./money.js";
import { dollarsSchema } from "./money-schemas.js";
import { EARNING_STATUSES, REFUND_REASONS, STATEMENT_LINE_KINDS, type TaskStatement } from "./task-statement.js";

// Contracts of the payments feature (docs/decisions/008-payments-and-ledger.md). Amounts cross the
// API as dollars; the server keeps integer cents. The states of the money records and their
// transitions are in money-lifecycle.ts.

export const PAYMENT_GATEWAYS = ["sandbox", "stripe"] as const;

/** What a refused card leaves the payer to do (docs/product.md, Money: a failed card can be retried). */
export const CARD_REFUSED_NEXT_STEP =
  "Check the card's details and try again, use another card, or ask your bank why it refused the payment.";

export const MIN_TIP_CENTS = 100;
export const MAX_TIP_CENTS = 100_000;

export const paymentConfigSchema = z.object({
  gateway: z.enum(PAYMENT_GATEWAYS),
  publishableKey: z.string().nullable(),
});
export type PaymentConfig = z.infer<typeof paymentConfigSchema>;

export const createPaymentIntentBodySchema = z.object({
  amount: dollarsSchema,
  taskId: z.uuid({ error: "taskId must be a UUID" }),
});
export const clientSecretSchema = z.object({ clientSecret: z.string() });

/** The sandbox card form; the server repeats every check (the form is a convenience). */
export const sandboxConfirmBodySchema = z.object({
  clientSecret: z.string({ error: "clientSecret is required" }).min(1, { error: "clientSecret is required" }).max(200),
  cardNumber: z
    .string({ error: "Card number is required" })
    .transform((v) => v.replace(/[\s-]/g, ""))
    .pipe(z.string().regex(/^\d{12,19}$/, { error: "Card number must be 12 to 19 digits" })),
  expMonth: z.number({ error: "Expiry month is required" }).int().min(1, { error: "Expiry month must be 1 to 12" }).max(12, {
    error: "Expiry month must be 1 to 12",
  }),
  expYear: z.number({ error: "Expiry year is required" }).int().min(2000, { error: "Expiry year is invalid" }).max(2100, {
    error: "Expiry year is invalid",
  }),
  cvc: z.string({ error: "CVC is required" }).regex(/^\d{3,4}$/, { error: "CVC must be 3 or 4 digits" }),
});
export type SandboxConfirmBody = z.input<typeof sandboxConfirmBodySchema>;

export const sandboxConfirmResultSchema = z.object({ status: z.literal("succeeded") });

/** Luhn checksum: catches a mistyped digit before anything is charged. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** "MM/YY" or "MM / YY" as typed into the card form; null when it is not a month and year. */
export function parseExpiry(value: string): { month: number; year: number } | null {
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(value);
  if (!match?.[1] || !match[2]) return null;
  const month = Number(match[1]);
  const year = match[2].length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  if (month < 1 || month > 12) return null;
  return { month, year };
}

/** A card is usable through the last day of its expiry month. */
export function expiryPassed(month: number, year: number, now: Date): boolean {
  return year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1);
}

export const tipBodySchema = z.object({
  amount: dollarsSchema
    .refine((d) => Math.round(d * 100) >= MIN_TIP_CENTS, { error: "Tip must be at least $1" })
    .refine((d) => Math.round(d * 100) <= MAX_TIP_CENTS, { error: "Tip must be at most $1,000" }),
  /** One per tip dialog opening: a double submit answers the first tip instead of charging twice. */
  idempotencyKey: z.uuid({ error: "idempotencyKey must be a UUID" }),
});
export type TipBody = z.infer<typeof tipBodySchema>;
export const tipResultSchema = z.object({
  status: z.enum(["succeeded", "requires_payment"]),
  /** Stripe only: the client confirms the tip with the Payment Element. */
  clientSecret: z.string().nullable(),
});
export type TipResult = z.infer<typeof tipResultSchema>;

/** A task's statement (src/shared/task-statement.ts) across the API: the same figures, in dollars (decision 004). */
export const taskStatementSchema = z.object({
  /** The line items fixed when the task was priced. */
  items: z.object({
    budget: z.number(),
    urgentFee: z.number(),
    serviceFee: z.number(),
    total: z.number(),
    providerShare: z.number(),
    platformCommission: z.number(),
  }),
  lines: z.array(
    z.object({
      transactionId: z.uuid(),
      kind: z.enum(STATEMENT_LINE_KINDS),
      amount: z.number(),
      at: z.string(),
      providerId: z.uuid().nullable(),
      reason: z.enum(REFUND_REASONS).nullable(),
      rule: z.object({ share: z.number(), held: z.number(), released: z.number() }).nullable(),
    }),
  ),
  context: z.object({
    status: z.enum(TASK_STATUSES),
    providerId: z.uuid().nullable(),
    hold: z.object({ status: z.enum(ESCROW_STATUSES), releaseAt: z.string() }).nullable(),
    disputeOpen: z.boolean(),
  }),
});
export type TaskStatementAnswer = z.infer<typeof taskStatementSchema>;

/** The statement as the API carries it: cents become dollars here and nowhere else. */
export function statementAnswer(statement: TaskStatement): TaskStatementAnswer {
  const { items, context } = statement;
  return {
    items: {
      budget: centsToDollars(items.budgetCents),
      urgentFee: centsToDollars(items.urgentFeeCents),
      serviceFee: centsToDollars(items.serviceFeeCents),
      total: centsToDollars(items.totalCents),
      providerShare: centsToDollars(items.providerShareCents),
      platformCommission: centsToDollars(items.platformCommissionCents),
    },
    lines: statement.lines.map((l) => ({
      transactionId: l.transactionId,
      kind: l.kind,
      amount: centsToDollars(l.cents),
      at: l.at,
      providerId: l.providerId,
      reason: l.reason,
      rule: l.rule && { share: centsToDollars(l.rule.shareCents), held: centsToDollars(l.rule.heldCents), released: centsToDollars(l.rule.releasedCents) },
    })),
    context: { ...context, hold: context.hold && { ...context.hold } },
  };
}

/**
 * What the poster, a provider of the task and admins see about its money: the escrow's state for
 * the buttons (approve, tip), and its statement, which every sentence about the money is made from.
 */
export const taskEscrowSchema = z.object({
  paid: z.boolean(),
  status: z.enum(["none", ...ESCROW_STATUSES]),
  releaseAt: z.string().nullable(),
  total: z.number(),
  /** The provider's share fixed when the task was priced. */
  providerShare: z.number(),
  tips: z.number(),
  disputeReason: z.string().nullable(),
  statement: taskStatementSchema,
});
export type TaskEscrow = z.infer<typeof taskEscrowSchema>;

export const earningsSchema = z.object({
  held: z.number(),
  available: z.number(),
  paidOut: z.number(),
  payoutsEnabled: z.boolean(),
  /** Each task's part of the provider's statement (providerEarning, src/shared/task-statement.ts). */
  tasks: z.array(
    z.object({
      taskId: z.uuid(),
      title: z.string(),
      status: z.enum(EARNING_STATUSES),
      /** What the task earned them, tips aside: the ledger's amount once money moved (net of recoveries), the share to come before. */
      earned: z.number(),
      /** Whether `earned` moved already ("You earned") or is still to come ("You earn"). */
      moved: z.boolean(),
      tips: z.number(),
      /** What the ledger gave back to the poster in this provider's part of the task; 0 when nothing. */
      refundedToPoster: z.number(),
      /** What was taken back from them for a refund an admin recovered. */
      recovered: z.number(),
      /** Held: when the release falls due. */
      releaseAt: z.string().nullable(),
      /** When money last moved to them (early when the poster approved). */
      movedAt: z.string().nullable(),
      /** When the ledger last gave money back to the poster. */
      refundedAt: z.string().nullable(),
      completedAt: z.string().nullable(),
    }),
  ),
});
export type Earnings = z.infer<typeof earningsSchema>;

export const adminFinanceSchema = z.object({
  escrowHeld: z.number(),
  platformRevenue: z.number(),
  providerBalances: z.number(),
  paidOut: z.number(),
  refunded: z.number(),
  /**
   * The platform guarantee account (docs/decisions/057): what it paid posters after release, less what
   * was recovered from providers; negative while it has paid more than it recovered.
   */
  guaranteeBalance: z.number(),
  /** Open disputes, oldest first. */
  disputes: z.array(
    z.object({
      taskId: z.uuid(),
      title: z.string(),
      posterName: z.string(),
      providerName: z.string(),
      total: z.number(),
      /** What the escrow holds now; 0 once the money was released (the guarantee pays a refund then). */
      held: z.number(),
      reason: z.string(),
      reportedAt: z.string(),
      ageDays: z.number().int(),
      /** No admin action for DISPUTE_ESCALATION_DAYS. */
      escalated: z.boolean(),
    }),
  ),
});
export type AdminFinance = z.infer<typeof adminFinanceSchema>;

export const connectAccountSchema = z.object({ accountId: z.string() });
export const accountLinkSchema = z.object({ url: z.string() });
