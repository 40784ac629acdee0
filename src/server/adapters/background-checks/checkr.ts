import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { BACKGROUND_CHECK_RESULTS } from "../../../shared/background-checks.js";
import type { CheckApplicant, CheckEvent, CheckrChecks, StartedCheck } from "./background-checks.js";

// A Checkr-compatible background-check service (docs/decisions/064-background-checks.md): the
// API key as HTTP Basic user name, a candidate then an invitation to a package, and webhooks
// signed with X-Checkr-Signature, the hex HMAC-SHA256 of the raw body keyed with the API key.

export interface CheckrOptions {
  apiKey: string;
  baseUrl: string;
  webhookSecret: string;
  package: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

const candidateAnswer = z.object({ id: z.string().min(1) });
const invitationAnswer = z.object({ id: z.string().min(1), invitation_url: z.string().min(1) });
const eventBody = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  data: z.object({ object: z.record(z.string(), z.unknown()) }).optional(),
});
const reportObject = z.object({
  object: z.literal("report"),
  id: z.string().min(1),
  candidate_id: z.string().min(1),
  status: z.string(),
  result: z.enum(BACKGROUND_CHECK_RESULTS).nullable().optional(),
});

export class CheckrError extends Error {}

export function checkrSignature(secret: string, rawBody: Buffer | string): string {
  return createHmac("sha256", secret).update(rawBody).digest("hex");
}

export function createCheckrChecks(options: CheckrOptions): CheckrChecks {
  const fetchImpl = options.fetch ?? fetch;
  const authorization = `Basic ${Buffer.from(`${options.apiKey}:`).toString("base64")}`;

  async function post<T>(path: string, body: Record<string, unknown>, answer: z.ZodType<T>): Promise<T> {
    const response = await fetchImpl(new URL(path, options.baseUrl), {
      method: "POST",
      headers: { authorization, "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
    if (!response.ok) throw new CheckrError(`Checkr answered ${response.status} to ${path}`);
    const parsed = answer.safeParse(await response.json());
    if (!parsed.success) throw new CheckrError(`Checkr's answer to ${path} was not understood`);
    return parsed.data;
  }

  return {
    name: "checkr",
    async start(applicant: CheckApplicant): Promise<StartedCheck> {
      const candidate = await post(
        "/v1/candidates",
        { first_name: applicant.firstName, last_name: applicant.lastName, email: applicant.email, zipcode: applicant.zipCode.slice(0, 5) },
        candidateAnswer,
      );
      const invitation = await post(
        "/v1/invitations",
        { candidate_id: candidate.id, package: options.package, work_locations: [{ country: "US", state: applicant.state }] },
        invitationAnswer,
      );
      return { candidateId: candidate.id, invitationId: invitation.id, invitationUrl: invitation.invitation_url, package: options.package };
    },
    parseWebhook(rawBody: Buffer, signature: string): CheckEvent {
      const expected = Buffer.from(checkrSignature(options.webhookSecret, rawBody));
      const given = Buffer.from(signature.trim().toLowerCase());
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new CheckrError("The signature does not match");
      const event = eventBody.parse(JSON.parse(rawBody.toString("utf8")));
      const report = reportObject.safeParse(event.data?.object);
      return {
        id: event.id,
        type: event.type,
        report: report.success
          ? { id: report.data.id, candidateId: report.data.candidate_id, status: report.data.status, result: report.data.result ?? null }
          : null,
      };
    },
  };
}
