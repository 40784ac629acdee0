import { z } from "zod";
import { text } from "./common.js";
import { DISPUTE_ESCALATION_DAYS, REPORT_PROBLEM_HOURS_AFTER_COMPLETION } from "./constants.js";
import { DISPUTE_STATUSES, REPORT_PROBLEM_WINDOW_MS } from "./money-lifecycle.js";
import { dollarsSchema } from "./money-schemas.js";
import type { TaskPhotoSize } from "./task-photos.js";

// Disputes ("report a problem"): either party of a paid task, from payment until 72 hours after
// completion; an admin resolves with any split in cents (docs/product.md, Money: disputes;
// docs/decisions/057-disputes-guarantee-late-cancellation.md). The record's transitions are rows of
// the money table (money-lifecycle.ts, "dispute").

export const DISPUTE_REASONS = ["not_done", "poor_quality", "damage", "no_show", "safety", "payment", "other"] as const;
export type DisputeReason = (typeof DISPUTE_REASONS)[number];

export const DISPUTE_REASON_LABELS: Record<DisputeReason, string> = {
  not_done: "The work was not done",
  poor_quality: "The work was done badly",
  damage: "Something was damaged or lost",
  no_show: "The other person did not show up",
  safety: "I felt unsafe",
  payment: "A problem with the payment",
  other: "Something else",
};

/** Photos one message of a dispute may carry (the report, or an answer): evidence, seen by its parties and admins only. */
export const DISPUTE_PHOTO_MAX_COUNT = 5;
export const DISPUTE_PHOTO_LIMIT_MESSAGE = `A message can carry at most ${DISPUTE_PHOTO_MAX_COUNT} photos. Remove the extra photos, then send it again.`;

/** The upload URLs the photos were PUT to (POST /api/objects/upload {kind: "dispute_photo"} first). */
const photoURLsSchema = z
  .array(z.string({ error: "Each photo must be an upload link" }).min(1, { error: "Each photo must be an upload link" }).max(4000), {
    error: "photoURLs must be a list of upload links",
  })
  .max(DISPUTE_PHOTO_MAX_COUNT, { error: DISPUTE_PHOTO_LIMIT_MESSAGE })
  .default([]);

/** Where a dispute photo's image is served: to the task's parties and admins only, never cached by others. */
export const disputePhotoUrl = (photoId: string, size: TaskPhotoSize) => `/api/dispute-photos/${photoId}/${size}`;

/** POST /api/tasks/{id}/report-problem. */
export const reportProblemBodySchema = z.object({
  reason: z.enum(DISPUTE_REASONS, { error: "Choose the reason that fits best" }),
  description: text(10, 2000, "Description"),
  photoURLs: photoURLsSchema,
});
export type ReportProblemBody = z.input<typeof reportProblemBodySchema>;

/** POST /api/tasks/{id}/dispute/messages: a party's side (or an admin's note). */
export const disputeMessageBodySchema = z.object({
  body: text(1, 2000, "Your answer"),
  photoURLs: photoURLsSchema,
});

export const disputePhotoSchema = z.object({ id: z.uuid(), small: z.string(), medium: z.string() });
export type DisputePhoto = z.infer<typeof disputePhotoSchema>;

/** POST /api/admin/disputes/{taskId}/resolve: the poster's refund in dollars; the rest of the escrow is released. */
export const resolveDisputeBodySchema = z.object({
  refund: dollarsSchema,
  reason: text(1, 1000, "Reason"),
  /** After release only: recover the guarantee's payment from the provider's next payouts (the provider is told). */
  recoverFromProvider: z.boolean({ error: "recoverFromProvider must be true or false" }).default(false),
});
export type ResolveDisputeBody = z.input<typeof resolveDisputeBodySchema>;

export const disputeMessageSchema = z.object({
  id: z.uuid(),
  authorName: z.string(),
  /** Whose side it is. */
  authorRole: z.enum(["poster", "provider", "admin"]),
  body: z.string(),
  createdAt: z.string(),
  photos: z.array(disputePhotoSchema),
});

/** The task's dispute as its parties and admins see it, with where the money is at this moment. */
export const taskDisputeSchema = z.object({
  id: z.uuid(),
  status: z.enum(DISPUTE_STATUSES),
  reason: z.enum(DISPUTE_REASONS),
  openedByRole: z.enum(["poster", "provider"]),
  createdAt: z.string(),
  /** "$X is held in escrow until an admin decides", or the outcome once resolved. */
  moneyNow: z.string(),
  messages: z.array(disputeMessageSchema),
  resolution: z
    .object({
      reason: z.string(),
      refund: z.number(),
      release: z.number(),
      providerShare: z.number(),
      fromGuarantee: z.number(),
      recoveredFromProvider: z.boolean(),
      resolvedAt: z.string(),
    })
    .nullable(),
});
export type TaskDispute = z.infer<typeof taskDisputeSchema>;

/** GET /api/tasks/{id}/dispute: the latest dispute, whether a new one may be reported, and why not. */
export const taskDisputeAnswerSchema = z.object({
  dispute: taskDisputeSchema.nullable(),
  canReport: z.boolean(),
  /** Dollars the escrow holds now, for the admin's split form. */
  held: z.number(),
});
export type TaskDisputeAnswer = z.infer<typeof taskDisputeAnswerSchema>;

/** Why a problem cannot be reported on this task now, or null when it can (the money table's "report_window" guard). */
export function reportWindowRefusal(
  task: { status: string; paymentCapturedAt: Date | string | null; completedAt: Date | string | null },
  now: Date,
): string | null {
  if (task.paymentCapturedAt === null) return "A problem can be reported once the task is paid. Until then, cancel the task or decline the provider.";
  if (task.status === "cancelled") return "This task was cancelled and its money settled. Contact us through the contact form if something is wrong.";
  if (task.status === "completed" && task.completedAt !== null) {
    const completed = task.completedAt instanceof Date ? task.completedAt.getTime() : Date.parse(task.completedAt);
    if (completed + REPORT_PROBLEM_WINDOW_MS <= now.getTime()) {
      return `Problems can be reported up to ${REPORT_PROBLEM_HOURS_AFTER_COMPLETION} hours after completion. Contact us through the contact form instead.`;
    }
  }
  return null;
}

/** Whether a dispute left without admin action this long is escalated on the admin dashboard. */
export function disputeEscalated(lastAdminActionOrOpened: Date | string, now: Date): boolean {
  const at = lastAdminActionOrOpened instanceof Date ? lastAdminActionOrOpened.getTime() : Date.parse(lastAdminActionOrOpened);
  return now.getTime() - at >= DISPUTE_ESCALATION_DAYS * 24 * 60 * 60 * 1000;
}
