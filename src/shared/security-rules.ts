// Second factors, step-up and the security log: the rules without zod, so the API client can read
// the reasons without loading the schemas (docs/decisions/049-second-factors.md, 050-step-up-and-security-log.md).

/** Sensitive changes need the password or a passkey proven this recently in the session. */
export const STEP_UP_WINDOW_MS = 5 * 60_000;
/** The security log's rows older than this are deleted by the scheduler's "security-log:cleanup". */
export const SECURITY_LOG_RETENTION_DAYS = 365;
export const RECOVERY_CODE_COUNT = 10;

/** The `reason` of a 403 the web turns into a prompt: a fresh proof, or (admins) a second factor first. */
export const STEP_UP_REQUIRED = "step_up_required";
export const SECOND_FACTOR_REQUIRED = "second_factor_required";
export const STEP_UP_MESSAGE = "For your safety, confirm it is you: type your password or use a passkey, then try again.";
export const ADMIN_SECOND_FACTOR_MESSAGE =
  "Admin pages need a second factor. Add an authenticator app or a passkey in Settings under Security, or sign in again with the one you have.";

export const SECOND_FACTOR_METHODS = ["totp", "passkey", "recovery_code"] as const;
export type SecondFactorMethod = (typeof SECOND_FACTOR_METHODS)[number];

/** The events the log keeps, and how the settings page words each. */
export const SECURITY_EVENTS = {
  sign_in: "Signed in",
  sign_in_password: "Password accepted, second step asked",
  second_factor: "Second step",
  recovery_code_used: "Recovery code used",
  step_up: "Confirmed it was you",
  totp_enrolled: "Authenticator app added",
  totp_removed: "Authenticator app removed",
  recovery_codes_regenerated: "New recovery codes made",
  passkey_added: "Passkey added",
  passkey_renamed: "Passkey renamed",
  passkey_removed: "Passkey removed",
  factors_reset_by_admin: "Second factors reset by an admin",
  admin_route_denied: "Admin page refused",
  password_changed: "Password changed",
  password_reset: "Password reset with an e-mailed link",
  email_verified: "E-mail address confirmed",
  removed_at_verification: "Sign-ins and factors set up before the address was confirmed removed",
  email_change_requested: "E-mail change asked for: a link went to the new address",
  email_changed: "E-mail address changed",
  payout_account_created: "Payout account created",
  payout_details_opened: "Payout details opened for editing",
  payout_details_completed: "Payout details completed",
  payout_account_updated: "Payout details updated at the payment provider",
} as const;
export type SecurityEventName = keyof typeof SECURITY_EVENTS;

/** The sessions list's "how it was proven": "Password and authenticator app", "Passkey". */
export function describeProof(firstFactor: string | null, secondFactor: string | null): string {
  const first: Record<string, string> = { password: "Password", passkey: "Passkey", oidc: "Single sign-on", email_link: "E-mailed link" };
  const second: Record<string, string> = { totp: "authenticator app", passkey: "passkey", recovery_code: "recovery code" };
  if (!firstFactor) return "Not recorded";
  const head = first[firstFactor] ?? firstFactor;
  return secondFactor ? `${head} and ${second[secondFactor] ?? secondFactor}` : head;
}
