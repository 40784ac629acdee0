import { randomBytes } from "node:crypto";
import { and, eq, gt, inArray, isNull } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { AUTH_TOKEN_PURPOSES, authTokens, users } from "../../db/schema/users.js";
import { hashToken } from "./sessions.js";

// One-time links sent by e-mail (docs/decisions/020-account-recovery-and-verification.md): a random
// 256-bit token in the link, only its SHA-256 stored; asking again deletes the earlier tokens of
// that purpose; a use is one conditional UPDATE, so two uses of one token give one success.

export type TokenPurpose = (typeof AUTH_TOKEN_PURPOSES)[number];
export type AuthTokenRow = typeof authTokens.$inferSelect;

const MINUTE_MS = 60_000;
/** How long a link works: a reset link for an hour, an address link for a day (docs/product.md). */
export const TOKEN_TTL_MS: Record<TokenPurpose, number> = {
  password_reset: 60 * MINUTE_MS,
  email_verify: 24 * 60 * MINUTE_MS,
  email_change: 24 * 60 * MINUTE_MS,
};

export async function issueToken(
  db: Db,
  input: {
    userId: string;
    purpose: TokenPurpose;
    now: Date;
    newEmail?: string;
    /** email_verify: the password a registration on a taken, unverified address chose (decision 044). */
    pendingPasswordHash?: string;
    /** email_verify: the SHA-256 of the registering browser's sign-up cookie (decision 044). */
    registrantHash?: string;
    /** email_verify: where the person was going, already checked by safeReturnTo. */
    returnTo?: string | undefined;
  },
): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  // The user's row is locked first, so that two requests at once (forgot-password's work runs
  // after its answer, several at a time) still leave one live link of each purpose.
  await db.select({ id: users.id }).from(users).where(eq(users.id, input.userId)).for("update");
  await db.delete(authTokens).where(and(eq(authTokens.userId, input.userId), eq(authTokens.purpose, input.purpose)));
  await db.insert(authTokens).values({
    userId: input.userId,
    purpose: input.purpose,
    tokenHash: hashToken(token),
    newEmail: input.newEmail ?? null,
    pendingPasswordHash: input.pendingPasswordHash ?? null,
    registrantHash: input.registrantHash ?? null,
    returnTo: input.returnTo ?? null,
    expiresAt: new Date(input.now.getTime() + TOKEN_TTL_MS[input.purpose]),
    createdAt: input.now,
  });
  return token;
}

/** Uses the token once: the row when it was unused and unexpired at `now`, else null (and nothing changes). */
export async function consumeToken(db: Db, token: string, purposes: readonly TokenPurpose[], now: Date): Promise<AuthTokenRow | null> {
  const [row] = await db
    .update(authTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(authTokens.tokenHash, hashToken(token)),
        inArray(authTokens.purpose, [...purposes]),
        isNull(authTokens.usedAt),
        gt(authTokens.expiresAt, now),
      ),
    )
    .returning();
  return row ?? null;
}

/** Whether the token would still work now (unused, unexpired), without using it. */
export async function tokenUsable(db: Db, token: string, purpose: TokenPurpose, now: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: authTokens.id })
    .from(authTokens)
    .where(and(eq(authTokens.tokenHash, hashToken(token)), eq(authTokens.purpose, purpose), isNull(authTokens.usedAt), gt(authTokens.expiresAt, now)))
    .limit(1);
  return row !== undefined;
}

/** Drops the user's outstanding links (all, or of some purposes): after a reset or an address change. */
export async function deleteTokens(db: Db, userId: string, purposes: readonly TokenPurpose[] = AUTH_TOKEN_PURPOSES): Promise<void> {
  await db.delete(authTokens).where(and(eq(authTokens.userId, userId), inArray(authTokens.purpose, [...purposes])));
}
