import { randomBytes } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { isHttps } from "../../config/env.js";
import { hashToken } from "./sessions.js";
import { TOKEN_TTL_MS } from "./tokens.js";

// The browser that registers gets a random cookie; its verification link stores the cookie's
// SHA-256. Opening the link in that browser proves that the person following it chose the
// password; anyone else following it chooses a new one (docs/decisions/044-verification-ends-other-holders.md).

function cookieName(https: boolean): string {
  // The __Host- prefix pins the cookie to this exact origin over https, as the session cookie's.
  return https ? "__Host-errandly_sign_up" : "errandly_sign_up";
}

/** Sets a fresh sign-up cookie on the answer and returns its hash, for the link's token row. */
export function setSignUpCookie(app: FastifyInstance, reply: FastifyReply): string {
  const https = isHttps(app.ctx.env);
  const value = randomBytes(32).toString("base64url");
  reply.setCookie(cookieName(https), value, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: https,
    maxAge: TOKEN_TTL_MS.email_verify / 1000,
  });
  return hashToken(value);
}

/** The hash of the request's sign-up cookie, or null without one. */
export function signUpCookieHash(app: FastifyInstance, request: FastifyRequest): string | null {
  const value = request.cookies[cookieName(isHttps(app.ctx.env))];
  return value ? hashToken(value) : null;
}
