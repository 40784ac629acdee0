import { z } from "zod";
import { userSchema } from "./auth.js";
import { text } from "./common.js";
import { SECOND_FACTOR_METHODS } from "./security-rules.js";

// Second factors, step-up and the security log: the contracts both sides read
// (docs/product.md, "Account security"; docs/decisions/049-second-factors.md, 050-step-up-and-security-log.md).

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

/** Recovery codes: shown once, at enrolment or when made anew. */
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });

export const totpSetupSchema = z.object({ secret: z.string(), otpauthUrl: z.string(), qrSvg: z.string() });
export type TotpSetup = z.infer<typeof totpSetupSchema>;
export const totpConfirmBodySchema = z.object({ code: codeSchema });
/** Confirming the first factor hands out the recovery codes; a later one, none. */
export const totpConfirmedSchema = z.object({ recoveryCodes: z.array(z.string()).nullable() });

export const passkeyViewSchema = z.object({ id: z.uuid(), name: z.string(), createdAt: z.string(), lastUsedAt: z.string().nullable() });
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

/** The second step's answer: the signed-in user, and after a recovery code how many are left. */
export const secondStepResultSchema = userSchema.extend({ recoveryCodesLeft: z.number().int().optional() });
export type SecondStepResult = z.infer<typeof secondStepResultSchema>;

/** What the browser's WebAuthn call answers (@simplewebauthn/browser), checked by the server's library. */
export const webauthnResponseSchema = z.record(z.string(), z.unknown());
export const passkeyRegisterBodySchema = z.object({ name: text(1, 60, "Passkey name"), response: webauthnResponseSchema });
export const passkeyAssertionBodySchema = z.object({ response: webauthnResponseSchema });
/** The options the browser's WebAuthn call takes, as the server's library made them. */
export const webauthnOptionsSchema = z.record(z.string(), z.unknown());
