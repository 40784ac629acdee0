import { and, eq, ne } from "drizzle-orm";
import { RESET_LINK_INVALID_MESSAGE, VERIFY_CHOOSE_PASSWORD_MESSAGE, VERIFY_LINK_INVALID_MESSAGE } from "../../../shared/auth.js";
import { safeReturnTo } from "../../../shared/return-to.js";
import type { AppContext } from "../../context.js";
import { isUniqueViolation, type Db } from "../../db/client.js";
import { sessions, users } from "../../db/schema/users.js";
import { badRequest, conflict } from "../../http-errors.js";
import {
  changeEmailMail,
  emailChangingNoticeMail,
  passwordChangedMail,
  passwordResetMail,
  singleSignOnResetMail,
  verifyEmailMail,
} from "./account-mail.js";
import { assertPasswordAccepted } from "./password-policy.js";
import { hashPassword, verifyPassword } from "./passwords.js";
import { findUserByEmail } from "./repository.js";
import type { SessionUser, UserRow } from "./sessions.js";
import { proveInbox } from "./inbox-proof.js";
import { recordSecurityEvent, type SecurityRequest } from "./security-log.js";
import { consumeToken, deleteTokens, issueToken, type AuthTokenRow } from "./tokens.js";

// The use cases behind the one-time links sent by e-mail: forgot/reset password, e-mail
// verification and change of e-mail (docs/product.md, "Accounts: recovery and verification";
// docs/decisions/020-account-recovery-and-verification.md). recovery-routes.ts answers the
// requests and signs the person in; each change here is one transaction.

type Ctx = Pick<AppContext, "db" | "env" | "mailer" | "now">;

/** Queues a reset link to `email`'s account, if there is one; the caller has already answered. */
export async function sendPasswordResetLink(ctx: Ctx, email: string): Promise<void> {
  const user = await findUserByEmail(ctx.db, email);
  if (!user) return;
  await ctx.db.transaction(async (tx) => {
    // An account that signs in only through single sign-on has no password here: it is told
    // how it signs in instead of getting a link that would add one (decision 020).
    const mail = user.passwordHash
      ? passwordResetMail(ctx.env.PUBLIC_URL, await issueToken(tx, { userId: user.id, purpose: "password_reset", now: ctx.now() }))
      : singleSignOnResetMail(ctx.env.PUBLIC_URL);
    await ctx.mailer.queue(tx, { ...mail, to: user.email });
  });
}

/** Sets the password a reset link leads to and ends every session; returns whose account it was. */
export async function resetPassword(ctx: Ctx, link: string, password: string, request: SecurityRequest): Promise<string> {
  const passwordHash = await hashPassword(password);
  const now = ctx.now();
  const userId = await ctx.db.transaction(async (tx) => {
    const token = await consumeToken(tx, link, ["password_reset"], now);
    if (!token) return null;
    const [owner] = await tx
      .select({ email: users.email, firstName: users.firstName, lastName: users.lastName })
      .from(users)
      .where(eq(users.id, token.userId));
    // A refused password throws here, so the transaction rolls back and the link still works.
    if (owner) await assertPasswordAccepted(password, owner);
    await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, token.userId));
    // The link reached the inbox, so the address is proven as well: a first proof leaves the
    // account with only this password (decision 067).
    await proveInbox(tx, token.userId, { keepsPassword: true, keepsSingleSignOn: false }, { adminEmails: ctx.env.ADMIN_EMAILS, now, request });
    await deleteTokens(tx, token.userId, ["password_reset"]);
    await recordSecurityEvent(tx, request, now, { userId: token.userId, event: "password_reset", result: "success" });
    // Every session ends; the sessions_notify_ended trigger closes their sockets (drizzle/0002).
    await tx.delete(sessions).where(eq(sessions.userId, token.userId));
    if (owner) await ctx.mailer.queue(tx, { ...passwordChangedMail(ctx.env.PUBLIC_URL), to: owner.email });
    return token.userId;
  });
  if (!userId) throw badRequest(RESET_LINK_INVALID_MESSAGE);
  return userId;
}

/** Who opened a sign-up link: the browser that registered (its sign-up cookie's hash), and who is signed in, and how. */
export interface LinkOpener {
  request: SecurityRequest;
  signUpCookieHash: string | null;
  userId: string | null;
  /** How the opener's session was proven ("password", "oidc"…), when signed in. */
  firstFactor: string | null;
}

/**
 * Proves an address with a sign-up or new-address link and ends every session made before the
 * proof (decision 044); returns the account and where the page goes next.
 */
export async function verifyEmailLink(
  ctx: Ctx,
  link: string,
  chosen: string | undefined,
  opener: LinkOpener,
): Promise<{ userId: string; returnTo: string }> {
  const now = ctx.now();
  const chosenHash = chosen === undefined ? null : await hashPassword(chosen);
  const verified = await ctx.db.transaction(async (tx) => {
    // One route for both links that prove an address: the sign-up one and the new-address one.
    const token = await consumeToken(tx, link, ["email_verify", "email_change"], now);
    if (!token) return null;
    const [account] = await tx.select().from(users).where(eq(users.id, token.userId)).for("update");
    if (!account) return null;
    // A single sign-on link made before the address was proven stays only for a follower signed
    // in through it (decision 067).
    const keepsSingleSignOn = account.emailVerifiedAt !== null || (opener.userId === account.id && opener.firstFactor === "oidc");
    if (token.purpose === "email_change" && token.newEmail) {
      const newEmail = token.newEmail;
      const takenMessage = `${newEmail} belongs to another account now, so your address stays as it was. Choose another address in your settings.`;
      const [taken] = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.email, newEmail), ne(users.id, token.userId)))
        .limit(1);
      if (taken) throw conflict(takenMessage);
      try {
        await tx.update(users).set({ email: newEmail, emailVerifiedAt: now, updatedAt: now }).where(eq(users.id, token.userId));
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(takenMessage);
        throw error;
      }
      // Links sent to the old address (a reset, a verification) must not act on the account any more.
      await deleteTokens(tx, token.userId);
      await recordSecurityEvent(tx, opener.request, now, { userId: token.userId, event: "email_changed", result: "success", details: { from: account.email, to: newEmail } });
    } else {
      await settleSignUpPassword(tx, account, token, { chosen, chosenHash, opener, keepsSingleSignOn }, now);
    }
    // Whoever proves the inbox ends up the only one holding the account: every session made
    // before the proof ends, and the follower is signed in afresh by the route (decision 044); a
    // first proof also removes every factor and link made before it (decision 067).
    await tx.delete(sessions).where(eq(sessions.userId, token.userId));
    await proveInbox(tx, token.userId, { keepsPassword: true, keepsSingleSignOn }, { adminEmails: ctx.env.ADMIN_EMAILS, now, request: opener.request });
    // A new address leads back to its settings; a sign-up link to where the person was going.
    const returnTo = token.purpose === "email_change" ? "/settings/email" : safeReturnTo(token.returnTo ?? "/dashboard");
    return { userId: token.userId, returnTo };
  });
  if (!verified) throw badRequest(VERIFY_LINK_INVALID_MESSAGE);
  return verified;
}

/**
 * The password a sign-up link leaves on the account: only one the follower chose
 * (docs/decisions/044-verification-ends-other-holders.md). Opened in the browser that registered
 * (its sign-up cookie) or signed in as the account, the registration's password stands (the
 * pending one of a registration on a taken address first); otherwise the follower must choose
 * one here, and a 409 rolls the link back unused so the page can ask. That holds for an account
 * without a password too: its single sign-on link goes with the proof (decision 067), so the
 * follower would otherwise be left with no way in.
 */
async function settleSignUpPassword(
  tx: Db,
  account: UserRow,
  token: AuthTokenRow,
  follower: { chosen: string | undefined; chosenHash: string | null; opener: LinkOpener; keepsSingleSignOn: boolean },
  now: Date,
): Promise<void> {
  const { chosen, chosenHash, opener } = follower;
  if (chosen !== undefined && chosenHash !== null) {
    await assertPasswordAccepted(chosen, account);
    await tx.update(users).set({ passwordHash: chosenHash, updatedAt: now }).where(eq(users.id, account.id));
    return;
  }
  const registrant = token.registrantHash !== null && token.registrantHash === opener.signUpCookieHash;
  const signedInAsAccount = opener.userId === account.id;
  const noWayIn = account.passwordHash === null && token.pendingPasswordHash === null && !follower.keepsSingleSignOn;
  if ((!registrant && !signedInAsAccount) || noWayIn) throw conflict(VERIFY_CHOOSE_PASSWORD_MESSAGE);
  if (token.pendingPasswordHash !== null) {
    await tx.update(users).set({ passwordHash: token.pendingPasswordHash, updatedAt: now }).where(eq(users.id, account.id));
  }
}

export async function sendVerificationLink(ctx: Ctx, user: SessionUser): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const token = await issueToken(tx, { userId: user.id, purpose: "email_verify", now: ctx.now() });
    await ctx.mailer.queue(tx, { ...verifyEmailMail(ctx.env.PUBLIC_URL, token), to: user.email });
  });
}

/** Refuses a change of e-mail the signed-in person may not make, with what to do instead. */
export async function assertEmailChangeAllowed(ctx: Ctx, user: SessionUser, newEmail: string, password: string | undefined): Promise<void> {
  const [stored] = await ctx.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, user.id));
  // Local accounts prove it is them with the password; a stolen session alone cannot move the
  // account (and its password resets) to another inbox. Single sign-on accounts have none.
  if (stored?.passwordHash) {
    if (!password) throw badRequest("Type your current password to change your e-mail address.");
    if (!(await verifyPassword(password, stored.passwordHash))) {
      throw badRequest("That password is not right. Type the password you sign in with, or reset it from the sign-in page.");
    }
  }
  if (newEmail === user.email) throw badRequest(`${newEmail} is already your e-mail address. Type the new one.`);
}

/**
 * The link to the new address and a notice to the old one; an address that belongs to another
 * account gets nothing. The caller has already answered, so neither the answer nor its timing
 * tells who has an account.
 */
export async function sendEmailChangeLinks(ctx: Ctx, user: SessionUser, newEmail: string): Promise<void> {
  if (await findUserByEmail(ctx.db, newEmail)) return;
  await ctx.db.transaction(async (tx) => {
    const token = await issueToken(tx, { userId: user.id, purpose: "email_change", now: ctx.now(), newEmail });
    await ctx.mailer.queue(tx, { ...changeEmailMail(ctx.env.PUBLIC_URL, token), to: newEmail });
    await ctx.mailer.queue(tx, { ...emailChangingNoticeMail(ctx.env.PUBLIC_URL, newEmail), to: user.email });
  });
}
