import { z } from "zod";
import { text } from "./common.js";

// Background checks (docs/product.md, Background checks; docs/decisions/064-background-checks.md).
// A check is recorded by hand by an admin ("manual") or run by a Checkr-compatible service
// ("checkr"); its result uses Checkr's words. Approval needs the latest check to be clear.

export const BACKGROUND_CHECK_ADAPTERS = ["manual", "checkr"] as const;
export type BackgroundCheckAdapter = (typeof BACKGROUND_CHECK_ADAPTERS)[number];

export const BACKGROUND_CHECK_RESULTS = ["clear", "consider"] as const;
export type BackgroundCheckResult = (typeof BACKGROUND_CHECK_RESULTS)[number];

/** Where the latest check stands, as the applicant and the admin see it. */
export const BACKGROUND_CHECK_STATES = ["not_started", "pending", "clear", "consider"] as const;
export type BackgroundCheckState = (typeof BACKGROUND_CHECK_STATES)[number];

export const BACKGROUND_CHECK_STATE_LABELS: Record<BackgroundCheckState, string> = {
  not_started: "Not started",
  pending: "Pending",
  clear: "Clear",
  consider: "Needs review",
};

/** The sentence the applicant gets with a "consider" result: what happens and how to dispute it. */
export const BACKGROUND_CHECK_DISPUTE = (contactUrl: string) =>
  `If a record is wrong or is not yours, you can dispute it by writing to us through the contact form (${contactUrl}); an administrator will look at it again and record a new check.`;

/** The reason kept with a Checkr report that came back "consider". */
export const CHECKR_CONSIDER_REASON = "The background check report needs review: one or more records were found that an administrator must look at.";

/** The admin's record of a check done by hand. */
export const manualCheckBodySchema = z
  .object({
    checkedWhat: text(3, 300, "What was checked"),
    result: z.enum(BACKGROUND_CHECK_RESULTS, { error: "The result must be clear or consider." }),
    /** The day the check was done (YYYY-MM-DD), not after today. */
    checkedOn: z.iso.date({ error: "The date of the check must be a date such as 2026-05-14." }),
    /** Required with "consider": the applicant is told it. Ignored with "clear". */
    reason: z.string({ error: "The reason must be text." }).trim().max(1000, { error: "The reason must be at most 1000 characters." }).optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.result === "consider" && (body.reason ?? "").length < 3) {
      ctx.addIssue({ code: "custom", path: ["reason"], message: "Say what needs review: the applicant is told this reason." });
    }
  });
export type ManualCheckBody = z.infer<typeof manualCheckBodySchema>;
export type ManualCheckInput = z.input<typeof manualCheckBodySchema>;

export const backgroundCheckSchema = z.object({
  id: z.uuid(),
  adapter: z.enum(BACKGROUND_CHECK_ADAPTERS),
  state: z.enum(BACKGROUND_CHECK_STATES),
  checkedWhat: z.string(),
  /** Why a "consider" result needs review; null otherwise. */
  reason: z.string().nullable(),
  /** When the check was done (manual) or the report completed (Checkr); null while pending. */
  completedAt: z.string().nullable(),
  /** Checkr's invitation link the applicant fills in; null for manual checks. */
  invitationUrl: z.string().nullable(),
  startedAt: z.string(),
});
export type BackgroundCheck = z.infer<typeof backgroundCheckSchema>;

/** How checks are done here: by hand, or by a connected Checkr-compatible service. */
export const backgroundCheckServiceSchema = z.object({ service: z.enum(BACKGROUND_CHECK_ADAPTERS) });

// Dates of checks are days (a manual check's is midnight UTC of its day): shown in UTC, so no
// time zone moves them to the day before.
const dayFormat = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
const monthFormat = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" });

/** "May 28, 2026". */
export function checkDay(iso: string): string {
  return dayFormat.format(new Date(iso));
}

/** "Background checked May 2026": the public profile's line. */
export function backgroundCheckedLine(iso: string): string {
  return `Background checked ${monthFormat.format(new Date(iso))}`;
}
