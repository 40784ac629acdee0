import { z } from "zod";
import { isoDateTimeSchema } from "./common.js";

// Requesting a provider (docs/product.md, Requesting a provider; docs/decisions/065-requesting-a-provider.md):
// a task posted for one provider first, who accepts or declines within the window the poster chose;
// then it opens to everyone or is cancelled, as the poster chose.

/** The windows the post form offers, in hours; the poster picks one. */
export const REQUEST_WINDOW_HOURS = [4, 12, 24, 48, 72] as const;
export const DEFAULT_REQUEST_WINDOW_HOURS = 24;

/** What happens when the requested provider declines or does not answer in time. */
export const REQUEST_FALLBACKS = ["open", "cancel"] as const;
export type RequestFallback = (typeof REQUEST_FALLBACKS)[number];

export const REQUEST_FALLBACK_LABELS: Record<RequestFallback, string> = {
  open: "Open it to everyone",
  cancel: "Cancel it",
};

/**
 * How a request ended, as its poster reads it on the task page (issue 41; decision 082): the provider
 * accepted (and is the task's provider), declined, or did not answer in time.
 */
export const REQUEST_OUTCOMES = ["accepted", "declined", "not_answered"] as const;

const MAX_DECLINE_REASON_LENGTH = 300;

/** The request part of a posting: present only when the poster requests one provider. */
export const taskRequestInputSchema = z.object({
  providerId: z.uuid({ error: "Choose the provider to request from their profile or the directory." }),
  windowHours: z
    .number({ error: "Choose how long the provider has to answer." })
    .refine((h) => (REQUEST_WINDOW_HOURS as readonly number[]).includes(h), {
      error: `Choose how long the provider has to answer: ${REQUEST_WINDOW_HOURS.join(", ")} hours.`,
    })
    .default(DEFAULT_REQUEST_WINDOW_HOURS),
  fallback: z.enum(REQUEST_FALLBACKS, { error: "Choose whether the task opens to everyone or is cancelled if they decline." }).default("open"),
  /**
   * One of the provider's free slots (GET /api/providers/{id}/slots), when the poster chose a time:
   * with instant booking on the task is claimed for them at once, else the request carries the time
   * (docs/decisions/074-time-and-turning-up.md). It is the task's date needed.
   */
  startsAt: isoDateTimeSchema.optional(),
});
export type TaskRequestInput = z.input<typeof taskRequestInputSchema>;

/** PATCH /api/tasks/{id}/decline-request: an optional short reason the poster reads. */
export const declineRequestBodySchema = z.object({
  reason: z
    .string()
    .trim()
    .max(MAX_DECLINE_REASON_LENGTH, { error: `Keep the reason under ${MAX_DECLINE_REASON_LENGTH} characters.` })
    .optional()
    .transform((v) => (v ? v : undefined)),
});

export const REQUEST_MESSAGES = {
  notAProvider: "That person is not a verified provider, so they cannot be requested. Choose a provider from the directory.",
  yourself: "You cannot request yourself. Choose another provider from the directory.",
  withOffers: "A requested task is claimed by the provider you request, so it cannot take offers. Choose first to claim, or post without a request.",
} as const;
