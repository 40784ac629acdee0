import { and, eq, isNotNull, isNull, lt, or } from "drizzle-orm";
import { generateSecret, generateURI, verifySync } from "otplib";
import type { Db } from "../../db/client.js";
import { totpFactors } from "../../db/schema/security.js";
import { totpSecretAad } from "../../secrets/at-rest.js";
import type { SecretBox } from "../../secrets/secret-box.js";

// Authenticator-app codes (RFC 6238: SHA-1, six digits, 30-second steps), with the clock handed in
// so tests move it (docs/decisions/049-second-factors.md). A code is accepted one step either side
// of now, for phones whose clocks drift, and once: the step of the last accepted code is stored and
// a code of that step or an earlier one is refused. The app's key is stored sealed and opened only
// to check a code (docs/decisions/069-secrets-at-rest-and-encrypted-backups.md).

const PERIOD_S = 30;
const ISSUER = "Errandly";

export function newTotpSecret(): string {
  return generateSecret();
}

export async function totpSetup(email: string, secret: string) {
  const otpauthUrl = generateURI({ issuer: ISSUER, label: email, secret });
  // qrcode is loaded with the first enrolment, not at start (docs/decisions/078-modules-loaded-on-first-use.md).
  const { default: QRCode } = await import("qrcode");
  const qrSvg = await QRCode.toString(otpauthUrl, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  return { secret, otpauthUrl, qrSvg };
}

/** The stored form of an account's app key: sealed under the secrets key, bound to the account. */
export function sealTotpSecret(secrets: SecretBox, userId: string, secret: string): string {
  return secrets.seal(secret, totpSecretAad(userId));
}

/** The app key of a stored row, opened to check a code; throws when the secrets key does not open it. */
export function openTotpSecret(secrets: SecretBox, userId: string, stored: string): string {
  return secrets.open(stored, totpSecretAad(userId));
}

/** The step `code` belongs to, when it is right for `now` (± one step) and newer than `afterStep`; otherwise null. */
export function totpStep(secret: string, code: string, now: Date, afterStep: number | null): number | null {
  const token = code.replace(/\s/g, "");
  if (!/^\d{6}$/.test(token)) return null;
  const result = verifySync({
    secret,
    token,
    epoch: Math.floor(now.getTime() / 1000),
    period: PERIOD_S,
    epochTolerance: PERIOD_S,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  });
  // The functional verify answers for HOTP too; a TOTP answer carries its time step.
  return result.valid && "timeStep" in result ? result.timeStep : null;
}

/**
 * Checks a code against the account's confirmed app and, when right, records its step in one
 * conditional UPDATE, so two requests with the same code give one success.
 */
export async function useTotpCode(db: Db, secrets: SecretBox, userId: string, code: string, now: Date): Promise<boolean> {
  const [factor] = await db
    .select()
    .from(totpFactors)
    .where(and(eq(totpFactors.userId, userId), isNotNull(totpFactors.confirmedAt)));
  if (!factor) return false;
  const step = totpStep(openTotpSecret(secrets, userId, factor.secret), code, now, factor.lastUsedStep);
  if (step === null) return false;
  const used = await db
    .update(totpFactors)
    .set({ lastUsedStep: step })
    .where(and(eq(totpFactors.userId, userId), or(isNull(totpFactors.lastUsedStep), lt(totpFactors.lastUsedStep, step))))
    .returning({ userId: totpFactors.userId });
  return used.length === 1;
}
