import { z } from "zod";
import { REVIEW_COMMENT_MAX_LENGTH } from "./constants.js";

// Contracts of the two-way reviews (docs/product.md, Reviews). Reviews are blind: see
// docs/decisions/010-chat-fanout-and-notifications.md.

export const createReviewBodySchema = z.object({
  taskId: z.uuid({ error: "taskId must be a UUID" }),
  reviewedId: z.uuid({ error: "reviewedId must be a UUID" }),
  rating: z
    .number({ error: "rating must be a whole number from 1 to 5" })
    .int({ error: "rating must be a whole number from 1 to 5" })
    .min(1, { error: "rating must be a whole number from 1 to 5" })
    .max(5, { error: "rating must be a whole number from 1 to 5" }),
  comment: z
    .string()
    .trim()
    .max(REVIEW_COMMENT_MAX_LENGTH, { error: `comment must be at most ${REVIEW_COMMENT_MAX_LENGTH} characters` })
    .nullish()
    .transform((v) => (v ? v : null)),
});
export type CreateReviewBody = z.input<typeof createReviewBodySchema>;

export const reviewSchema = z.object({
  id: z.uuid(),
  taskId: z.uuid(),
  reviewerId: z.uuid(),
  reviewedId: z.uuid(),
  reviewerName: z.string(),
  rating: z.number().int(),
  comment: z.string().nullable(),
  createdAt: z.string(),
});
export type Review = z.infer<typeof reviewSchema>;

export const taskReviewsSchema = z.object({
  reviews: z.array(reviewSchema),
  /** Whether the caller has already reviewed this task (their own review is always listed). */
  reviewedByMe: z.boolean(),
  /** When a still-hidden review of the other party becomes visible anyway; null when nothing is hidden. */
  revealsAt: z.string().nullable(),
});
export type TaskReviews = z.infer<typeof taskReviewsSchema>;

export const userReviewsSchema = z.object({
  reviews: z.array(reviewSchema),
  average: z.number().nullable(),
  count: z.number().int(),
});
export type UserReviews = z.infer<typeof userReviewsSchema>;
