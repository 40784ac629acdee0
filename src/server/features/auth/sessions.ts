import { createHash, randomBytes } from "node:crypto";
import { eq, getTableColumns, lte, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { RowStatement } from "../../db/prepared.js";
import { sessions, users } from "../../db/schema/users.js";

// Sessions live in the database so any instance can serve any request. The cookie holds a random
// 256-bit token; only its SHA-256 is stored.

export type UserRow = typeof users.$inferSelect;
export interface SessionUser extends Omit<UserRow, "passwordHash" | "oidcSubject"> {
  sessionId: string;
  /** How this session was proven, and when the password or a passkey last was (docs/decisions/049-second-factors.md, 050). */
  firstFactor: string | null;
  secondFactor: string | null;
  provenAt: Date | null;
}

export interface SessionPolicy {
  idleDays: number;
  absoluteDays: number;
}

const DAY_MS = 86_400_000;
/** Extending the idle expiry on every request would write on every read; once an hour is enough. */
const TOUCH_INTERVAL_MS = 3_600_000;

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Where a session was opened from, for the account's active sessions list (docs/decisions/021-account-settings-deletion-and-export.md). */
export interface SessionOrigin {
  userAgent?: string | undefined;
  ip?: string | undefined;
}

/** The request's User-Agent and address, as createSession keeps them. */
export function sessionOrigin(request: { headers: Record<string, string | string[] | undefined>; ip: string }): SessionOrigin {
  const agent = request.headers["user-agent"];
  return { userAgent: typeof agent === "string" ? agent : undefined, ip: request.ip };
}

/** How a sign-in was proven: the first step, and the second factor when one was given. */
export interface SessionProof {
  firstFactor: "password" | "passkey" | "oidc" | "email_link";
  secondFactor?: "totp" | "passkey" | "recovery_code" | null;
}

export async function createSession(
  db: Db,
  userId: string,
  policy: SessionPolicy,
  now: Date,
  origin: SessionOrigin = {},
  proof?: SessionProof,
): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await db.insert(sessions).values({
    tokenHash: hashToken(token),
    userId,
    userAgent: origin.userAgent?.slice(0, 512) ?? null,
    createdIp: origin.ip?.slice(0, 64) ?? null,
    firstFactor: proof?.firstFactor ?? null,
    secondFactor: proof?.secondFactor ?? null,
    // Signing in is a fresh proof: a sensitive change right after it asks nothing more (decision 050).
    provenAt: proof ? now : null,
    createdAt: now,
    lastSeenAt: now,
    idleExpiresAt: new Date(now.getTime() + policy.idleDays * DAY_MS),
    absoluteExpiresAt: new Date(now.getTime() + policy.absoluteDays * DAY_MS),
  });
  return token;
}

const { passwordHash: _passwordHash, oidcSubject: _oidcSubject, ...sessionUserColumns } = getTableColumns(users);

/** Every signed-in request asks this first: the user without their secrets, and the session's touch time. */
export const sessionByToken = new RowStatement(
  "session_by_token",
  {
    ...sessionUserColumns,
    sessionId: sessions.id,
    lastSeenAt: sessions.lastSeenAt,
    firstFactor: sessions.firstFactor,
    secondFactor: sessions.secondFactor,
    provenAt: sessions.provenAt,
  },
  sql`from ${sessions} join ${users} on ${users.id} = ${sessions.userId}
      where ${sessions.tokenHash} = ${sql.placeholder("tokenHash")} and ${users.suspendedAt} is null
        and ${sessions.idleExpiresAt} > ${sql.placeholder("now")}::timestamptz and ${sessions.absoluteExpiresAt} > ${sql.placeholder("now")}::timestamptz
      limit 1`,
);

export async function resolveSession(db: Db, token: string, policy: SessionPolicy, now: Date): Promise<SessionUser | null> {
  if (token.length < 20 || token.length > 100) return null;
  const [row] = await sessionByToken.rows(db, { tokenHash: hashToken(token), now: now.toISOString() });
  if (!row) return null;
  const { lastSeenAt, ...user } = row;
  if (now.getTime() - lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    await db
      .update(sessions)
      .set({ lastSeenAt: now, idleExpiresAt: new Date(now.getTime() + policy.idleDays * DAY_MS) })
      .where(eq(sessions.id, user.sessionId));
  }
  return user;
}

export async function deleteSession(db: Db, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token)));
}

export async function deleteExpiredSessions(db: Db, now: Date): Promise<void> {
  // lte: a session is refused at exactly its expiry time, so it can go at that time too.
  await db.delete(sessions).where(or(lte(sessions.idleExpiresAt, now), lte(sessions.absoluteExpiresAt, now)));
}
