import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { VERIFY_EMAIL_FIRST_MESSAGE } from "../../shared/auth.js";
import { ADMIN_SECOND_FACTOR_MESSAGE, SECOND_FACTOR_REQUIRED, STEP_UP_MESSAGE, STEP_UP_REQUIRED, STEP_UP_WINDOW_MS } from "../../shared/security-rules.js";
import { isHttps } from "../config/env.js";
import { recordSecurityEvent } from "../features/auth/security-log.js";
import { deleteSession, resolveSession, type SessionUser } from "../features/auth/sessions.js";
import { forbidden, unauthorized } from "../http-errors.js";
import { adminAreaRefusal } from "../policy.js";

// Who is asking, and may they? Every /api route declares `config.auth`:
//   "public" anyone, "user" a signed-in user, "admin" a signed-in admin on two factors (src/server/policy.ts).
// Ownership (poster, assigned provider) is checked by the feature itself. A route without a
// declaration fails at startup, so a new route cannot be forgotten.

export type RouteAuth = "public" | "user" | "admin";

declare module "fastify" {
  interface FastifyContextConfig {
    auth?: RouteAuth;
    /** A public answer that is the same for everyone (the job board): no session lookup for it. */
    sameForEveryone?: boolean;
    /**
     * Posting, applying and paying: the signed-in person must have verified their e-mail address
     * first (docs/product.md, Accounts: recovery and verification). Checked here, once, for every
     * route that sets it.
     */
    verifiedEmail?: boolean;
    /**
     * Sensitive changes (payout account, second factors): the password or a passkey must have been
     * proven in this session within STEP_UP_WINDOW_MS, or 403 with reason "step_up_required"
     * (docs/decisions/050-step-up-and-security-log.md).
     */
    freshProof?: boolean;
  }
  interface FastifyRequest {
    user: SessionUser | null;
  }
}

export function sessionCookieName(https: boolean): string {
  // The __Host- prefix pins the cookie to this exact origin over https (no Domain, Path=/).
  return https ? "__Host-errandly_session" : "errandly_session";
}

export function requireUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw unauthorized();
  return request.user;
}

export function recentlyProven(user: SessionUser, now: Date): boolean {
  return user.provenAt !== null && now.getTime() - user.provenAt.getTime() <= STEP_UP_WINDOW_MS;
}

export function setSessionCookie(app: FastifyInstance, reply: FastifyReply, token: string): void {
  const https = isHttps(app.ctx.env);
  reply.setCookie(sessionCookieName(https), token, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: https,
    maxAge: app.ctx.env.SESSION_ABSOLUTE_DAYS * 86_400,
  });
}

export async function clearSession(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const name = sessionCookieName(isHttps(app.ctx.env));
  const token = request.cookies[name];
  if (token) await deleteSession(app.ctx.db, token);
  reply.clearCookie(name, { path: "/", httpOnly: true, sameSite: "lax", secure: isHttps(app.ctx.env) });
  request.user = null;
}

export async function userFromRequest(app: FastifyInstance, request: FastifyRequest): Promise<SessionUser | null> {
  const token = request.cookies[sessionCookieName(isHttps(app.ctx.env))];
  if (!token) return null;
  const { env } = app.ctx;
  return resolveSession(app.ctx.db, token, { idleDays: env.SESSION_IDLE_DAYS, absoluteDays: env.SESSION_ABSOLUTE_DAYS }, app.ctx.now());
}

export default fp(
  async (app) => {
    app.decorateRequest("user", null);

    app.addHook("onRoute", (route) => {
      if (!route.url.startsWith("/api/") || route.url.startsWith("/api/docs")) return;
      const auth = route.config?.auth;
      if (auth !== "public" && auth !== "user" && auth !== "admin") {
        throw new Error(`Route ${String(route.method)} ${route.url} must declare config.auth`);
      }
    });

    // onRequest, before the body is parsed and validated: a signed-out caller of a protected route
    // learns only that it must sign in (401), not what the route would accept, and costs no parsing.
    app.addHook("onRequest", async (request) => {
      const auth = request.routeOptions.config.auth;
      if (!auth) return;
      if (auth === "public" && request.routeOptions.config.sameForEveryone) return;
      request.user = await userFromRequest(app, request);
      if (auth === "public") return;
      if (!request.user) throw unauthorized();
      if (auth === "admin") {
        // Admins always on two factors (docs/decisions/049-second-factors.md, 068); every refusal is logged (ASVS 16.3).
        const reason = adminAreaRefusal(request.user);
        if (reason) {
          const refusal = reason === "not_admin" ? forbidden("Admins only") : forbidden(ADMIN_SECOND_FACTOR_MESSAGE, SECOND_FACTOR_REQUIRED);
          await recordSecurityEvent(app.ctx.db, request, app.ctx.now(), {
            userId: request.user.id,
            event: "admin_route_denied",
            result: "failure",
            details: { method: request.method, route: request.routeOptions.url, reason },
          });
          throw refusal;
        }
      }
      if (request.routeOptions.config.freshProof && !recentlyProven(request.user, app.ctx.now())) throw forbidden(STEP_UP_MESSAGE, STEP_UP_REQUIRED);
      if (request.routeOptions.config.verifiedEmail && !request.user.emailVerifiedAt) throw forbidden(VERIFY_EMAIL_FIRST_MESSAGE);
    });
  },
  { name: "auth", dependencies: ["@fastify/cookie"] },
);
