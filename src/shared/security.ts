import { z } from "zod";
import { userSchema } from "./auth.js";
import { text } from "./common.js";

// Second factors, step-up and the security log: the contracts both sides read
// (docs/product.md, "Account security"; docs/decisions/049-second-factors.md, 050-step-up-and-security-log.md).

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

/** POST /api/auth/login (and a reset link) when the account has a second factor: 202, and the second step's page. */
export const secondFactorNeededSchema = z.object({
  message: z.string(),
  secondFactor: z.object({ methods: z.array(z.enum(SECOND_FACTOR_METHODS)) }),
});
export type SecondFactorNeeded = z.infer<typeof secondFactorNeededSchema>;

/** A six-digit authenticator code, or a recovery code ("abcde-fghij"); spaces and dashes do not matter. */
export const codeSchema = z
  .string({ error: "Type the code from your authenticator app, or a recovery code." })
  .trim()
  .min(6, { error: "Type the six-digit code from your authenticator app, or a recovery code." })
  .max(40, { error: "That code is too long. Type the six-digit code from your app, or a recovery code." });
export const secondStepBodySchema = z.object({ code: codeSchema });
export type SecondStepBody = z.infer<typeof secondStepBodySchema>;

/** Recovery codes: shown once, at enrolment or when made anew. */
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });

export const totpSetupSchema = z.object({ secret: z.string(), otpauthUrl: z.string(), qrSvg: z.string() });
export type TotpSetup = z.infer<typeof totpSetupSchema>;
export const totpConfirmBodySchema = z.object({ code: codeSchema });
/** Confirming the first factor hands out the recovery codes; a later one, none. */
export const totpConfirmedSchema = z.object({ recoveryCodes: z.array(z.string()).nullable() });

export const passkeyViewSchema = z.object({ id: z.uuid(), name: z.string(), createdAt: z.string(), lastUsedAt: z.string().nullable() });
export type PasskeyView = z.infer<typeof passkeyViewSchema>;
export const passkeyNameBodySchema = z.object({ name: text(1, 60, "Passkey name") });

export const securityOverviewSchema = z.object({
  totp: z.boolean(),
  passkeys: z.array(passkeyViewSchema),
  recoveryCodesLeft: z.number().int(),
  /** An admin must have one; a provider is encouraged to. */
  required: z.boolean(),
});
export type SecurityOverview = z.infer<typeof securityOverviewSchema>;

export const securityEventViewSchema = z.object({
  id: z.uuid(),
  event: z.string(),
  description: z.string(),
  result: z.enum(["success", "failure"]),
  ip: z.string().nullable(),
  device: z.string(),
  createdAt: z.string(),
});
export type SecurityEventView = z.infer<typeof securityEventViewSchema>;
export const securityEventListSchema = z.array(securityEventViewSchema);

export const stepUpBodySchema = z.object({
  password: z.string({ error: "Type your password." }).min(1, { error: "Type your password." }).max(200),
});

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

/** The second step's answer: the signed-in user, and after a recovery code how many are left. */
export const secondStepResultSchema = userSchema.extend({ recoveryCodesLeft: z.number().int().optional() });
export type SecondStepResult = z.infer<typeof secondStepResultSchema>;

/** What the browser's WebAuthn call answers (@simplewebauthn/browser), checked by the server's library. */
export const webauthnResponseSchema = z.record(z.string(), z.unknown());
export const passkeyRegisterBodySchema = z.object({ name: text(1, 60, "Passkey name"), response: webauthnResponseSchema });
export const passkeyAssertionBodySchema = z.object({ response: webauthnResponseSchema });
/** The options the browser's WebAuthn call takes, as the server's library made them. */
export const webauthnOptionsSchema = z.record(z.string(), z.unknown());
