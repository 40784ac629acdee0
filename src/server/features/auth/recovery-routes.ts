import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { and, eq, ne } from "drizzle-orm";
import {
  changeEmailBodySchema,
  forgotPasswordBodySchema,
  resetLinkCheckBodySchema,
  messageResponseSchema,
  resetPasswordBodySchema,
  RESET_LINK_INVALID_MESSAGE,
  userSchema,
  verifiedEmailResponseSchema,
  verifyEmailBodySchema,
  VERIFY_CHOOSE_PASSWORD_MESSAGE,
  VERIFY_LINK_INVALID_MESSAGE,
} from "../../../shared/auth.js";
import { errorResponseSchema, okResponseSchema } from "../../../shared/common.js";
import { safeReturnTo } from "../../../shared/return-to.js";
import type { Db } from "../../db/client.js";
import { sessions, users } from "../../db/schema/users.js";
import { badRequest, conflict } from "../../http-errors.js";
import { secondFactorNeededSchema, type SecondFactorNeeded } from "../../../shared/security.js";
import { clearSession, requireUser } from "../../plugins/auth.js";
import { rateLimit } from "../../plugins/rate-limit.js";
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
import { findUserByEmail, toUserView } from "./repository.js";
import { openSession, secondFactorMethods, startChallenge } from "./factors.js";
import { recordSecurityEvent } from "./security-log.js";
import type { UserRow } from "./sessions.js";
import { signUpCookieHash } from "./sign-up-proof.js";
import { consumeToken, deleteTokens, issueToken, markEmailVerified, tokenUsable, type AuthTokenRow } from "./tokens.js";

// Forgot/reset password, e-mail verification and change of e-mail: everything that works through a
// one-time link sent by e-mail (docs/product.md, "Accounts: recovery and verification";
// docs/decisions/020-account-recovery-and-verification.md).

const FORGOT_MESSAGE = "If an account exists for that address, we sent it a link to choose a new password. It works for 60 minutes.";

function emailKey(request: FastifyRequest): string | null {
  const body = request.body as { email?: unknown } | undefined;
  return typeof body?.email === "string" ? body.email.trim().toLowerCase().slice(0, 254) : null;
}

/** A unique violation anywhere in the cause chain (drizzle wraps the driver's error). */
function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth += 1) {
    if ((current as { code?: unknown }).code === "23505") return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

const recoveryRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const publicUrl = ctx.env.PUBLIC_URL;
  const window = 15 * 60_000;
  const perIp = (name: string, max: number) => ({ name: `${name}:ip`, max, windowMs: window, key: (r: FastifyRequest) => r.ip });
  const perUser = (name: string, max: number, windowMs: number) => ({
    name: `${name}:user`,
    max,
    windowMs,
    key: (r: FastifyRequest) => r.user?.id ?? r.ip,
  });

  /**
   * Signs the person in on this device, as login does; an account with a second factor is asked for
   * it next, so an e-mailed link alone never opens it (a recovery code does: decision 049). Answers
   * what the 202 says then, or null once signed in.
   */
  async function signIn(request: FastifyRequest, reply: FastifyReply, userId: string): Promise<SecondFactorNeeded | null> {
    const methods = await secondFactorMethods(ctx.db, userId);
    if (methods.length > 0) {
      await clearSession(app, request, reply);
      await startChallenge(app, reply, { purpose: "second_factor", userId, firstFactor: "email_link" });
      return { message: "The link worked. Now confirm it is you with your second factor or a recovery code.", secondFactor: { methods } };
    }
    await openSession(app, request, reply, userId, { firstFactor: "email_link" });
    await recordSecurityEvent(ctx.db, request, ctx.now(), { userId, event: "sign_in", result: "success", details: { firstFactor: "email_link" } });
    return null;
  }

  async function userById(id: string): Promise<UserRow> {
    const [row] = await ctx.db.select().from(users).where(eq(users.id, id)).limit(1);
    if (!row) throw badRequest(VERIFY_LINK_INVALID_MESSAGE);
    return row;
  }

  app.post(
    "/api/auth/forgot-password",
    {
      config: { auth: "public" },
      // Per IP and per (IP, address), as sign-in counts (decision 022): requests for an address
      // from an attacker's network never use up the owner's, who asks from theirs.
      preHandler: rateLimit(ctx.db, ctx.now, perIp("forgot-password", 20), {
        name: "forgot-password:ip-email",
        max: 5,
        windowMs: window,
        key: (r) => {
          const email = emailKey(r);
          return email === null ? null : `${r.ip}:${email}`;
        },
      }),
      schema: {
        tags: ["auth"],
        body: forgotPasswordBodySchema,
        response: { 202: messageResponseSchema, 400: errorResponseSchema, 429: errorResponseSchema },
      },
    },
    async (request, reply) => {
      const { email } = request.body;
      // The same answer, sent before the address is even looked up, so neither the words nor the
      // time to answer tell who has an account (decision 020).
      await reply.code(202).send({ message: FORGOT_MESSAGE });
      ctx.afterAnswer.run(reply, "forgot-password", async () => {
        const user = await findUserByEmail(ctx.db, email);
        if (!user) return;
        await ctx.db.transaction(async (tx) => {
          // An account that signs in only through single sign-on has no password here: it is told
          // how it signs in instead of getting a link that would add one (decision 020).
          const mail = user.passwordHash
            ? passwordResetMail(publicUrl, await issueToken(tx, { userId: user.id, purpose: "password_reset", now: ctx.now() }))
            : singleSignOnResetMail(publicUrl);
          await ctx.mailer.queue(tx, { ...mail, to: user.email });
        });
      });
      return reply;
    },
  );

  // The reset page asks first, so a used or expired link says so before a password is typed
  // (docs/product.md, Accounts: recovery and verification). It reads the token and uses nothing.
  app.post(
    "/api/auth/reset-password/check",
    {
      config: { auth: "public" },
      preHandler: rateLimit(ctx.db, ctx.now, perIp("reset-password-check", 30)),
      schema: {
        tags: ["auth"],
        body: resetLinkCheckBodySchema,
        response: { 200: okResponseSchema, 400: errorResponseSchema, 429: errorResponseSchema },
      },
    },
    async (request) => {
      if (!(await tokenUsable(ctx.db, request.body.token, "password_reset", ctx.now()))) throw badRequest(RESET_LINK_INVALID_MESSAGE);
      return { ok: true as const };
    },
  );

  app.post(
    "/api/auth/reset-password",
    {
      config: { auth: "public" },
      preHandler: rateLimit(ctx.db, ctx.now, perIp("reset-password", 30)),
      schema: {
        tags: ["auth"],
        body: resetPasswordBodySchema,
        response: { 200: userSchema, 202: secondFactorNeededSchema, 400: errorResponseSchema, 429: errorResponseSchema },
      },
    },
    async (request, reply) => {
      const passwordHash = await hashPassword(request.body.password);
      const now = ctx.now();
      const userId = await ctx.db.transaction(async (tx) => {
        const token = await consumeToken(tx, request.body.token, ["password_reset"], now);
        if (!token) return null;
        const [owner] = await tx
          .select({ email: users.email, firstName: users.firstName, lastName: users.lastName })
          .from(users)
          .where(eq(users.id, token.userId));
        // A refused password throws here, so the transaction rolls back and the link still works.
        if (owner) await assertPasswordAccepted(request.body.password, owner);
        await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, token.userId));
        // The link reached the inbox, so the address is proven as well.
        await markEmailVerified(tx, token.userId, ctx.env.ADMIN_EMAILS, now);
        await deleteTokens(tx, token.userId, ["password_reset"]);
        // Every session ends; the sessions_notify_ended trigger closes their sockets (drizzle/0002).
        await tx.delete(sessions).where(eq(sessions.userId, token.userId));
        if (owner) await ctx.mailer.queue(tx, { ...passwordChangedMail(publicUrl), to: owner.email });
        return token.userId;
      });
      if (!userId) throw badRequest(RESET_LINK_INVALID_MESSAGE);
      const secondStep = await signIn(request, reply, userId);
      if (secondStep) return reply.code(202).send(secondStep);
      return toUserView(await userById(userId));
    },
  );

  app.post(
    "/api/auth/verify-email",
    {
      config: { auth: "public" },
      preHandler: rateLimit(ctx.db, ctx.now, perIp("verify-email", 30)),
      schema: {
        tags: ["auth"],
        body: verifyEmailBodySchema,
        response: { 200: verifiedEmailResponseSchema, 202: secondFactorNeededSchema, 400: errorResponseSchema, 409: errorResponseSchema, 429: errorResponseSchema },
      },
    },
    async (request, reply) => {
      const now = ctx.now();
      const { token: link, password: chosen } = request.body;
      const chosenHash = chosen === undefined ? null : await hashPassword(chosen);
      const verified = await ctx.db.transaction(async (tx) => {
        // One route for both links that prove an address: the sign-up one and the new-address one.
        const token = await consumeToken(tx, link, ["email_verify", "email_change"], now);
        if (!token) return null;
        const [account] = await tx.select().from(users).where(eq(users.id, token.userId)).for("update");
        if (!account) return null;
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
        } else {
          await settleSignUpPassword(request, tx, account, token, chosen, chosenHash, now);
        }
        // Whoever proves the inbox ends up the only one holding the account: every session made
        // before the proof ends, and the follower is signed in afresh below (decision 044).
        await tx.delete(sessions).where(eq(sessions.userId, token.userId));
        await markEmailVerified(tx, token.userId, ctx.env.ADMIN_EMAILS, now);
        // A new address leads back to its settings; a sign-up link to where the person was going.
        const returnTo = token.purpose === "email_change" ? "/settings/email" : safeReturnTo(token.returnTo ?? "/dashboard");
        return { userId: token.userId, returnTo };
      });
      if (!verified) throw badRequest(VERIFY_LINK_INVALID_MESSAGE);
      const secondStep = await signIn(request, reply, verified.userId);
      if (secondStep) return reply.code(202).send(secondStep);
      return { ...toUserView(await userById(verified.userId)), returnTo: verified.returnTo };
    },
  );

  /**
   * The password a sign-up link leaves on the account: only one the follower chose
   * (docs/decisions/044-verification-ends-other-holders.md). Opened in the browser that registered
   * (its sign-up cookie) or signed in as the account, the registration's password stands (the
   * pending one of a registration on a taken address first); otherwise the follower must choose
   * one here, and a 409 rolls the link back unused so the page can ask.
   */
  async function settleSignUpPassword(
    request: FastifyRequest,
    tx: Db,
    account: UserRow,
    token: AuthTokenRow,
    chosen: string | undefined,
    chosenHash: string | null,
    now: Date,
  ): Promise<void> {
    if (chosen !== undefined && chosenHash !== null) {
      await assertPasswordAccepted(chosen, account);
      await tx.update(users).set({ passwordHash: chosenHash, updatedAt: now }).where(eq(users.id, account.id));
      return;
    }
    const registrant = token.registrantHash !== null && token.registrantHash === signUpCookieHash(app, request);
    const signedInAsAccount = request.user?.id === account.id;
    // An account with no password to take over (single sign-on) has nothing for a stranger to keep.
    const nothingToKeep = account.passwordHash === null && token.pendingPasswordHash === null;
    if (!registrant && !signedInAsAccount && !nothingToKeep) throw conflict(VERIFY_CHOOSE_PASSWORD_MESSAGE);
    if (token.pendingPasswordHash !== null) {
      await tx.update(users).set({ passwordHash: token.pendingPasswordHash, updatedAt: now }).where(eq(users.id, account.id));
    }
  }

  app.post(
    "/api/auth/resend-verification",
    {
      config: { auth: "user" },
      preHandler: rateLimit(ctx.db, ctx.now, {
        ...perUser("resend-verification", 3, window),
        message: (wait) => `We already sent you several links. Check your inbox and spam folder, or ask again in ${wait}.`,
      }),
      schema: {
        tags: ["auth"],
        response: { 200: messageResponseSchema, 202: messageResponseSchema, 401: errorResponseSchema, 429: errorResponseSchema },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      if (user.emailVerifiedAt) return reply.code(200).send({ message: "Your e-mail address is already verified." });
      await ctx.db.transaction(async (tx) => {
        const token = await issueToken(tx, { userId: user.id, purpose: "email_verify", now: ctx.now() });
        await ctx.mailer.queue(tx, { ...verifyEmailMail(publicUrl, token), to: user.email });
      });
      return reply.code(202).send({ message: `We sent a new link to ${user.email}. It works for 24 hours.` });
    },
  );

  app.post(
    "/api/auth/change-email",
    {
      config: { auth: "user" },
      preHandler: rateLimit(ctx.db, ctx.now, perUser("change-email", 5, 60 * 60_000)),
      schema: {
        tags: ["auth"],
        body: changeEmailBodySchema,
        response: { 202: messageResponseSchema, 400: errorResponseSchema, 401: errorResponseSchema, 429: errorResponseSchema },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { newEmail, password } = request.body;
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
      await reply.code(202).send({
        message: `We sent a link to ${newEmail}. Open it within 24 hours to finish the change; until then you keep signing in with ${user.email}.`,
      });
      // After the answer: an address that belongs to another account gets nothing, and neither the
      // answer nor its timing says so, so this form does not tell who has an account either.
      ctx.afterAnswer.run(reply, "change-email", async () => {
        if (await findUserByEmail(ctx.db, newEmail)) return;
        await ctx.db.transaction(async (tx) => {
          const token = await issueToken(tx, { userId: user.id, purpose: "email_change", now: ctx.now(), newEmail });
          await ctx.mailer.queue(tx, { ...changeEmailMail(publicUrl, token), to: newEmail });
          await ctx.mailer.queue(tx, { ...emailChangingNoticeMail(publicUrl, newEmail), to: user.email });
        });
      });
      return reply;
    },
  );
};

export default recoveryRoutes;
