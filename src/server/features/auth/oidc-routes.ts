import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type * as Oidc from "openid-client";
import { z } from "zod";
import { safeReturnTo } from "../../../shared/return-to.js";
import { isHttps } from "../../config/env.js";
import { clearSession } from "../../plugins/auth.js";
import { accountForOidcProfile, profileFromClaims } from "./oidc-accounts.js";
import { hasSecondFactor, openSession, startChallenge } from "./factors.js";
import { recordSecurityEvent } from "./security-log.js";

// Optional single sign-on: Authorization Code flow with PKCE (S256), state and nonce. What the
// callback must check travels in a short-lived HttpOnly cookie sealed with an HMAC keyed from the
// client secret, so no table and no new secret are needed and any instance can finish a flow
// another instance started.

export interface OidcSettings {
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
}

const FLOW_TTL_MS = 10 * 60_000;
const CALLBACK_PATH = "/api/auth/oidc/callback";

const flowSchema = z.object({
  state: z.string(),
  nonce: z.string(),
  verifier: z.string(),
  returnTo: z.string(),
  expiresAt: z.number(),
});
type Flow = z.infer<typeof flowSchema>;

function flowCookieName(https: boolean): string {
  // Same reason as the session cookie: __Host- stops a sibling subdomain planting its own flow.
  return https ? "__Host-errandly_oidc" : "errandly_oidc";
}

function sealer(clientSecret: string) {
  const key = Buffer.from(hkdfSync("sha256", clientSecret, "errandly", "oidc-flow-cookie", 32));
  const mac = (payload: string) => createHmac("sha256", key).update(payload).digest();
  return {
    seal(flow: Flow): string {
      const payload = Buffer.from(JSON.stringify(flow)).toString("base64url");
      return `${payload}.${mac(payload).toString("base64url")}`;
    },
    open(value: string | undefined, now: Date): Flow | null {
      const [payload = "", signature = ""] = (value ?? "").split(".");
      const given = Buffer.from(signature, "base64url");
      const expected = mac(payload);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      try {
        const flow = flowSchema.parse(JSON.parse(Buffer.from(payload, "base64url").toString("utf8")));
        return flow.expiresAt > now.getTime() ? flow : null;
      } catch {
        return null;
      }
    },
  };
}

/**
 * openid-client is loaded with the first sign-in through the provider, not at start
 * (docs/decisions/078-modules-loaded-on-first-use.md); Node keeps it once loaded.
 */
const loadOidc = () => import("openid-client");

const oidcRoutes: FastifyPluginAsyncZod<OidcSettings> = async (app, settings) => {
  const { ctx } = app;
  const https = isHttps(ctx.env);
  const cookieName = flowCookieName(https);
  const cookieOptions = { path: "/", httpOnly: true, sameSite: "lax" as const, secure: https };
  const redirectUri = new URL(CALLBACK_PATH, ctx.env.PUBLIC_URL).href;
  const { seal, open } = sealer(settings.clientSecret);

  // Discovered on first use, not at boot, so an IdP that is down does not stop the server; a
  // failed discovery is forgotten and retried by the next sign-in.
  let discovered: Promise<Oidc.Configuration> | null = null;
  const configuration = () => {
    discovered ??= loadOidc()
      .then((oidc) =>
        oidc.discovery(new URL(settings.issuerUrl), settings.clientId, settings.clientSecret, undefined, {
          // Plain http only outside production (a local IdP in development and tests).
          execute: settings.issuerUrl.startsWith("http://") && ctx.env.NODE_ENV !== "production" ? [oidc.allowInsecureRequests] : [],
          timeout: 10,
        }),
      )
      .catch((error: unknown) => {
        discovered = null;
        throw error;
      });
    return discovered;
  };

  const fail = (request: FastifyRequest, reply: FastifyReply, error: unknown) => {
    request.log.warn({ err: error }, "OIDC sign-in failed");
    return reply.redirect("/sign-in?error=oidc", 302);
  };

  app.get(
    "/api/auth/oidc/start",
    {
      config: { auth: "public" },
      schema: { tags: ["auth"], operationId: "startOidcLogin", summary: "Starts single sign-on with the configured provider", querystring: z.object({ returnTo: z.string().max(2000).optional() }) },
    },
    async (request, reply) => {
      try {
        const config = await configuration();
        const oidc = await loadOidc();
        const verifier = oidc.randomPKCECodeVerifier();
        const flow: Flow = {
          state: oidc.randomState(),
          nonce: oidc.randomNonce(),
          verifier,
          returnTo: safeReturnTo(request.query.returnTo),
          expiresAt: ctx.now().getTime() + FLOW_TTL_MS,
        };
        const url = oidc.buildAuthorizationUrl(config, {
          redirect_uri: redirectUri,
          scope: "openid email profile",
          code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
          code_challenge_method: "S256",
          state: flow.state,
          nonce: flow.nonce,
        });
        reply.setCookie(cookieName, seal(flow), { ...cookieOptions, maxAge: FLOW_TTL_MS / 1000 });
        return reply.redirect(url.href, 302);
      } catch (error) {
        return fail(request, reply, error);
      }
    },
  );

  app.get("/api/auth/oidc/callback", { config: { auth: "public" }, schema: { tags: ["auth"], operationId: "finishOidcLogin", summary: "Finishes single sign-on and signs the person in" } }, async (request, reply) => {
    // One flow, one use: the cookie goes whatever the outcome.
    const flow = open(request.cookies[cookieName], ctx.now());
    reply.clearCookie(cookieName, cookieOptions);
    try {
      if (!flow) throw new Error("no valid sign-in flow cookie (expired, tampered or never started here)");
      const config = await configuration();
      const oidc = await loadOidc();
      const currentUrl = new URL(redirectUri);
      currentUrl.search = new URL(request.url, redirectUri).search;
      const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      let claims: Record<string, unknown> = { ...tokens.claims() };
      // Some IdPs keep the e-mail out of the ID token; the UserInfo answer is bound to the same subject.
      if (claims.email === undefined && typeof claims.sub === "string" && config.serverMetadata().userinfo_endpoint) {
        claims = { ...(await oidc.fetchUserInfo(config, tokens.access_token, claims.sub)), ...claims };
      }
      const now = ctx.now();
      const user = await accountForOidcProfile(ctx.db, profileFromClaims(claims), { adminEmails: ctx.env.ADMIN_EMAILS, now, request });
      // An account with a second factor is asked for it next, as after a password (decision 049).
      if (await hasSecondFactor(ctx.db, user.id)) {
        await clearSession(app, request, reply);
        await startChallenge(app, reply, { purpose: "second_factor", userId: user.id, firstFactor: "oidc" });
        return reply.redirect(`/sign-in/second-step?returnTo=${encodeURIComponent(safeReturnTo(flow.returnTo))}`, 302);
      }
      await openSession(app, request, reply, user.id, { firstFactor: "oidc" });
      await recordSecurityEvent(ctx.db, request, now, { userId: user.id, event: "sign_in", result: "success", details: { firstFactor: "oidc" } });
      return reply.redirect(safeReturnTo(flow.returnTo), 302);
    } catch (error) {
      return fail(request, reply, error);
    }
  });
};

export default oidcRoutes;
