import {
  APPROVAL_WINDOW_THRESHOLD_CENTS,
  LATE_CANCEL_FEE_MIN_CENTS,
  LATE_CANCEL_FEE_PERCENT,
  LATE_CANCEL_HOURS,
  PROVIDER_SHARE_PERCENT,
  SERVICE_FEE_FIXED_CENTS,
  SERVICE_FEE_PERCENT,
  URGENT_SURCHARGE_PERCENT,
  type Urgency,
} from "./constants.js";

// Money is integer cents inside; the API carries dollars as JSON numbers with at most two decimals
// (docs/decisions/004-money-in-the-api.md). Conversions happen only at the API boundary.

/** Largest budget we accept: $100,000. Keeps every sum far inside Number.MAX_SAFE_INTEGER. */
export const MAX_BUDGET_CENTS = 10_000_000;

export function dollarsToCents(dollars: number): number {
  return Math.round(dollars * 100);
}

export function centsToDollars(cents: number): number {
  return cents / 100;
}

/** "$1,234.50" or "$20" when whole. */
export function formatDollars(cents: number): string {
  const whole = cents % 100 === 0;
  return (cents / 100).toLocaleString("en-US", {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: 2,
  });
}

/** "$1,234.50" always with cents, for receipts and fee lines. */
export function formatDollarsExact(cents: number): string {
  return (cents / 100).toLocaleString("en-US", { style: "currency", currency: "USD" });
}

/** 15% of the budget for urgent tasks, rounded half up to the cent. */
export function urgentSurchargeCents(budgetCents: number, urgency: Urgency): number {
  if (urgency !== "urgent") return 0;
  return Math.floor((budgetCents * URGENT_SURCHARGE_PERCENT + 50) / 100);
}

/** ceil(8% of the amount in cents) + 50 cents, in integer arithmetic (docs/product.md, Fees). */
export function serviceFeeCents(amountCents: number): number {
  return Math.floor((amountCents * SERVICE_FEE_PERCENT + 99) / 100) + SERVICE_FEE_FIXED_CENTS;
}

/**
 * Whether release waits for the poster's approval window: keyed on the budget alone, without the
 * urgent surcharge (docs/product.md, Fees). The copy says so through `MONEY_WORDS.release`.
 */
export function needsApprovalWindow(budgetCents: number): boolean {
  return budgetCents >= APPROVAL_WINDOW_THRESHOLD_CENTS;
}

/**
 * A task's line items, fixed when its price is set (posting, an edit while open, an accepted offer)
 * and stored with it (the tasks table's *_cents columns), as Sharetribe's transactions carry theirs:
 * every page, notice, receipt and statement reads them and none works them out again, so a change
 * of the fee rules leaves every existing task's figures as they were (docs/product.md, Fees;
 * docs/decisions/073-one-account-of-each-tasks-money.md).
 */
export interface TaskLineItems {
  budgetCents: number;
  urgentFeeCents: number;
  serviceFeeCents: number;
  totalCents: number;
  /** 85% of budget + urgent surcharge when priced, rounded down; the platform keeps the rest. */
  providerShareCents: number;
  platformCommissionCents: number;
}

export interface TaskPrice extends TaskLineItems {
  /** Whether release waits for the poster's 24-hour approval window. */
  needsApprovalWindow: boolean;
}

/**
 * The commission in force where a price is set: the provider's share, PROVIDER_SHARE_PERCENT. It is
 * an object so that a test can change it and see that every task priced before keeps its figures:
 * nothing that describes an existing task prices it again (decision 073). Nothing else writes it.
 */
export const FEE_RULES = { providerSharePercent: PROVIDER_SHARE_PERCENT };

/**
 * The fee rules applied to a budget: called only where a price is set (posting, editing, accepting
 * an offer, the demo data) or quoted before it is (the pricing page, the posting form, the offer's
 * confirmation). Everything else reads the line items stored with the task.
 */
export function priceTask(budgetCents: number, urgency: Urgency): TaskPrice {
  const providerSharePercent = FEE_RULES.providerSharePercent;
  const urgentFee = urgentSurchargeCents(budgetCents, urgency);
  const workValue = budgetCents + urgentFee;
  const fee = serviceFeeCents(workValue);
  const providerShare = Math.floor((workValue * providerSharePercent) / 100);
  return {
    budgetCents,
    urgentFeeCents: urgentFee,
    serviceFeeCents: fee,
    totalCents: workValue + fee,
    providerShareCents: providerShare,
    platformCommissionCents: workValue - providerShare,
    needsApprovalWindow: needsApprovalWindow(budgetCents),
  };
}

/** The line items of a price, as the tasks table stores them (its columns have the same names). */
export function lineItemsOf(price: TaskLineItems): TaskLineItems {
  const { budgetCents, urgentFeeCents, serviceFeeCents, totalCents, providerShareCents, platformCommissionCents } = price;
  return { budgetCents, urgentFeeCents, serviceFeeCents, totalCents, providerShareCents, platformCommissionCents };
}

/** "You'll earn $25.50": the provider's line on cards, the task page and the claim dialog, from the task's stored share. */
export function youllEarnText(providerShareCents: number): string {
  return `You'll earn ${formatDollarsExact(providerShareCents)}`;
}

/**
 * The provider's part of `releasedCents` of a task's escrow of `heldCents`: the same share of it as
 * the task's stored provider share is of the whole, rounded down:
 * floor(share × released / held); the platform keeps the rest. Releasing everything gives exactly
 * the stored share (docs/product.md, Money: disputes, "the pro-rata rule").
 */
export function providerShareOfRelease(price: Pick<TaskLineItems, "providerShareCents">, releasedCents: number, heldCents: number): number {
  if (releasedCents <= 0 || heldCents <= 0) return 0;
  if (releasedCents >= heldCents) return Math.min(price.providerShareCents, heldCents);
  return Math.floor((price.providerShareCents * releasedCents) / heldCents);
}

/**
 * The budget and urgent surcharge behind `releasedCents` of a task's escrow of `heldCents`: the
 * work value's part of the release, in the proportion providerShareOfRelease uses, rounded down. A
 * provider's statement reads it as gross; gross minus their share is the platform's commission on
 * it, so a split's fee stays the commission's share of its gross (docs/product.md, Money: statements).
 */
export function workValueOfRelease(price: Pick<TaskLineItems, "budgetCents" | "urgentFeeCents">, releasedCents: number, heldCents: number): number {
  if (releasedCents <= 0 || heldCents <= 0) return 0;
  const workCents = price.budgetCents + price.urgentFeeCents;
  if (releasedCents >= heldCents) return workCents;
  return Math.floor((workCents * releasedCents) / heldCents);
}

/** An admin's resolution while the escrow holds `heldCents`: the poster's refund, the rest released. */
export interface DisputeSplit {
  refundCents: number;
  releaseCents: number;
  /** What the provider receives of the released part (providerShareOfRelease); the platform keeps the rest. */
  providerShareCents: number;
}

/**
 * The one split of a held escrow: what the server records when an admin resolves a dispute and what
 * the admin's confirmation states before it (docs/product.md, Money: disputes).
 */
export function disputeSplit(price: Pick<TaskLineItems, "providerShareCents">, heldCents: number, refundCents: number): DisputeSplit {
  const releaseCents = Math.max(0, heldCents - refundCents);
  return { refundCents, releaseCents, providerShareCents: providerShareOfRelease(price, releaseCents, heldCents) };
}

/**
 * Whether cancelling at `now` is late: less than LATE_CANCEL_HOURS before the task's scheduled time
 * (or after it). A task with no scheduled time is never late (docs/product.md, Money: late cancellation).
 */
export function isLateCancellation(scheduledDate: Date | string | null, now: Date): boolean {
  if (scheduledDate === null) return false;
  const at = scheduledDate instanceof Date ? scheduledDate.getTime() : Date.parse(scheduledDate);
  return at - now.getTime() < LATE_CANCEL_HOURS * 60 * 60 * 1000;
}

/** The late-cancellation fee: 15% of the budget, at least $5, never more than the escrow holds. */
export function lateCancellationFeeCents(budgetCents: number, heldCents: number): number {
  const fee = Math.max(Math.floor((budgetCents * LATE_CANCEL_FEE_PERCENT + 50) / 100), LATE_CANCEL_FEE_MIN_CENTS);
  return Math.max(0, Math.min(fee, heldCents));
}
