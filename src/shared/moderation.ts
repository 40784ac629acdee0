import { z } from "zod";
import { text } from "./common.js";

// Moderation (docs/product.md, Moderation; docs/decisions/059-moderation.md): reports, blocks and
// the admin's actions. The lists and messages live here so the server's checks and the web's
// forms read the same words.

/** What can be reported: a person, a task, a chat message, a review or a public question (or its answer). */
export const REPORT_TARGETS = ["user", "task", "message", "review", "question"] as const;
export type ReportTarget = (typeof REPORT_TARGETS)[number];

/** The fixed reasons a report gives, with the words the form shows. */
export const REPORT_REASONS = {
  spam: "Spam or advertising",
  scam: "Scam or fraud",
  harassment: "Harassment or hate",
  unsafe: "Unsafe or illegal",
  inappropriate: "Inappropriate content",
  other: "Something else",
} as const;
export type ReportReason = keyof typeof REPORT_REASONS;
const REPORT_REASON_KEYS = Object.keys(REPORT_REASONS) as [ReportReason, ...ReportReason[]];

/** How an admin closes a report. */
export const REPORT_OUTCOMES = {
  no_action: "No rule was broken",
  content_removed: "The content was removed or hidden",
  account_suspended: "The account was suspended",
  approval_revoked: "The provider's approval was revoked",
} as const;
export type ReportOutcome = keyof typeof REPORT_OUTCOMES;
const REPORT_OUTCOME_KEYS = Object.keys(REPORT_OUTCOMES) as [ReportOutcome, ...ReportOutcome[]];

export const REPORT_DETAILS_MAX_LENGTH = 1000;
export const MODERATION_REASON_MAX_LENGTH = 500;

export const createReportBodySchema = z.object({
  targetType: z.enum(REPORT_TARGETS, { error: "Choose what you are reporting: a user, a task, a message, a review or a question." }),
  targetId: z.uuid({ error: "targetId must be a UUID" }),
  reason: z.enum(REPORT_REASON_KEYS, { error: "Choose a reason from the list." }),
  details: text(10, REPORT_DETAILS_MAX_LENGTH, "Details"),
});
export type CreateReportBody = z.input<typeof createReportBodySchema>;

export const reportCreatedSchema = z.object({ id: z.uuid() });

export const reportsQuerySchema = z.object({
  status: z.enum(["open", "closed"], { error: "status must be open or closed" }).default("open"),
});

/** A report as the admin's queue shows it: the reported thing in context. */
export const adminReportSchema = z.object({
  id: z.uuid(),
  targetType: z.enum(REPORT_TARGETS),
  targetId: z.uuid(),
  reason: z.enum(REPORT_REASON_KEYS),
  details: z.string(),
  reporterId: z.uuid().nullable(),
  reporterName: z.string(),
  /** The person the report is about (the task's poster, the message's or review's author). */
  subjectId: z.uuid().nullable(),
  subjectName: z.string(),
  subjectSuspended: z.boolean(),
  /** The task the thing belongs to, if any, for the link and the remove action. */
  taskId: z.uuid().nullable(),
  taskTitle: z.string().nullable(),
  taskStatus: z.string().nullable(),
  /** What removing the task refunds to its poster: the captured payment, in cents; null when unpaid. */
  taskPaidCents: z.number().int().nullable(),
  /** The reported words: the message, the review's comment and rating, the task's description. */
  excerpt: z.string().nullable(),
  reviewHidden: z.boolean().nullable(),
  createdAt: z.string(),
  closedAt: z.string().nullable(),
  outcome: z.enum(REPORT_OUTCOME_KEYS).nullable(),
  outcomeNote: z.string().nullable(),
});
export type AdminReport = z.infer<typeof adminReportSchema>;

export const closeReportBodySchema = z.object({
  outcome: z.enum(REPORT_OUTCOME_KEYS, { error: "Choose an outcome from the list." }),
  note: text(0, MODERATION_REASON_MAX_LENGTH, "Note").optional(),
});

/** Every admin action says why; the person concerned reads it. */
export const moderationReasonBodySchema = z.object({
  reason: text(5, MODERATION_REASON_MAX_LENGTH, "Reason"),
});

export const blockedPersonSchema = z.object({
  userId: z.uuid(),
  name: z.string(),
  blockedAt: z.string(),
});
export type BlockedPerson = z.infer<typeof blockedPersonSchema>;

export const userIdParamSchema = z.object({ userId: z.uuid({ error: "userId must be a UUID" }) });

/** What a blocked pair is told when one tries to reach the other; it does not say who blocked whom. */
export const BLOCKED_MESSAGE = "You cannot contact or work with this person because one of you has blocked the other. Unblock them in Settings, Blocked people, if it was you.";
/** How to appeal a moderation decision, in every notice of one (docs/product.md, Moderation). */
export const MODERATION_APPEAL = (contactUrl: string) =>
  `If you think this is a mistake, you can appeal by writing to us through the contact form: ${contactUrl}`;

/** The refusal's machine-readable reason, for the sign-in form. */
export const ACCOUNT_SUSPENDED = "account_suspended";
/** A suspended person's refused sign-in; the reason follows. */
export const SUSPENDED_SIGN_IN_MESSAGE = "Your account is suspended, so you cannot sign in. To appeal, write to us through the contact form.";
