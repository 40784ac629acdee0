import { z } from "zod";
import { CATEGORY_VALUES } from "./constants.js";
import { MAX_BUDGET_CENTS } from "./money.js";
import { NEAR_MESSAGE, parseNear, RADIUS_MILES, type RadiusMiles } from "./task-filters.js";

// Job alerts (docs/product.md#job-alerts, docs/decisions/032-job-alerts.md): a verified provider
// keeps up to MAX_JOB_ALERTS searches; a newly posted task that matches one rings their bell at
// once and reaches their inbox in one digest e-mail per ALERT_EMAIL_INTERVAL_MS.

export const MAX_JOB_ALERTS = 10;
export const ALERT_EMAIL_INTERVAL_MS = 15 * 60_000;

export const TOO_MANY_ALERTS_MESSAGE = `You can keep at most ${MAX_JOB_ALERTS} job alerts. Remove one before adding another.`;
export const ALERTS_FOR_PROVIDERS_MESSAGE =
  "Job alerts are for verified providers. Apply to become a provider, and you can set alerts once your application is approved.";

const MAX_BUDGET_DOLLARS = MAX_BUDGET_CENTS / 100;

/** One alert as the form and the API body carry it: the job board's place and radius, categories, a lowest budget. */
export const jobAlertInputSchema = z.object({
  categories: z
    .array(z.enum(CATEGORY_VALUES, { error: "Unknown category" }), { error: "Choose at least one category" })
    .min(1, { error: "Choose at least one category" })
    .max(CATEGORY_VALUES.length, { error: "Choose each category once" })
    .refine((list) => new Set(list).size === list.length, { error: "Choose each category once" }),
  near: z
    .string({ error: NEAR_MESSAGE })
    .trim()
    .max(60, { error: NEAR_MESSAGE })
    .superRefine((text, ctx) => {
      const place = parseNear(text);
      if (typeof place === "string") ctx.addIssue({ code: "custom", message: place });
    }),
  radiusMiles: z
    .number({ error: "radiusMiles must be 5, 10, 25 or 50" })
    .refine((v): v is RadiusMiles => (RADIUS_MILES as readonly number[]).includes(v), { error: "radiusMiles must be 5, 10, 25 or 50" }),
  minBudget: z
    .number({ error: "minBudget must be a number of dollars" })
    .min(0, { error: "minBudget must be 0 or more" })
    .max(MAX_BUDGET_DOLLARS, { error: `minBudget must be at most ${MAX_BUDGET_DOLLARS}` })
    .nullable(),
});
export type JobAlertInput = z.input<typeof jobAlertInputSchema>;

export const saveJobAlertsBodySchema = z.object({
  alerts: z.array(jobAlertInputSchema).max(MAX_JOB_ALERTS, { error: TOO_MANY_ALERTS_MESSAGE }),
});
export type SaveJobAlertsBody = z.input<typeof saveJobAlertsBodySchema>;

export const jobAlertSchema = z.object({
  id: z.uuid(),
  categories: z.array(z.enum(CATEGORY_VALUES)),
  near: z.string(),
  radiusMiles: z.number().int(),
  minBudget: z.number().nullable(),
});
export type JobAlert = z.infer<typeof jobAlertSchema>;

export const jobAlertListSchema = z.object({ alerts: z.array(jobAlertSchema) });
export type JobAlertList = z.infer<typeof jobAlertListSchema>;

/** The bell's line for a match: "New task near you: Walk my dog · $40 · 3.2 mi". */
export function alertNoticeTitle(task: { title: string; budget: string; miles: number }): string {
  return `New task near you: ${task.title} · ${task.budget} · ${task.miles} mi`;
}
