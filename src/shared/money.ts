import {
  APPROVAL_WINDOW_THRESHOLD_CENTS,
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
