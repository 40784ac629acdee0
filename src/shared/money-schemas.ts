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

export const budgetDollarsSchema = dollarsSchema
  .refine((d) => dollarsToCents(d) >= MIN_BUDGET_CENTS, {
    error: `Minimum budget is ${formatDollars(MIN_BUDGET_CENTS)}`,
  })
  .refine((d) => dollarsToCents(d) <= MAX_BUDGET_CENTS, {
    error: `Maximum budget is ${formatDollars(MAX_BUDGET_CENTS)}`,
  });
