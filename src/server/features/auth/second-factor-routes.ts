import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { and, eq, isNull } from "drizzle-orm";
import { okResponseSchema, uuidParamSchema } from "../../../shared/common.js";
import {
  recoveryCodesSchema,
  secondStepBodySchema,
  secondStepResultSchema,
  securityEventListSchema,
  securityOverviewSchema,
  stepUpBodySchema,
  totpConfirmBodySchema,
  totpConfirmedSchema,
  totpSetupSchema,
} from "../../../shared/security.js";
import type { SecondFactorMethod } from "../../../shared/security-rules.js";
import { passkeys, recoveryCodes, totpFactors } from "../../db/schema/security.js";
import { auditLog, sessions, users } from "../../db/schema/users.js";
import { badRequest, conflict, errorResponses, fieldError, notFound, tooManyRequests, unauthorized } from "../../http-errors.js";
import { requireUser } from "../../plugins/auth.js";
import { formatWait, rateLimit } from "../../plugins/rate-limit.js";
import { hasAdminRole } from "../../policy.js";
import { factorsResetMail } from "./account-mail.js";
import { endChallenge, findChallenge, firstFactorOf, hasSecondFactor, openSession, secondFactorMethods } from "./factors.js";
import { verifyPassword } from "./passwords.js";
import { recoveryCodesLeft, replaceRecoveryCodes, useRecoveryCode } from "./recovery-codes.js";
import { toUserView } from "./repository.js";
import { listSecurityEvents, recordSecurityEvent } from "./security-log.js";
import { beginSignIn, countCodeGuess } from "./sign-in-throttle.js";
import { newTotpSecret, openTotpSecret, sealTotpSecret, totpSetup, totpStep, useTotpCode } from "./totp.js";

// The second step of sign-in, the authenticator app and recovery codes, step-up with the password,
// the security log, and an admin's reset of someone's factors (docs/product.md, "Account security";
// docs/decisions/049-second-factors.md, 050-step-up-and-security-log.md). Passkeys: passkey-routes.ts.

const errors = errorResponses(400, 401, 403, 404, 409, 429);
export const SIGN_IN_TIMED_OUT = "Your sign-in timed out. Sign in again with your e-mail and password.";
const WRONG_CODE = "That code is not right. Type the code your authenticator app shows now, or one of your recovery codes.";
export const USED_RECOVERY_CODE =
  "That recovery code was already used. Each code works once: type another of your recovery codes, or the code your authenticator app shows now.";

/** The 429 once an account's codes have reached their ceiling: what still signs the owner in, and the advice the situation calls for. */
function codesPausedMessage(methods: readonly SecondFactorMethod[], wait: string): string {
  const others = [methods.includes("passkey") ? "your passkey" : null, methods.includes("recovery_code") ? "one of your recovery codes" : null].filter((m) => m !== null);
  const now = others.length > 0 ? `Sign in now with ${others.join(" or ")}, or wait ${wait} for the app's codes.` : `Try the app's code again in ${wait}.`;
  return `Too many wrong codes were typed for this account, so authenticator codes are paused. ${now} If that was not you, someone knows your password: change it once you are in.`;
}

const secondFactorRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const user = { auth: "user" as const };
  const sensitive = { auth: "user" as const, freshProof: true };
  // A factor is added only to a proven address: one planted before the owner proves it would
  // outlive them (docs/decisions/067-planted-credentials-go-at-verification.md).
  const adding = { ...sensitive, verifiedEmail: true };
  const perUser = (name: string, max: number) =>
    rateLimit(ctx.db, ctx.now, { name, max, windowMs: 15 * 60_000, key: (r) => requireUser(r).id });

  app.post(
    "/api/auth/second-factor",
    {
      config: { auth: "public" },
      // Throttled inside, as the password is (decision 022): per IP and per (IP, account), so guesses
      // from one address never lock the owner out on another; and authenticator codes per account
      // from every address, past which a passkey or a recovery code still signs in (decision 049).
      schema: {
        operationId: "verifySecondFactor",
        summary: "Finish signing in with an authenticator code or a recovery code",
        tags: ["auth"],
        body: secondStepBodySchema,
        response: { 200: secondStepResultSchema, ...errors },
      },
    },
    async (request, reply) => {
      const challenge = await findChallenge(app, request, ["second_factor"]);
      if (!challenge?.userId) throw unauthorized(SIGN_IN_TIMED_OUT);
      const userId = challenge.userId;
      const attempt = await beginSignIn(ctx, reply, request.ip, `second-factor:${userId}`);
      const now = ctx.now();
      const { code } = request.body;
      let totp = false;
      if (/^\d{6}$/.test(code.replace(/\s/g, ""))) {
        // Codes for this account from every address together have a ceiling; past it only the
        // app's codes wait (decision 049, "Changed").
        const guess = await countCodeGuess(ctx, userId);
        if (guess.waitSeconds !== null) {
          await recordSecurityEvent(ctx.db, request, now, { userId, event: "second_factor", result: "failure", details: { reason: "account_code_ceiling" } });
          reply.header("retry-after", String(guess.waitSeconds));
          throw tooManyRequests(codesPausedMessage(await secondFactorMethods(ctx.db, userId), formatWait(guess.waitSeconds)));
        }
        totp = await useTotpCode(ctx.db, ctx.secrets, userId, code, now);
        if (totp) await guess.accepted();
      }
      const recovery = totp ? null : await useRecoveryCode(ctx.db, userId, code, now);
      const left = typeof recovery === "number" ? recovery : null;
      const method = totp ? "totp" : left !== null ? "recovery_code" : null;
      if (!method) {
        await attempt.failed();
        await recordSecurityEvent(ctx.db, request, now, { userId, event: "second_factor", result: "failure", ...(recovery === "used" ? { details: { reason: "recovery_code_used_before" } } : {}) });
        throw unauthorized(recovery === "used" ? USED_RECOVERY_CODE : WRONG_CODE);
      }
      await attempt.succeeded();
      if (!(await endChallenge(app, reply, challenge.id))) throw unauthorized(SIGN_IN_TIMED_OUT);
      const firstFactor = firstFactorOf(challenge);
      await openSession(app, request, reply, userId, { firstFactor, secondFactor: method });
      await recordSecurityEvent(ctx.db, request, now, { userId, event: "sign_in", result: "success", details: { firstFactor, secondFactor: method } });
      if (left !== null) await recordSecurityEvent(ctx.db, request, now, { userId, event: "recovery_code_used", result: "success", details: { left } });
      const [row] = await ctx.db.select().from(users).where(eq(users.id, userId));
      if (!row) throw unauthorized(SIGN_IN_TIMED_OUT);
      return { ...toUserView(row, { firstFactor, secondFactor: method }), ...(left === null ? {} : { recoveryCodesLeft: left }) };
    },
  );

  app.post(
    "/api/auth/step-up",
    {
      config: user,
      preHandler: perUser("step-up", 10),
      schema: {
        operationId: "stepUpWithPassword",
        summary: "Confirm it is you with your password before a sensitive change",
        tags: ["auth"],
        body: stepUpBodySchema,
        response: { 200: okResponseSchema, ...errors },
      },
    },
    async (request) => {
      const me = requireUser(request);
      const now = ctx.now();
      const [row] = await ctx.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, me.id));
      if (!row?.passwordHash) throw badRequest("Your account has no password. Confirm it is you with a passkey instead.");
      if (!(await verifyPassword(request.body.password, row.passwordHash))) {
        await recordSecurityEvent(ctx.db, request, now, { userId: me.id, event: "step_up", result: "failure", details: { with: "password" } });
        throw fieldError("password", "That password is not right. Type the password you sign in with.");
      }
      await ctx.db.update(sessions).set({ provenAt: now }).where(eq(sessions.id, me.sessionId));
      await recordSecurityEvent(ctx.db, request, now, { userId: me.id, event: "step_up", result: "success", details: { with: "password" } });
      return { ok: true as const };
    },
  );

  app.get(
    "/api/account/security",
    {
      config: user,
      schema: { operationId: "getAccountSecurity", summary: "The account's second factors", tags: ["auth"], response: { 200: securityOverviewSchema, ...errors } },
    },
    async (request) => {
      const me = requireUser(request);
      const [totp] = await ctx.db.select().from(totpFactors).where(eq(totpFactors.userId, me.id));
      const keys = await ctx.db.select().from(passkeys).where(eq(passkeys.userId, me.id)).orderBy(passkeys.createdAt);
      return {
        totp: totp?.confirmedAt != null,
        passkeys: keys.map((k) => ({ id: k.id, name: k.name, createdAt: k.createdAt.toISOString(), lastUsedAt: k.lastUsedAt?.toISOString() ?? null })),
        recoveryCodesLeft: await recoveryCodesLeft(ctx.db, me.id),
        required: hasAdminRole(me),
      };
    },
  );

  app.get(
    "/api/account/security/events",
    {
      config: user,
      schema: { operationId: "listSecurityEvents", summary: "Recent security activity of the account", tags: ["auth"], response: { 200: securityEventListSchema, ...errors } },
    },
    async (request) => listSecurityEvents(ctx.db, requireUser(request).id),
  );

  app.post(
    "/api/account/security/totp",
    {
      config: adding,
      schema: { operationId: "startTotpEnrolment", summary: "Start adding an authenticator app", tags: ["auth"], response: { 200: totpSetupSchema, ...errors } },
    },
    async (request) => {
      const me = requireUser(request);
      const [existing] = await ctx.db.select().from(totpFactors).where(eq(totpFactors.userId, me.id));
      if (existing?.confirmedAt) throw conflict("You already have an authenticator app. Remove it first to add another.");
      const secret = newTotpSecret();
      const stored = sealTotpSecret(ctx.secrets, me.id, secret);
      await ctx.db
        .insert(totpFactors)
        .values({ userId: me.id, secret: stored, createdAt: ctx.now() })
        .onConflictDoUpdate({ target: totpFactors.userId, set: { secret: stored, createdAt: ctx.now(), lastUsedStep: null } });
      return totpSetup(me.email, secret);
    },
  );

  app.post(
    "/api/account/security/totp/confirm",
    {
      config: adding,
      preHandler: perUser("totp-confirm", 10),
      schema: {
        operationId: "confirmTotpEnrolment",
        summary: "Confirm the authenticator app with a code it shows",
        tags: ["auth"],
        body: totpConfirmBodySchema,
        response: { 200: totpConfirmedSchema, ...errors },
      },
    },
    async (request) => {
      const me = requireUser(request);
      const now = ctx.now();
      const [pending] = await ctx.db.select().from(totpFactors).where(and(eq(totpFactors.userId, me.id), isNull(totpFactors.confirmedAt)));
      if (!pending) throw conflict("There is no authenticator app waiting to be confirmed. Start again from Settings, under Security.");
      const step = totpStep(openTotpSecret(ctx.secrets, me.id, pending.secret), request.body.code, now, null);
      if (step === null) throw fieldError("code", "That code is not right. Type the six-digit code your app shows now.");
      return ctx.db.transaction(async (tx) => {
        await tx.update(totpFactors).set({ confirmedAt: now, lastUsedStep: step }).where(eq(totpFactors.userId, me.id));
        const codes = (await recoveryCodesLeft(tx, me.id)) === 0 ? await replaceRecoveryCodes(tx, me.id, now) : null;
        // The code just proved the app is at hand: this session counts as proven by two factors.
        await tx.update(sessions).set({ secondFactor: "totp" }).where(and(eq(sessions.id, me.sessionId), isNull(sessions.secondFactor)));
        await recordSecurityEvent(tx, request, now, { userId: me.id, event: "totp_enrolled", result: "success" });
        return { recoveryCodes: codes };
      });
    },
  );

  app.delete(
    "/api/account/security/totp",
    {
      config: sensitive,
      schema: { operationId: "removeTotp", summary: "Remove the authenticator app", tags: ["auth"], response: { 200: okResponseSchema, ...errors } },
    },
    async (request) => {
      const me = requireUser(request);
      const now = ctx.now();
      const gone = await ctx.db.delete(totpFactors).where(eq(totpFactors.userId, me.id)).returning({ confirmedAt: totpFactors.confirmedAt });
      if (!gone[0]?.confirmedAt) throw notFound("You have no authenticator app to remove.");
      // Recovery codes stand in for a second factor; with none left they would be a factor of their own.
      if (!(await hasSecondFactor(ctx.db, me.id))) await ctx.db.delete(recoveryCodes).where(eq(recoveryCodes.userId, me.id));
      await recordSecurityEvent(ctx.db, request, now, { userId: me.id, event: "totp_removed", result: "success" });
      return { ok: true as const };
    },
  );

  app.post(
    "/api/account/security/recovery-codes",
    {
      config: adding,
      schema: { operationId: "regenerateRecoveryCodes", summary: "Make ten new recovery codes", tags: ["auth"], response: { 200: recoveryCodesSchema, ...errors } },
    },
    async (request) => {
      const me = requireUser(request);
      const now = ctx.now();
      if (!(await hasSecondFactor(ctx.db, me.id))) throw conflict("Add an authenticator app or a passkey first: recovery codes stand in for one.");
      const codes = await replaceRecoveryCodes(ctx.db, me.id, now);
      await recordSecurityEvent(ctx.db, request, now, { userId: me.id, event: "recovery_codes_regenerated", result: "success" });
      return { recoveryCodes: codes };
    },
  );

  // An admin's help for someone who lost every factor and every code: audited, and the person is told.
  const admin = { auth: "admin" as const };
  app.post(
    "/api/admin/users/:id/second-factors/reset",
    {
      config: { ...admin, freshProof: true },
      schema: {
        operationId: "resetUserSecondFactors",
        summary: "Remove a user's authenticator app, passkeys and recovery codes",
        tags: ["auth"],
        params: uuidParamSchema,
        response: { 200: okResponseSchema, ...errors },
      },
    },
    async (request) => {
      const me = requireUser(request);
      const now = ctx.now();
      const [target] = await ctx.db.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, request.params.id));
      if (!target) throw notFound("There is no user with that id. Check the link and try again.");
      await ctx.db.transaction(async (tx) => {
        await tx.delete(totpFactors).where(eq(totpFactors.userId, target.id));
        await tx.delete(passkeys).where(eq(passkeys.userId, target.id));
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, target.id));
        await tx.insert(auditLog).values({ actorId: me.id, action: "user.second_factors_reset", targetType: "user", targetId: target.id, createdAt: now });
        await recordSecurityEvent(tx, request, now, { userId: target.id, actorId: me.id, event: "factors_reset_by_admin", result: "success" });
        await ctx.mailer.queue(tx, { ...factorsResetMail(ctx.env.PUBLIC_URL), to: target.email });
      });
      return { ok: true as const };
    },
  );

  app.get(
    "/api/admin/users/:id/security-events",
    {
      config: admin,
      schema: {
        operationId: "listUserSecurityEvents",
        summary: "A user's recent security activity",
        tags: ["auth"],
        params: uuidParamSchema,
        response: { 200: securityEventListSchema, ...errors },
      },
    },
    async (request) => listSecurityEvents(ctx.db, request.params.id),
  );
};

export default secondFactorRoutes;
