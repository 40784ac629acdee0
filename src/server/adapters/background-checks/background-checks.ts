import type { BackgroundCheckResult } from "../../../shared/background-checks.js";

// Background-check port (docs/decisions/064-background-checks.md): the embedded "manual" default,
// where an admin records a check done by hand and nothing is called, or a Checkr-compatible
// service (checkr.ts); create-background-checks.ts picks one.

export interface CheckApplicant {
  firstName: string;
  lastName: string;
  email: string;
  /** Two-letter US state where they work: Checkr's invitation names the work location. */
  state: string;
  zipCode: string;
}

export interface StartedCheck {
  candidateId: string;
  invitationId: string;
  invitationUrl: string;
  package: string;
}

/** What a verified webhook says about a report; other events carry no report. */
export interface CheckEvent {
  id: string;
  type: string;
  report: { id: string; candidateId: string; status: string; result: BackgroundCheckResult | null } | null;
}

export interface ManualChecks {
  readonly name: "manual";
}

export interface CheckrChecks {
  readonly name: "checkr";
  /** Creates a candidate and an invitation to the configured package. */
  start(applicant: CheckApplicant): Promise<StartedCheck>;
  /** The event in `rawBody` if `signature` is its HMAC; throws otherwise. */
  parseWebhook(rawBody: Buffer, signature: string): CheckEvent;
}

export type BackgroundChecks = ManualChecks | CheckrChecks;
