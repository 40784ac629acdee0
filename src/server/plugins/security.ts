import fp from "fastify-plugin";
import helmet, { type HelmetOptions } from "helmet";
import { tileImageSource } from "../../shared/map.js";
import { isHttps } from "../config/env.js";
import { forbidden, namedFieldError } from "../http-errors.js";

// Headers (CSP, HSTS over https, frame-ancestors, nosniff, referrer policy) and the CSRF rule:
// a state-changing request that says it comes from another origin is refused. Requests with no
// Origin (curl, server-to-server, Stripe webhooks) carry no browser cookies by accident, so they
// are judged by their credentials alone.

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** The path of the first string holding a NUL character, or null. */
export function findNul(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === "string") return value.includes("\u0000") ? path : null;
  if (depth > 20 || value === null || typeof value !== "object" || Buffer.isBuffer(value)) return null;
  if (typeof (value as { pipe?: unknown }).pipe === "function") return null; // a raw upload stream
  for (const [key, child] of Object.entries(value)) {
    const found = findNul(child, `${path}.${key}`, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * The headers helmet writes for `options`, worked out once. @fastify/helmet ran helmet(options) on
 * every request, which parses the whole configuration (the CSP's directives included) each time:
 * a visible share of the server's CPU under bench:load (docs/benchmarks.md, "Profiles of issue 16"). With
 * no per-request values (no nonces), every answer gets the same headers.
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as never, response as never, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

export default fp(
  async (app) => {
    const { env } = app.ctx;
    const publicOrigin = new URL(env.PUBLIC_URL).origin;
    const stripe = Boolean(env.STRIPE_PUBLISHABLE_KEY);
    const s3 = env.S3_ENDPOINT ? new URL(env.S3_ENDPOINT).origin : null;
    // The job board's map tiles: exactly the configured tile host (docs/decisions/031-job-board-map.md).
    const tiles = tileImageSource(env.MAP_TILE_URL);

    const headers = helmetHeaders({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          baseUri: ["'self'"],
          objectSrc: ["'none'"],
          frameAncestors: ["'none'"],
          formAction: ["'self'"],
          scriptSrc: ["'self'", ...(stripe ? ["https://js.stripe.com"] : [])],
          // Radix's scroll lock injects a <style> element; inline styles cannot run script.
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", "data:", "blob:", ...(s3 ? [s3] : []), tiles],
          fontSrc: ["'self'", "data:"],
          connectSrc: ["'self'", ...(stripe ? ["https://api.stripe.com"] : []), ...(s3 ? [s3] : [])],
          frameSrc: stripe ? ["https://js.stripe.com", "https://hooks.stripe.com"] : ["'none'"],
          workerSrc: ["'self'", "blob:"],
          manifestSrc: ["'self'"],
          ...(isHttps(env) ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      hsts: isHttps(env) ? { maxAge: 31_536_000, includeSubDomains: true } : false,
      // The same rule as frame-ancestors 'none', for browsers that predate CSP level 2.
      xFrameOptions: { action: "deny" },
      referrerPolicy: { policy: "strict-origin-when-cross-origin" },
      crossOriginEmbedderPolicy: false,
    });
    // The same headers on every answer, errors and the 404 fallback included (onRequest runs first).
    app.addHook("onRequest", async (_request, reply) => {
      reply.headers(headers);
    });

    // PostgreSQL text cannot hold NUL; refuse it at the door rather than fail in a query (a 500).
    app.addHook("preValidation", async (request) => {
      const found = findNul(request.query, "querystring") ?? findNul(request.params, "params") ?? findNul(request.body, "body");
      if (found) throw namedFieldError(found, "must not contain NUL characters");
    });

    app.addHook("onRequest", async (request) => {
      if (!STATE_CHANGING.has(request.method)) return;
      const origin = request.headers.origin;
      const fetchSite = request.headers["sec-fetch-site"];
      if (fetchSite === "cross-site") throw forbidden("Cross-site requests are not allowed");
      if (!origin) return;
      const host = request.headers.host;
      let sameHost = false;
      try {
        sameHost = host !== undefined && new URL(origin).host === host;
      } catch {
        sameHost = false;
      }
      if (origin !== publicOrigin && !sameHost) throw forbidden("Cross-origin requests are not allowed");
    });
  },
  { name: "security" },
);
