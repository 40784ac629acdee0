import { z } from "zod";
import { formatDollars, MAX_BUDGET_CENTS } from "./money.js";
import {
  BBOX_MAX_LENGTH,
  BBOX_MESSAGE,
  isRadiusMiles,
  MAX_BUDGET_FILTER_DOLLARS,
  NEAR_MAX_LENGTH,
  NEAR_MESSAGE,
  parseBbox,
  parseNear,
  TASK_WHEN,
  type MapArea,
  type NearPlace,
} from "./task-filters.js";

// The job board's filters as zod schemas, built on the rules of task-filters.ts: the API's query
// (tasks.ts, providers.ts) and the web's filter form validate with these. Apart, so a page that
// only reads filters from its address does not load zod (issue 17, docs/decisions/029-lighter-first-load.md).

/** Budget messages name the bound as the form labels it ("Budget from"), and say what to enter. */
const budgetFilter = (label: string) =>
  z.coerce
    .number({ error: `${label} must be a number of dollars. Enter a number such as 20.` })
    .min(0, { error: `${label} must be 0 or more. Enter 0 or a higher amount.` })
    .max(MAX_BUDGET_FILTER_DOLLARS, { error: `${label} must be at most ${formatDollars(MAX_BUDGET_CENTS)}. Enter a smaller amount.` });

export const RADIUS_MESSAGE = "Choose a radius of 5, 10, 25 or 50 miles.";

/** A text field read by one of task-filters.ts's parsers, which answer the value or why they refuse it. */
const parsedText = <T extends object>(maxLength: number, tooLong: string, parse: (text: string) => T | string) =>
  z
    .string()
    .max(maxLength, { error: tooLong })
    .transform((text, ctx): T => {
      const parsed = parse(text);
      if (typeof parsed !== "string") return parsed;
      ctx.addIssue({ code: "custom", message: parsed });
      return z.NEVER;
    });

/**
 * The filter fields as they arrive in a query string (the board's URL uses the same names).
 * The job board's query schema extends these; the web's filter form judges its values with them.
 */
export const boardFilterFields = {
  near: parsedText<NearPlace>(NEAR_MAX_LENGTH, NEAR_MESSAGE, parseNear).optional(),
  radiusMiles: z.coerce
    .number({ error: RADIUS_MESSAGE })
    .refine(isRadiusMiles, { error: RADIUS_MESSAGE })
    .optional(),
  minBudget: budgetFilter("Budget from").optional(),
  maxBudget: budgetFilter("Budget to").optional(),
  when: z.enum(TASK_WHEN, { error: "Choose when as today, this_week or flexible." }).optional(),
  bbox: parsedText<MapArea>(BBOX_MAX_LENGTH, BBOX_MESSAGE, parseBbox).optional(),
};

interface FilterRuleInput {
  near?: NearPlace | undefined;
  radiusMiles?: number | undefined;
  minBudget?: number | undefined;
  maxBudget?: number | undefined;
}

/** The rules between filter fields, each reported under the field to change. */
export function checkFilterRules(q: FilterRuleInput, ctx: z.RefinementCtx): void {
  if (q.radiusMiles !== undefined && q.near === undefined) {
    ctx.addIssue({ code: "custom", path: ["radiusMiles"], message: "A radius needs a place. Enter a ZIP code, or remove the radius." });
  }
  if (q.minBudget !== undefined && q.maxBudget !== undefined && q.minBudget > q.maxBudget) {
    ctx.addIssue({ code: "custom", path: ["minBudget"], message: "Budget from must not be above Budget to. Lower it, or raise Budget to." });
  }
}

/** The filter form's schema: the same fields and rules as the API's query. */
export const boardFiltersSchema = z.object(boardFilterFields).superRefine(checkFilterRules);
