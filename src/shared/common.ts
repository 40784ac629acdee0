import { z } from "zod";
import { stateCode } from "./us-states.js";

/**
 * The one error answer of the API: 4xx messages are for people, 5xx ones are generic. A 400 about
 * input also names each refused field with its own message (`{"title": "Title must be at least 3
 * characters"}`; paths are dot-joined, "stops.0.address"), so a form can show it under that field.
 */
export const errorResponseSchema = z.object({
  message: z.string(),
  fieldErrors: z.record(z.string(), z.string()).optional(),
  /** A machine-readable cause the web acts on, such as "step_up_required" (src/shared/security.ts). */
  reason: z.string().optional(),
});

export const okResponseSchema = z.object({ ok: z.literal(true) });

/** 304 to a GET whose If-None-Match names the current ETag: no body, the client's copy stands. */
export const notModifiedSchema = z.null().describe("Not modified: the copy named by If-None-Match is current");

export const uuidParamSchema = z.object({ id: z.uuid({ error: "id must be a UUID" }) });

/** Trimmed text with a bound; an empty string after trimming fails `min`. */
export function text(min: number, max: number, field: string) {
  return z
    .string({ error: `${field} is required` })
    .trim()
    .min(min, { error: min <= 1 ? `${field} is required` : `${field} must be at least ${min} characters` })
    .max(max, { error: `${field} must be at most ${max} characters` });
}

export const emailSchema = z
  .string({ error: "Email is required" })
  .trim()
  .toLowerCase()
  .max(254, { error: "Email must be at most 254 characters" })
  .pipe(z.email({ error: "Invalid email address" }));

export const latSchema = z.number().min(-90).max(90);
export const lonSchema = z.number().min(-180).max(180);

/**
 * A US state or territory, as its code ("MD") or its name ("Maryland"), kept as the code; anything
 * else is refused rather than cut to two letters ("Maryland" once became "MA").
 */
export const stateCodeSchema = z
  .string({ error: "Choose your state from the list." })
  .transform((value, context) => {
    const code = stateCode(value);
    if (code) return code;
    context.addIssue({ code: "custom", message: "Choose your state from the list, or type its two-letter code (such as MD) or its name (such as Maryland)." });
    return z.NEVER;
  });

export const isoDateTimeSchema = z.iso.datetime({ offset: true, error: "must be an ISO date-time" });

export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(24),
});
