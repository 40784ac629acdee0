import { z } from "zod";
import { BACKGROUND_CHECK_STATES } from "./background-check-words.js";
import { text } from "./common.js";

// Background checks (docs/product.md, Background checks; docs/decisions/064-background-checks.md).
// A check is recorded by hand by an admin ("manual") or run by a Checkr-compatible service
// ("checkr"); its result uses Checkr's words. Approval needs the latest check to be clear. The
// words and dates pages show are background-check-words.ts, which carries no zod.

export const BACKGROUND_CHECK_ADAPTERS = ["manual", "checkr"] as const;

export const BACKGROUND_CHECK_RESULTS = ["clear", "consider"] as const;
export type BackgroundCheckResult = (typeof BACKGROUND_CHECK_RESULTS)[number];

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
