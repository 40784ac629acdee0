import type { FastifyError } from "fastify";
import fp from "fastify-plugin";
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from "fastify-type-provider-zod";
import { HttpError } from "../http-errors.js";

// One error format: `{message}`. 4xx messages are for the person and name the field; 5xx messages
// are generic and the real error goes to the log.

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  params?: { issue?: { path?: PropertyKey[] } };
}

function fieldName(context: string, issue: ValidationIssue): string {
  const path = issue.params?.issue?.path?.map(String).join(".") || issue.instancePath?.replace(/^\//, "").replaceAll("/", ".");
  return path ? path : context;
}

function validationMessage(context: string, issues: ValidationIssue[]): string {
  return issues
    .slice(0, 5)
    .map((i) => `${fieldName(context, i)}: ${i.message ?? "is invalid"}`)
    .join("; ");
}

export default fp(
  async (app) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (hasZodFastifySchemaValidationErrors(error)) {
        const context = error.validationContext ?? "request";
        return reply.code(400).send({ message: validationMessage(context, error.validation as ValidationIssue[]) });
      }
      if (error instanceof HttpError) {
        return reply.code(error.statusCode).send({ message: error.message });
      }
      if (isResponseSerializationError(error)) {
        request.log.error({ err: error, cause: error.cause }, "response did not match its schema");
        return reply.code(500).send({ message: "Internal server error" });
      }
      const status = typeof error.statusCode === "number" && error.statusCode >= 400 ? error.statusCode : 500;
      if (status >= 500) {
        request.log.error({ err: error }, "request failed");
        const unavailable = isDatabaseUnavailable(error);
        return reply.code(unavailable ? 503 : 500).send({
          message: unavailable ? "Service temporarily unavailable. Please try again shortly." : "Internal server error",
        });
      }
      // Fastify's own 4xx (bad JSON, body too large, unsupported media type) carry safe messages.
      return reply.code(status).send({ message: error.message });
    });
  },
  { name: "errors" },
);

/** Connection failures answer 503 so clients and load balancers know to retry. */
function isDatabaseUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  const causeCode = (error as { cause?: { code?: unknown } }).cause?.code;
  const codes = new Set(["ECONNREFUSED", "ECONNRESET", "57P01", "57P02", "57P03", "08006", "08001", "08003"]);
  const message = error instanceof Error ? error.message : "";
  return (
    codes.has(String(code)) ||
    codes.has(String(causeCode)) ||
    /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect/.test(message)
  );
}
