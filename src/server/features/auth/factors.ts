import { randomBytes } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { and, eq, gt, isNotNull, lte } from "drizzle-orm";
import { ACCOUNT_SUSPENDED, SUSPENDED_SIGN_IN_MESSAGE } from "../../../shared/moderation.js";
import type { SecondFactorMethod } from "../../../shared/security-rules.js";
import { isHttps } from "../../config/env.js";
import type { Db } from "../../db/client.js";
import { authChallenges, passkeys, totpFactors } from "../../db/schema/security.js";
import { users } from "../../db/schema/users.js";
import { forbidden } from "../../http-errors.js";
import { clearSession, setSessionCookie } from "../../plugins/auth.js";
import { recoveryCodesLeft } from "./recovery-codes.js";
import { createSession, hashToken, sessionOrigin, type SessionProof } from "./sessions.js";

// What second factors an account has, the half-done sign-ins and WebAuthn ceremonies (each named
// by a short-lived cookie), and the one way a sign-in ends in a session
// (docs/decisions/049-second-factors.md).

/** A half-done sign-in or a ceremony lasts this long: enough to find the phone, not enough to linger. */
export const CHALLENGE_TTL_MS = 5 * 60_000;

type ChallengePurpose = (typeof authChallenges.$inferSelect)["purpose"];

export async function secondFactorMethods(db: Db, userId: string): Promise<SecondFactorMethod[]> {
  const [totp] = await db
    .select({ userId: totpFactors.userId })
    .from(totpFactors)
    .where(and(eq(totpFactors.userId, userId), isNotNull(totpFactors.confirmedAt)));
  const [passkey] = await db.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, userId)).limit(1);
  const methods: SecondFactorMethod[] = [];
  if (totp) methods.push("totp");
  if (passkey) methods.push("passkey");
  if (methods.length > 0 && (await recoveryCodesLeft(db, userId)) > 0) methods.push("recovery_code");
  return methods;
}

export async function hasSecondFactor(db: Db, userId: string): Promise<boolean> {
  return (await secondFactorMethods(db, userId)).length > 0;
}

function challengeCookie(app: FastifyInstance): string {
  return isHttps(app.ctx.env) ? "__Host-errandly_challenge" : "errandly_challenge";
}

export async function startChallenge(
  app: FastifyInstance,
  reply: FastifyReply,
  input: { purpose: ChallengePurpose; userId: string | null; firstFactor?: string | null; webauthnChallenge?: string | null },
): Promise<void> {
  const token = randomBytes(32).toString("base64url");
  const now = app.ctx.now();
  await app.ctx.db.insert(authChallenges).values({
    tokenHash: hashToken(token),
    purpose: input.purpose,
    userId: input.userId,
    firstFactor: input.firstFactor ?? null,
    webauthnChallenge: input.webauthnChallenge ?? null,
    expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
    createdAt: now,
  });
  const https = isHttps(app.ctx.env);
  reply.setCookie(challengeCookie(app), token, { path: "/", httpOnly: true, sameSite: "strict", secure: https, maxAge: CHALLENGE_TTL_MS / 1000 });
}

export type Challenge = typeof authChallenges.$inferSelect;

/** The caller's challenge for `purpose`, when it has one that has not expired. */
export async function findChallenge(app: FastifyInstance, request: FastifyRequest, purposes: readonly ChallengePurpose[]): Promise<Challenge | null> {
  const token = request.cookies[challengeCookie(app)];
  if (!token || token.length > 100) return null;
  const [row] = await app.ctx.db
    .select()
    .from(authChallenges)
    .where(and(eq(authChallenges.tokenHash, hashToken(token)), gt(authChallenges.expiresAt, app.ctx.now())));
  return row && purposes.includes(row.purpose) ? row : null;
}

export async function setWebauthnChallenge(db: Db, challengeId: string, webauthnChallenge: string): Promise<void> {
  await db.update(authChallenges).set({ webauthnChallenge }).where(eq(authChallenges.id, challengeId));
}

/** Ends a challenge: only the request that deletes it goes on, so one half-done sign-in gives one session. */
export async function endChallenge(app: FastifyInstance, reply: FastifyReply, challengeId: string): Promise<boolean> {
  const gone = await app.ctx.db.delete(authChallenges).where(eq(authChallenges.id, challengeId)).returning({ id: authChallenges.id });
  reply.clearCookie(challengeCookie(app), { path: "/", httpOnly: true, sameSite: "strict", secure: isHttps(app.ctx.env) });
  return gone.length === 1;
}

export async function deleteExpiredChallenges(db: Db, now: Date): Promise<void> {
  await db.delete(authChallenges).where(lte(authChallenges.expiresAt, now));
}

const FIRST_FACTORS = ["password", "passkey", "oidc", "email_link"] as const;

/** How a half-done sign-in's first step was proven, as its session will record it. */
export function firstFactorOf(challenge: Challenge): SessionProof["firstFactor"] {
  return FIRST_FACTORS.find((f) => f === challenge.firstFactor) ?? "password";
}

/** Every sign-in ends here: a fresh token (a planted one is dropped), and the session knows how it was proven. */
export async function openSession(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, userId: string, proof: SessionProof): Promise<void> {
  const { ctx } = app;
  // A suspended account is told so, with the admin's reason, whichever way it signs in (docs/product.md, Moderation).
  const [account] = await ctx.db.select({ reason: users.suspensionReason, suspendedAt: users.suspendedAt }).from(users).where(eq(users.id, userId));
  if (account?.suspendedAt) throw forbidden(`${SUSPENDED_SIGN_IN_MESSAGE} The reason given: ${account.reason ?? "not stated"}.`, ACCOUNT_SUSPENDED);
  await clearSession(app, request, reply);
  const policy = { idleDays: ctx.env.SESSION_IDLE_DAYS, absoluteDays: ctx.env.SESSION_ABSOLUTE_DAYS };
  setSessionCookie(app, reply, await createSession(ctx.db, userId, policy, ctx.now(), sessionOrigin(request), proof));
}
