import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { loginBodySchema, messageResponseSchema, registerBodySchema, userSchema } from "../../../shared/auth.js";
import { safeReturnTo } from "../../../shared/return-to.js";
import { okResponseSchema } from "../../../shared/common.js";
import { users } from "../../db/schema/users.js";
import { errorResponses, unauthorized } from "../../http-errors.js";
import { secondFactorNeededSchema } from "../../../shared/security.js";
import { clearSession } from "../../plugins/auth.js";
import { rateLimit } from "../../plugins/rate-limit.js";
import { DUMMY_HASH_PROMISE, hashPassword, verifyPassword } from "./passwords.js";
import { assertPasswordAccepted } from "./password-policy.js";
import { openSession, secondFactorMethods, startChallenge } from "./factors.js";
import passkeyRoutes from "./passkey-routes.js";
import secondFactorRoutes from "./second-factor-routes.js";
import { recordSecurityEvent } from "./security-log.js";
import { beginSignIn } from "./sign-in-throttle.js";
import { signUpAttemptMail, verifyEmailMail } from "./account-mail.js";
import recoveryRoutes from "./recovery-routes.js";
import { setSignUpCookie } from "./sign-up-proof.js";
import { issueToken } from "./tokens.js";
import oidcRoutes from "./oidc-routes.js";
import { findUserByEmail, toUserView } from "./repository.js";

// Local accounts: register (answered alike for new and taken addresses), sign in, sign out, who am I; plus the navigation entry points the
// web uses (/api/login, /api/auth/login, /api/logout), and single sign-on when OIDC is configured.
// See docs/decisions/003-sessions-and-sign-in.md.

const returnToQuery = z.object({ returnTo: z.string().max(2000).optional() });
const authConfigSchema = z.object({ oidc: z.boolean() });

function emailKey(request: FastifyRequest): string | null {
  const body = request.body as { email?: unknown } | undefined;
  return typeof body?.email === "string" ? body.email.trim().toLowerCase().slice(0, 254) : null;
}

const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const { OIDC_ISSUER_URL: issuerUrl, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret } = ctx.env;
  // env.ts accepts the three only together; local accounts stay available either way.
  const oidc = issuerUrl && clientId && clientSecret ? { issuerUrl, clientId, clientSecret } : null;
  if (oidc) await app.register(oidcRoutes, oidc);
  await app.register(recoveryRoutes);
  await app.register(secondFactorRoutes);
  await app.register(passkeyRoutes);

  app.get(
    "/api/auth/config",
    { config: { auth: "public" }, schema: { tags: ["auth"], operationId: "getAuthConfig", summary: "Lists the sign-in methods this server offers", response: { 200: authConfigSchema } } },
    async () => ({ oidc: oidc !== null }),
  );

  // Per IP and per e-mail: the first stops one client trying many accounts, the second many
  // clients trying one account.
  const limits = (name: string, ipMax: number, emailMax: number) =>
    rateLimit(
      ctx.db,
      ctx.now,
      { name: `${name}:ip`, max: ipMax, windowMs: 15 * 60_000, key: (r) => r.ip },
      { name: `${name}:email`, max: emailMax, windowMs: 15 * 60_000, key: emailKey },
    );

  app.post(
    "/api/auth/register",
    {
      config: { auth: "public" },
      preHandler: limits("register", 20, 5),
      schema: {
        tags: ["auth"],
        operationId: "register",
        summary: "Creates an account and signs it in",
        body: registerBodySchema,
        response: { 202: messageResponseSchema, ...errorResponses(400, 429) },
      },
    },
    async (request, reply) => {
      const { email, password, firstName, lastName } = request.body;
      const returnTo = request.body.returnTo === undefined ? undefined : safeReturnTo(request.body.returnTo);
      await assertPasswordAccepted(password, { email, firstName, lastName });
      // Hashed in both cases, so the answer takes as long for a taken address as for a new one.
      const passwordHash = await hashPassword(password);
      // Set for a new and a taken address alike: the link opened in this browser keeps this password.
      const registrantHash = setSignUpCookie(app, reply);
      await ctx.db.transaction(async (tx) => {
        const [created] = await tx
          .insert(users)
          .values({ email, passwordHash, firstName, lastName, role: "user" })
          .onConflictDoNothing({ target: users.email })
          .returning();
        if (created) {
          const token = await issueToken(tx, { userId: created.id, purpose: "email_verify", now: ctx.now(), registrantHash, returnTo });
          await ctx.mailer.queue(tx, { ...verifyEmailMail(ctx.env.PUBLIC_URL, token), to: email });
          return;
        }
        // A taken address: nothing is created and the owner hears about it (decision 020). An
        // address nobody has proven yet may have been registered by someone else first: its fresh
        // link carries this registration's password, which becomes the account's when the link is
        // opened, and ends every other holder's sessions (docs/decisions/044-verification-ends-other-holders.md).
        const owner = await findUserByEmail(tx, email);
        const verifyToken =
          owner && !owner.emailVerifiedAt
            ? await issueToken(tx, {
                userId: owner.id,
                purpose: "email_verify",
                now: ctx.now(),
                pendingPasswordHash: passwordHash,
                registrantHash,
                returnTo,
              })
            : null;
        await ctx.mailer.queue(tx, { ...signUpAttemptMail(ctx.env.PUBLIC_URL, verifyToken), to: email });
      });
      // The same answer for a new and a taken address, and nobody is signed in: registering does
      // not tell whether an address has an account.
      return reply.code(202).send({ message: `Check your inbox: we sent a link to ${email} to finish signing up.` });
    },
  );

  app.post(
    "/api/auth/login",
    {
      config: { auth: "public" },
      // Throttled inside the handler, per (IP, e-mail) and per IP (sign-in-throttle.ts), so that
      // failures from one address never lock the owner out on another.
      schema: {
        tags: ["auth"],
        operationId: "login",
        summary: "Signs in with e-mail and password",
        body: loginBodySchema,
        response: { 200: userSchema, 202: secondFactorNeededSchema, ...errorResponses(400, 401, 429) },
      },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      const attempt = await beginSignIn(ctx, reply, request.ip, email);
      const user = await findUserByEmail(ctx.db, email);
      // Same work whether or not the account exists, so timing does not reveal which e-mails are registered.
      const valid = await verifyPassword(password, user?.passwordHash ?? (await DUMMY_HASH_PROMISE));
      if (!user || !user.passwordHash || !valid) {
        await attempt.failed();
        await recordSecurityEvent(ctx.db, request, ctx.now(), { userId: user?.id ?? null, event: "sign_in", result: "failure", details: { firstFactor: "password" } });
        throw unauthorized("Invalid email or password");
      }
      await attempt.succeeded();
      // An account with a second factor is not signed in yet: the second step asks for it (decision 049).
      const methods = await secondFactorMethods(ctx.db, user.id);
      if (methods.length > 0) {
        await startChallenge(app, reply, { purpose: "second_factor", userId: user.id, firstFactor: "password" });
        await recordSecurityEvent(ctx.db, request, ctx.now(), { userId: user.id, event: "sign_in_password", result: "success" });
        return reply.code(202).send({ message: "Your password is right. Now confirm it is you with your second factor.", secondFactor: { methods } });
      }
      await openSession(app, request, reply, user.id, { firstFactor: "password" });
      await recordSecurityEvent(ctx.db, request, ctx.now(), { userId: user.id, event: "sign_in", result: "success", details: { firstFactor: "password" } });
      return toUserView(user, { firstFactor: "password" });
    },
  );

  app.post(
    "/api/auth/logout",
    { config: { auth: "public" }, schema: { tags: ["auth"], operationId: "logout", summary: "Signs the current session out", response: { 200: okResponseSchema } } },
    async (request, reply) => {
      await clearSession(app, request, reply);
      return { ok: true as const };
    },
  );

  // "Who is signed in here?" is a question every page asks, visitors' too: nobody is an answer
  // (null), not a failure. A 401 was logged as an error by the browser on every signed-out page
  // (issue 41); docs/product.md, Web app.
  app.get(
    "/api/auth/user",
    {
      config: { auth: "public" },
      schema: {
        tags: ["auth"],
        operationId: "getCurrentUser",
        summary: "Returns the signed-in person, or null when nobody is signed in",
        response: { 200: userSchema.nullable() },
      },
    },
    async (request) => (request.user ? toUserView(request.user, request.user) : null),
  );

  // Full-page navigations: both sign-in links lead to the sign-in page, keeping returnTo.
  const toSignIn = (returnTo: string | undefined) => `/sign-in?returnTo=${encodeURIComponent(safeReturnTo(returnTo))}`;
  app.get(
    "/api/login",
    { config: { auth: "public" }, schema: { tags: ["auth"], operationId: "openSignIn", summary: "Sends the browser to the sign-in page", querystring: returnToQuery } },
    async (request, reply) => reply.redirect(toSignIn(request.query.returnTo), 302),
  );
  app.get(
    "/api/auth/login",
    { config: { auth: "public" }, schema: { tags: ["auth"], operationId: "openSignInToDashboard", summary: "Sends the browser to the sign-in page, then to the dashboard", querystring: returnToQuery } },
    async (request, reply) => reply.redirect(toSignIn(request.query.returnTo ?? "/dashboard"), 302),
  );
  app.get("/api/logout", { config: { auth: "public" }, schema: { tags: ["auth"], operationId: "logoutByLink", summary: "Signs out from a link of this site and goes home" } }, async (request, reply) => {
    // A GET that changes state: a link on another site must not sign the person out (logout CSRF).
    // Our header's link, a bookmark and the address bar send same-origin or none.
    if (request.headers["sec-fetch-site"] !== "cross-site") await clearSession(app, request, reply);
    return reply.redirect("/", 302);
  });
};

export default authRoutes;
