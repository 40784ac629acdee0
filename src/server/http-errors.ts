import { errorResponseSchema } from "../shared/common.js";

/**
 * Errors a handler throws to answer 4xx with `{message}`. The error handler shows their message;
 * anything else becomes a 500 with a generic message (the real one is logged).
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** A 400's refusal per field, for a form to show under each (docs/product.md#validation). */
    readonly fieldErrors?: Record<string, string>,
    /** A cause the web acts on (src/shared/security.ts: "step_up_required"); sent beside the message. */
    readonly reason?: string,
  ) {
    super(message);
    this.name = "HttpError";
  }
}

export const badRequest = (message: string, fieldErrors?: Record<string, string>) => new HttpError(400, message, fieldErrors);
/** A 400 whose message is a sentence for the person, shown under `field` in a form (docs/product.md#validation). */
export const fieldError = (field: string, message: string) => badRequest(message, { [field]: message });
/**
 * A 400 about one field whose API message names the field first, the way the schema's own refusals
 * read ("photoURL: Upload the file first."), while the form shows the words alone under the field.
 */
export const namedFieldError = (field: string, message: string) => badRequest(`${field}: ${message}`, { [field]: message });
export const unauthorized = (message = "Unauthorized") => new HttpError(401, message);
export const forbidden = (message = "Forbidden", reason?: string) => new HttpError(403, message, undefined, reason);
export const notFound = (message = "Not found") => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
export const tooManyRequests = (message = "Too many requests. Please try again later.") => new HttpError(429, message);

/** The statuses a route may answer with the one error shape; each answer is a `{message}`. */
type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 409 | 410 | 413 | 415 | 429 | 502;

/**
 * The error part of a route's `response` schema: every listed status answers `errorResponseSchema`,
 * so a route names its refusals by number (`...errorResponses(400, 401, 404)`) and the shape lives here.
 */
export function errorResponses<const S extends ErrorStatus[]>(...statuses: S): Record<S[number], typeof errorResponseSchema> {
  return Object.fromEntries(statuses.map((status) => [status, errorResponseSchema])) as Record<S[number], typeof errorResponseSchema>;
}
