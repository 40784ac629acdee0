import { z } from "zod";
import { MIN_BUDGET_CENTS } from "./constants.js";
import { MAX_BUDGET_CENTS, dollarsToCents, formatDollars } from "./money.js";

// The API's dollar amounts as zod schemas (docs/decisions/004-money-in-the-api.md). Apart from
// money.ts, whose arithmetic and formatting every price on a card or a page needs without zod
// (issue 17, docs/decisions/029-lighter-first-load.md).

/** A dollar amount as the API accepts it: finite, not negative, at most two decimals. */
export const dollarsSchema = z
  .number({ error: "must be a number" })
  .finite()
  .nonnegative({ error: "must not be negative" })
  .refine((d) => Math.abs(d * 100 - Math.round(d * 100)) < 1e-6, { error: "must have at most two decimals" });

/** A dollar amount within the budget's bounds, refused in the words of what it is (a budget, an offer's price). */
function boundedDollarsSchema(words: { tooLow: string; tooHigh: string }) {
  return dollarsSchema
    .refine((d) => dollarsToCents(d) >= MIN_BUDGET_CENTS, { error: words.tooLow })
    .refine((d) => dollarsToCents(d) <= MAX_BUDGET_CENTS, { error: words.tooHigh });
}

export const budgetDollarsSchema = boundedDollarsSchema({
  tooLow: `Minimum budget is ${formatDollars(MIN_BUDGET_CENTS)}`,
  tooHigh: `Maximum budget is ${formatDollars(MAX_BUDGET_CENTS)}`,
});

/** An offer's price is the task's budget if accepted (docs/product.md, Offers): the same bounds, said as a price. */
export const offerPriceDollarsSchema = boundedDollarsSchema({
  tooLow: `The lowest offer is ${formatDollars(MIN_BUDGET_CENTS)}. Raise your price to at least that.`,
  tooHigh: `The highest offer is ${formatDollars(MAX_BUDGET_CENTS)}. Lower your price to at most that.`,
});
