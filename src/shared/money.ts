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

export interface TaskPrice {
  budgetCents: number;
  urgentFeeCents: number;
  serviceFeeCents: number;
  totalCents: number;
  /** 85% of budget + urgent surcharge, rounded down; the platform keeps the rest. */
  providerShareCents: number;
  platformCommissionCents: number;
  /** Whether release waits for the poster's 24-hour approval window. */
  needsApprovalWindow: boolean;
}

export function priceTask(budgetCents: number, urgency: Urgency): TaskPrice {
  const urgentFee = urgentSurchargeCents(budgetCents, urgency);
  const workValue = budgetCents + urgentFee;
  const fee = serviceFeeCents(workValue);
  const providerShare = Math.floor((workValue * PROVIDER_SHARE_PERCENT) / 100);
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

/**
 * What the provider takes home from a task: the provider's share of priceTask (85% of budget +
 * urgent surcharge, no service fee; docs/product.md, Fees). Every "You'll earn" reads this.
 */
export function providerEarningsCents(budgetCents: number, urgency: Urgency): number {
  return priceTask(budgetCents, urgency).providerShareCents;
}

/** "You'll earn $25.50": the provider's line on cards, the task page, the claim dialog and notices. */
export function youllEarnText(budgetCents: number, urgency: Urgency): string {
  return `You'll earn ${formatDollarsExact(providerEarningsCents(budgetCents, urgency))}`;
}

/**
 * The provider's part of `releasedCents` of a task's escrow of `heldCents`: the same share of it as
 * priceTask's provider share is of the whole (85% of budget + surcharge), rounded down; the platform
 * keeps the rest. Releasing everything gives exactly priceTask's share (docs/product.md, Money: disputes).
 */
export function providerShareOfRelease(price: TaskPrice, releasedCents: number, heldCents: number): number {
  if (releasedCents <= 0 || heldCents <= 0) return 0;
  if (releasedCents >= heldCents) return Math.min(price.providerShareCents, heldCents);
  return Math.floor((price.providerShareCents * releasedCents) / heldCents);
}

/**
 * The budget and urgent surcharge behind `releasedCents` of a task's escrow of `heldCents`: the
 * work value's part of the release, in the proportion providerShareOfRelease uses, rounded down. A
 * provider's statement reads it as gross; gross minus their share is the platform's commission on
 * it, so a split's fee stays 15% of its gross (docs/product.md, Money: statements).
 */
export function workValueOfRelease(price: TaskPrice, releasedCents: number, heldCents: number): number {
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
export function disputeSplit(price: TaskPrice, heldCents: number, refundCents: number): DisputeSplit {
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
