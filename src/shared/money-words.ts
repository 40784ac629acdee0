import {
  APPROVAL_WINDOW_HOURS,
  APPROVAL_WINDOW_THRESHOLD_CENTS,
  MIN_BUDGET_CENTS,
  PROVIDER_SHARE_PERCENT,
  SERVICE_FEE_FIXED_CENTS,
  SERVICE_FEE_PERCENT,
  URGENT_SURCHARGE_PERCENT,
} from "./constants.js";
import { formatDollars, formatDollarsExact, needsApprovalWindow } from "./money.js";

// The sentences about money and timing that the pages, the terms and the toasts print, built from
// the constants `priceTask` reads, so the copy cannot drift from what the code does (docs/product.md,
// Money and Fees). A page never writes "$100", "85%" or "24-hour" itself.

const threshold = formatDollars(APPROVAL_WINDOW_THRESHOLD_CENTS);
const providerShare = `${PROVIDER_SHARE_PERCENT}% of the budget plus any urgent surcharge`;

export const MONEY_WORDS = {
  minimumBudget: formatDollars(MIN_BUDGET_CENTS),
  urgentSurcharge: `${URGENT_SURCHARGE_PERCENT}%`,
  /** What the service fee is; it is charged on the surcharge too. */
  serviceFee: `${SERVICE_FEE_PERCENT}% of the budget (plus any urgent surcharge), plus ${formatDollarsExact(SERVICE_FEE_FIXED_CENTS)}`,
  /** The provider's share, a noun phrase: "You keep …". */
  providerShare,
  providerSharePercent: `${PROVIDER_SHARE_PERCENT}%`,
  /** Under the provider's earnings: the poster's service fee comes on top of the budget, not out of the share. */
  providerKeeps: `You keep ${providerShare}; the poster pays the service fee on top.`,
  commissionPercent: `${100 - PROVIDER_SHARE_PERCENT}%`,
  /**
   * When the provider is paid. The window is keyed on the budget alone (`needsApprovalWindow`),
   * not on the provider's share.
   */
  release:
    `When a task with a budget under ${threshold} is marked complete, the provider's share is released at once. ` +
    `For a budget of ${threshold} or more, the customer has ${APPROVAL_WINDOW_HOURS} hours after completion to approve ` +
    "the release early or report a problem; if they do neither, it is released automatically.",
} as const;

/** The toast after a payment, true to what happens to this amount when the provider marks it complete. */
export function paymentReceivedWords(totalCents: number, budgetCents: number): string {
  const paid = `Payment of ${formatDollarsExact(totalCents)} received.`;
  return needsApprovalWindow(budgetCents)
    ? `${paid} We hold it in escrow until the provider marks the task complete; then you have ${APPROVAL_WINDOW_HOURS} hours to approve the release or report a problem.`
    : `${paid} We hold it in escrow and release it to the provider when they mark the task complete.`;
}
