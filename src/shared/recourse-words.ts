import { LATE_CANCEL_FEE_MIN_CENTS, LATE_CANCEL_FEE_PERCENT, LATE_CANCEL_HOURS, REPORT_PROBLEM_HOURS_AFTER_COMPLETION } from "./constants.js";
import { formatDollarsExact } from "./money.js";

// What a customer can do when a task goes wrong, in the words the terms, the pricing page and the
// FAQ print, built from the constants the server applies (docs/product.md, Money). Apart from
// money-words.ts because the landing page reads that module and these sentences are long: they
// stay out of its first load.

export const RECOURSE_WORDS = {
  /** Cancelling a paid task before work starts (docs/product.md, Money: late cancellation). */
  refund:
    `If you cancel a paid task before work starts, everything held in escrow is refunded to your card, except within ${LATE_CANCEL_HOURS} hours ` +
    `of its scheduled time: then the provider keeps a late-cancellation fee of ${LATE_CANCEL_FEE_PERCENT}% of the budget (at least ` +
    `${formatDollarsExact(LATE_CANCEL_FEE_MIN_CENTS)}, never more than you paid) and you are refunded the rest. Once work has started, report a problem instead.`,
  /** Either party's recourse (docs/product.md, Money: disputes). */
  disputes:
    `Either of you can report a problem on a paid task from payment until ${REPORT_PROBLEM_HOURS_AFTER_COMPLETION} hours after completion. ` +
    "Money still in escrow stays there until an admin decides, and the admin may split it in any proportion. If the money was already " +
    "released, a refund decided in the customer's favour is paid by Errandly's guarantee.",
} as const;
