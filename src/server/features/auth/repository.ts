import { and, eq, inArray, isNotNull, not } from "drizzle-orm";
import type { User } from "../../../shared/auth.js";
import type { Db } from "../../db/client.js";
import { users } from "../../db/schema/users.js";
import { adminAccountSql, adminNeedsSecondFactor, isAdminSession, type Proof } from "../../policy.js";
import type { SessionUser, UserRow } from "./sessions.js";

// The users table: look-ups for sign-in, the start-up admin promotion and the API's user answer.

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return row ?? null;
}

/**
 * ADMIN_EMAILS: accounts with those e-mails, once verified, become admins when the server starts, and the moment
 * such an address is verified (inbox-proof.ts proveInbox). Never at sign-up: only opening the
 * link proves the address is theirs (docs/decisions/003-sessions-and-sign-in.md, 020).
 */
export async function promoteAdminEmails(db: Db, emails: readonly string[]): Promise<number> {
  if (emails.length === 0) return 0;
  const promoted = await db
    .update(users)
    .set({ role: "admin", updatedAt: new Date() })
    .where(and(inArray(users.email, [...emails]), isNotNull(users.emailVerifiedAt), not(adminAccountSql)))
    .returning({ id: users.id });
  return promoted.length;
}

/**
 * The API's user answer: both spellings of the name (the contract's readers use both), never the
 * password hash; admin powers as the policy gives them to a session of this `proof` (src/server/policy.ts).
 */
export function toUserView(user: Pick<SessionUser, "id" | "email" | "firstName" | "lastName" | "profileImageUrl" | "role" | "emailVerifiedAt" | "createdAt">, proof: Proof): User {
  const session = { id: user.id, role: user.role, ...proof };
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    first_name: user.firstName,
    last_name: user.lastName,
    name: `${user.firstName} ${user.lastName}`.trim(),
    profileImageUrl: user.profileImageUrl,
    role: user.role,
    isAdmin: isAdminSession(session),
    adminNeedsSecondFactor: adminNeedsSecondFactor(session),
    emailVerified: user.emailVerifiedAt !== null,
    createdAt: user.createdAt.toISOString(),
  };
}
