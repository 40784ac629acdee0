import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { eq } from "drizzle-orm";
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
  VERIFY_LINK_INVALID_MESSAGE,
} from "../../../shared/auth.js";
import { okResponseSchema } from "../../../shared/common.js";
import { users } from "../../db/schema/users.js";
import { badRequest, errorResponses } from "../../http-errors.js";
import { secondFactorNeededSchema, type SecondFactorNeeded } from "../../../shared/security.js";
import { clearSession, requireUser } from "../../plugins/auth.js";
import { rateLimit } from "../../plugins/rate-limit.js";
import {
  assertEmailChangeAllowed,
  resetPassword,
  sendEmailChangeLinks,
  sendPasswordResetLink,
  sendVerificationLink,
  verifyEmailLink,
} from "./recovery.js";
import { toUserView } from "./repository.js";
import { openSession, secondFactorMethods, startChallenge } from "./factors.js";
import { recordSecurityEvent } from "./security-log.js";
import type { UserRow } from "./sessions.js";
import { signUpCookieHash } from "./sign-up-proof.js";
import { tokenUsable } from "./tokens.js";

// Forgot/reset password, e-mail verification and change of e-mail: everything that works through a
// one-time link sent by e-mail (docs/product.md, "Accounts: recovery and verification";
// docs/decisions/020-account-recovery-and-verification.md). The use cases are in recovery.ts;
// these handlers answer and sign the person in.

const FORGOT_MESSAGE = "If an account exists for that address, we sent it a link to choose a new password. It works for 60 minutes.";

function emailKey(request: FastifyRequest): string | null {
  const body = request.body as { email?: unknown } | undefined;
  return typeof body?.email === "string" ? body.email.trim().toLowerCase().slice(0, 254) : null;
}

const recoveryRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
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
        operationId: "requestPasswordReset",
        summary: "Sends a password reset link to an e-mail address",
        body: forgotPasswordBodySchema,
        response: { 202: messageResponseSchema, ...errorResponses(400, 429) },
      },
    },
    async (request, reply) => {
      const { email } = request.body;
      // The same answer, sent before the address is even looked up, so neither the words nor the
      // time to answer tell who has an account (decision 020).
      await reply.code(202).send({ message: FORGOT_MESSAGE });
      ctx.afterAnswer.run(reply, "forgot-password", () => sendPasswordResetLink(ctx, email));
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
        operationId: "checkPasswordResetToken",
        summary: "Checks that a password reset link is still valid",
        body: resetLinkCheckBodySchema,
        response: { 200: okResponseSchema, ...errorResponses(400, 429) },
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
        operationId: "resetPassword",
        summary: "Sets a new password with a reset link",
        body: resetPasswordBodySchema,
        response: { 200: userSchema, 202: secondFactorNeededSchema, ...errorResponses(400, 429) },
      },
    },
    async (request, reply) => {
      const userId = await resetPassword(ctx, request.body.token, request.body.password, request);
      const secondStep = await signIn(request, reply, userId);
      if (secondStep) return reply.code(202).send(secondStep);
      return toUserView(await userById(userId), { firstFactor: "email_link" });
    },
  );

  app.post(
    "/api/auth/verify-email",
    {
      config: { auth: "public" },
      preHandler: rateLimit(ctx.db, ctx.now, perIp("verify-email", 30)),
      schema: {
        tags: ["auth"],
        operationId: "verifyEmail",
        summary: "Verifies an e-mail address with its link",
        body: verifyEmailBodySchema,
        response: { 200: verifiedEmailResponseSchema, 202: secondFactorNeededSchema, ...errorResponses(400, 409, 429) },
      },
    },
    async (request, reply) => {
      const opener = { request, signUpCookieHash: signUpCookieHash(app, request), userId: request.user?.id ?? null, firstFactor: request.user?.firstFactor ?? null };
      const verified = await verifyEmailLink(ctx, request.body.token, request.body.password, opener);
      const secondStep = await signIn(request, reply, verified.userId);
      if (secondStep) return reply.code(202).send(secondStep);
      return { ...toUserView(await userById(verified.userId), { firstFactor: "email_link" }), returnTo: verified.returnTo };
    },
  );

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
        operationId: "resendVerification",
        summary: "Sends the verification e-mail again",
        response: { 200: messageResponseSchema, 202: messageResponseSchema, ...errorResponses(401, 429) },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      if (user.emailVerifiedAt) return reply.code(200).send({ message: "Your e-mail address is already verified." });
      await sendVerificationLink(ctx, user);
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
        operationId: "changeEmail",
        summary: "Starts a change of the signed-in person's e-mail address",
        body: changeEmailBodySchema,
        response: { 202: messageResponseSchema, ...errorResponses(400, 401, 429) },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { newEmail, password } = request.body;
      await assertEmailChangeAllowed(ctx, user, newEmail, password);
      await reply.code(202).send({
        message: `We sent a link to ${newEmail}. Open it within 24 hours to finish the change; until then you keep signing in with ${user.email}.`,
      });
      ctx.afterAnswer.run(reply, "change-email", async () => {
        await recordSecurityEvent(ctx.db, request, ctx.now(), { userId: user.id, event: "email_change_requested", result: "success", details: { to: newEmail } });
        await sendEmailChangeLinks(ctx, user, newEmail);
      });
      return reply;
    },
  );
};

export default recoveryRoutes;
