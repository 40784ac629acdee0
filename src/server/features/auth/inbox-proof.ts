import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { pushSubscriptions } from "../../db/schema/push.js";
import { authChallenges, passkeys, recoveryCodes, totpFactors } from "../../db/schema/security.js";
import { sessions, users } from "../../db/schema/users.js";
import { recordSecurityEvent, type SecurityRequest } from "./security-log.js";
import { deleteTokens } from "./tokens.js";

// Whoever proves the inbox ends up alone on the account (docs/decisions/044-verification-ends-other-holders.md,
// 067-planted-credentials-go-at-verification.md). Until an address is proven, anyone may have registered it
// and signed in; so the first proof (a sign-up link, a reset link, or the identity provider vouching
// for the address) removes every way in that was made before it, and keeps only what the prover holds.

/** What the person proving the inbox holds, and so keeps: everything else made before the proof goes. */
export interface InboxProver {
  /** The password stays: the prover just set it, or chose it when registering (decision 044). */
  keepsPassword: boolean;
  /** The single sign-on link stays: the proof came through it, or the prover signed in through it. */
  keepsSingleSignOn: boolean;
}

/**
 * Marks the account's address verified (ADMIN_EMAILS promotion included). On the first proof it
 * also ends every session and half-done sign-in, removes the authenticator app, passkeys, recovery
 * codes, push devices and outstanding one-time links, and the password or single sign-on link the
 * prover does not hold, and writes what it removed to the security log. Later proofs (a change of
 * address) remove nothing. Call it inside the caller's transaction: the row is locked so two proofs
 * at once remove things once.
 */
export async function proveInbox(
  tx: Db,
  userId: string,
  prover: InboxProver,
  /** `request`: the prover's, for the security log. */
  options: { adminEmails: readonly string[]; now: Date; request: SecurityRequest },
): Promise<void> {
  const [account] = await tx
    .select({ verifiedAt: users.emailVerifiedAt, password: users.passwordHash, singleSignOn: users.oidcSubject })
    .from(users)
    .where(eq(users.id, userId))
    .for("update");
  if (!account) return;
  if (account.verifiedAt === null) {
    await tx.delete(sessions).where(eq(sessions.userId, userId));
    await tx.delete(authChallenges).where(eq(authChallenges.userId, userId));
    const removed = {
      authenticatorApp: (await tx.delete(totpFactors).where(eq(totpFactors.userId, userId)).returning({ id: totpFactors.userId })).length,
      passkeys: (await tx.delete(passkeys).where(eq(passkeys.userId, userId)).returning({ id: passkeys.id })).length,
      recoveryCodes: (await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId)).returning({ id: recoveryCodes.id })).length,
      // A device someone else subscribed would go on receiving the owner's notices.
      pushDevices: (await tx.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, userId)).returning({ id: pushSubscriptions.id })).length,
      password: !prover.keepsPassword && account.password !== null ? 1 : 0,
      singleSignOn: !prover.keepsSingleSignOn && account.singleSignOn !== null ? 1 : 0,
    };
    // A link still on its way (an address change to another inbox) would hand the account back.
    await deleteTokens(tx, userId);
    if (removed.password) await tx.update(users).set({ passwordHash: null }).where(eq(users.id, userId));
    if (removed.singleSignOn) await tx.update(users).set({ oidcSubject: null }).where(eq(users.id, userId));
    await recordSecurityEvent(tx, options.request, options.now, { userId, event: "email_verified", result: "success" });
    if (Object.values(removed).some((n) => n > 0)) {
      await recordSecurityEvent(tx, options.request, options.now, { userId, event: "removed_at_verification", result: "success", details: removed });
    }
  }
  await markEmailVerified(tx, userId, options.adminEmails, options.now);
}

/**
 * Marks the address verified (the first time only) and, when ADMIN_EMAILS lists it, makes the
 * account an admin in the same statement: a fresh deployment gets its first admin by signing up
 * and opening the link, without a restart (docs/decisions/003-sessions-and-sign-in.md, 020).
 */
async function markEmailVerified(db: Db, userId: string, adminEmails: readonly string[], now: Date): Promise<void> {
  const listed = adminEmails.length > 0 ? sql`${users.email} in (${sql.join(adminEmails.map((e) => sql`${e}`), sql`, `)})` : sql`false`;
  await db
    .update(users)
    .set({
      emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${now.toISOString()}::timestamptz)`,
      role: sql`case when ${listed} then 'admin'::user_role else ${users.role} end`,
      updatedAt: now,
    })
    .where(eq(users.id, userId));
}
