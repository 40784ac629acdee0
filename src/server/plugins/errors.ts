import type { FastifyError } from "fastify";
import fp from "fastify-plugin";
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from "fastify-type-provider-zod";
import { HttpError } from "../http-errors.js";

// One error format: `{message}`. 4xx messages are for the person and name the field; 5xx messages
// are generic and the real error goes to the log. A 400 about fields also carries `fieldErrors`
// ({path: message}) so forms put each message under its field (docs/product.md#validation).

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  params?: { issue?: { path?: PropertyKey[] } };
}

function fieldName(context: string, issue: ValidationIssue): string {
  const path = issue.params?.issue?.path?.map(String).join(".") || issue.instancePath?.replace(/^\//, "").replaceAll("/", ".");
  return path ? path : context;
}

/** A message written as a whole sentence ("Choose a radius of 5, 10, 25 or 50 miles.") reads alone. */
const SENTENCE = /^[A-Z].*[.!?]$/s;

function validationMessage(context: string, issues: ValidationIssue[]): string {
  return issues
    .slice(0, 5)
    .map((i) => (i.message && SENTENCE.test(i.message) ? i.message : `${fieldName(context, i)}: ${i.message ?? "is invalid"}`))
    .reduce((all, part) => (all === "" ? part : `${all}${/[.!?]$/.test(all) ? " " : "; "}${part}`), "");
}

/** Every refused field with its first message, so a form can show each under its field (docs/product.md#validation). */
function validationFieldErrors(context: string, issues: ValidationIssue[]): Record<string, string> {
  const fieldErrors: Record<string, string> = {};
  for (const issue of issues) fieldErrors[fieldName(context, issue)] ??= issue.message ?? "is invalid";
  return fieldErrors;
}

export default fp(
  async (app) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (hasZodFastifySchemaValidationErrors(error)) {
        const context = error.validationContext ?? "request";
        const issues = error.validation as ValidationIssue[];
        return reply.code(400).send({ message: validationMessage(context, issues), fieldErrors: validationFieldErrors(context, issues) });
      }
      if (error instanceof HttpError) {
        // The thrower names the refused fields (http-errors.ts); the message is never parsed for them.
        const { fieldErrors, reason } = error;
        return reply.code(error.statusCode).send({
          message: error.message,
          ...(fieldErrors ? { fieldErrors } : {}),
          ...(reason ? { reason } : {}),
        });
      }
      if (isResponseSerializationError(error)) {
        request.log.error({ err: error, cause: error.cause }, "response did not match its schema");
        return reply.code(500).send({ message: "Internal server error" });
      }
      const status = typeof error.statusCode === "number" && error.statusCode >= 400 ? error.statusCode : 500;
      if (status >= 500) {
        const unavailable = isDatabaseUnavailable(error);
        // An outage fails every request alike: a warning each, so real errors stand out in the log.
        if (unavailable) request.log.warn({ err: error }, "service unavailable: a connection failed");
        else request.log.error({ err: error }, "request failed");
        return reply.code(unavailable ? 503 : 500).send({ message: unavailable ? SERVICE_UNAVAILABLE : "Internal server error" });
      }
      // Fastify's own 4xx (bad JSON, body too large, unsupported media type) carry safe messages.
      return reply.code(status).send({ message: error.message });
    });
  },
  { name: "errors" },
);

/** What a request or a socket frame that could not reach the database is told: it is worth retrying. */
export const SERVICE_UNAVAILABLE = "Service temporarily unavailable. Please try again shortly.";

const UNAVAILABLE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "57P01", "57P02", "57P03", "53300"]);
// node-postgres reports a connection lost mid-query or a client broken by it without a code.
const UNAVAILABLE_MESSAGE = /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|is not queryable/;

/**
 * Connection failures answer 503 so clients and load balancers know to retry. Drizzle wraps the
 * driver's error ("Failed query: …") and a failed ROLLBACK can wrap the original, so the whole
 * cause chain is read (test/faults/database-outage.faults.ts found 500s before it was).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth += 1) {
    const { code, syscall, message, cause } = current as { code?: unknown; syscall?: unknown; message?: unknown; cause?: unknown };
    // SQLSTATE class 08 is "connection exception".
    if (UNAVAILABLE_CODES.has(String(code)) || /^08/.test(String(code))) return true;
    // A stopped server's Unix socket is gone (decision 077): connecting fails with ENOENT, not a refusal.
    if (code === "ENOENT" && syscall === "connect") return true;
    if (typeof message === "string" && UNAVAILABLE_MESSAGE.test(message)) return true;
    current = cause;
  }
  return false;
}
