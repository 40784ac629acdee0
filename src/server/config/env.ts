import { z } from "zod";
import { DEFAULT_MAP_ATTRIBUTION, DEFAULT_MAP_TILE_URL } from "../../shared/map.js";
import { demoDataDecision, type DemoDataSettings } from "./demo-data.js";

// Every environment variable the server reads is parsed here, once, at boot. Nothing else reads
// process.env (docs/architecture.md). A bad value stops the server with a message naming it.

const bool = z
  .enum(["true", "false", "1", "0", "yes", "no"], { error: "must be true or false" })
  .transform((v) => v === "true" || v === "1" || v === "yes");

const optionalUrl = z.url({ error: "must be a URL" }).optional();

/** A Leaflet tile template the CSP can name: http(s), {z}/{x}/{y}, and a {s} subdomain at most. */
function isTileTemplate(value: string): boolean {
  if (!["{z}", "{x}", "{y}"].every((p) => value.includes(p))) return false;
  if (value.includes("{s}") && !/^https?:\/\/\{s\}\.[^{}/]+\//.test(value)) return false;
  try {
    const url = new URL(value.replace("{s}", "s"));
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

/**
 * A request's headers' time to arrive when HEADERS_TIMEOUT_MS is unset: longer than a browser keeps a
 * connection it opened ahead and has not used (10 s in Chromium), so the server does not close one
 * just as the browser sends on it (docs/decisions/071-connections-closed-on-time.md).
 */
const DEFAULT_HEADERS_TIMEOUT_MS = 20_000;

/** 32 random bytes in base64, as `openssl rand -base64 32` prints them. */
const secretsKey = z
  .string()
  .refine((v) => /^[A-Za-z0-9+/]{43}=$/.test(v) && Buffer.from(v, "base64").length === 32, {
    error: "must be 32 random bytes in base64 (make one with `openssl rand -base64 32`)",
  })
  .optional();

const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"], { error: "must be development, production or test" }).default("development"),
    PORT: z.coerce.number({ error: "must be a port number" }).int().min(0).max(65535).default(3000),
    /**
     * Where the server listens: loopback unless told otherwise, so a first `npm start` is not a
     * server others can reach (docs/deploy.md says when to set 0.0.0.0; decision 066). 127.0.0.1
     * rather than "localhost": Fastify binds "localhost" as one server per address, and only the
     * first has the per-address connection cap; browsers and Node's fetch reach http://localhost
     * on 127.0.0.1 all the same (they try ::1 and 127.0.0.1 both).
     */
    HOST: z.string().min(1).default("127.0.0.1"),
    DATA_DIR: z.string().min(1).default("./data"),
    /**
     * Where local uploads live (default DATA_DIR/objects). Required with DATABASE_URL and no S3: every
     * instance on that database must see the same files, so it must name a directory they all share.
     */
    STORAGE_DIR: z.string().min(1).optional(),
    /** Where the built web app is; defaults to dist/web of the project. */
    WEB_DIST_DIR: z.string().min(1).optional(),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, { error: "must be a postgres:// URL" })
      .optional(),
    /**
     * "transaction" when DATABASE_URL is a pooler in transaction mode (PgBouncer before 1.21): no
     * statement is prepared under a name, as the next transaction may run on another server
     * connection (docs/decisions/051-pooler-and-topology.md, docs/deploy.md).
     */
    DATABASE_POOL_MODE: z.enum(["session", "transaction"], { error: "must be session or transaction" }).default("session"),
    /**
     * A direct connection to PostgreSQL, not through a transaction pooler, for what needs a session
     * of its own: LISTEN and the migrations' lock (decision 051). Unset: DATABASE_URL.
     */
    DATABASE_LISTEN_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, { error: "must be a postgres:// URL" })
      .optional(),
    /**
     * After SIGTERM, how long the instance keeps answering with /api/health/ready at 503 before it
     * stops listening: at least the load balancer's check interval times its fall count, so it is
     * taken out before it closes (docs/deploy.md). 0 when nothing balances in front of it.
     */
    DRAIN_DELAY_MS: z.coerce.number({ error: "must be a number of milliseconds" }).int().min(0).max(120_000).default(0),
    /**
     * Connections each instance keeps to PostgreSQL. Sized by bench:load (docs/benchmarks.md,
     * "Profiles of issue 16"); several instances on one server must stay under its max_connections
     * (the embedded one allows 200).
     */
    DATABASE_POOL_SIZE: z.coerce.number({ error: "must be a number of connections" }).int().min(1).max(500).default(10),
    /**
     * Requests one instance works on at once; more wait at the door in arrival order
     * (docs/decisions/040-requests-admitted-in-turn.md). Sized by bench:load.
     */
    MAX_CONCURRENT_REQUESTS: z.coerce.number({ error: "must be a number of requests" }).int().min(1).max(10_000).default(32),
    /**
     * Requests from one client address at work at once, so that the rest of the places (and the
     * event loop's turns) stay for others (docs/decisions/043-slow-requests-bounded.md).
     */
    MAX_CONCURRENT_PER_ADDRESS: z.coerce.number({ error: "must be a number of requests" }).int().min(1).max(10_000).default(16),
    /**
     * How long a request may take to arrive, headers and body together; one that has not arrived by
     * then is answered 408 and its connection closed, so a stalled body frees its memory
     * (docs/decisions/043-slow-requests-bounded.md). Uploads must arrive within it too: a 10 MB photo
     * in 60 s needs about 1.4 Mbit/s.
     */
    REQUEST_TIMEOUT_MS: z.coerce.number({ error: "must be a number of milliseconds" }).int().min(100).max(3_600_000).default(60_000),
    /**
     * How long a request's headers may take to arrive, from the connection's opening (or the
     * request's first byte on a kept-alive connection); past it 408 and the connection is closed
     * (docs/decisions/071-connections-closed-on-time.md). Unset: 20 s, or REQUEST_TIMEOUT_MS if that
     * is shorter; never longer than it.
     */
    HEADERS_TIMEOUT_MS: z.coerce.number({ error: "must be a number of milliseconds" }).int().min(100).max(300_000).optional(),
    /**
     * Connections one client address may hold open at once; more are closed as they open (decision
     * 043). Not applied with TRUST_PROXY, where every connection comes from the proxy.
     */
    MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number({ error: "must be a number of connections" }).int().min(1).max(100_000).default(64),
    /**
     * Requests that have arrived and are not at work yet (their body still arriving, or waiting for
     * a place), all addresses together; past it 503 with Retry-After (decision 043).
     */
    REQUEST_QUEUE_LIMIT: z.coerce.number({ error: "must be a number of requests" }).int().min(1).max(100_000).default(512),
    /** The same line's share of one client address, so one address cannot fill it (decision 043). */
    REQUEST_QUEUE_PER_ADDRESS: z.coerce.number({ error: "must be a number of requests" }).int().min(1).max(100_000).default(32),
    /** The origin in links we send (e-mails, OIDC, sitemap). Unset: http://localhost:PORT, so a local run's links reach it. */
    PUBLIC_URL: z.url({ error: "must be a URL such as http://localhost:3000" }).optional(),
    ADMIN_EMAILS: z
      .string()
      .default("")
      .transform((v) =>
        v
          .split(",")
          .map((e) => e.trim().toLowerCase())
          .filter(Boolean),
      ),
    /**
     * Seed an empty database with the demo data. Unset: on a loopback development or test run only;
     * true anywhere else stops the start, as the demo logins are published (config/demo-data.ts).
     */
    SEED_DEMO: bool.optional(),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    TRUST_PROXY: bool.default(false),
    /** Tasks one person may post per hour: one account cannot flood the job board. */
    TASKS_PER_HOUR: z.coerce.number({ error: "must be a number of tasks" }).int().min(1).max(1_000_000).default(20),
    PAYMENT_WINDOW_MINUTES: z.coerce.number({ error: "must be a number of minutes" }).int().min(1).max(1440).default(30),
    SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
    SESSION_IDLE_DAYS: z.coerce.number().int().min(1).max(365).default(7),
    SESSION_ABSOLUTE_DAYS: z.coerce.number().int().min(1).max(365).default(30),
    BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(50 * 1024 * 1024).default(1_048_576),

    OIDC_ISSUER_URL: optionalUrl,
    OIDC_CLIENT_ID: z.string().min(1).optional(),
    OIDC_CLIENT_SECRET: z.string().min(1).optional(),

    GEOCODER_URL: optionalUrl,
    GEOCODER_USER_AGENT: z.string().min(1).default("Errandly/0.1 (support@errandly.app)"),
    ROUTING_URL: optionalUrl,

    STRIPE_SECRET_KEY: z.string().min(1).optional(),
    STRIPE_PUBLISHABLE_KEY: z.string().min(1).optional(),
    STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
    STRIPE_API_URL: optionalUrl,
    SANDBOX_PAYMENTS_IN_PRODUCTION: bool.default(false),

    /**
     * Background checks (docs/decisions/064-background-checks.md): "manual" (an admin records a
     * check done by hand) or "checkr" (a Checkr-compatible service runs it; CHECKR_API_KEY needed).
     */
    BACKGROUND_CHECKS: z.enum(["manual", "checkr"], { error: "must be manual or checkr" }).default("manual"),
    CHECKR_API_KEY: z.string().min(1).optional(),
    CHECKR_BASE_URL: z.url({ error: "must be a URL" }).default("https://api.checkr.com"),
    /** The key Checkr signs its webhooks with; unset: CHECKR_API_KEY, which is what Checkr signs with. */
    CHECKR_WEBHOOK_SECRET: z.string().min(1).optional(),
    /** The Checkr package an invitation asks for. */
    CHECKR_PACKAGE: z.string().min(1).default("tasker_standard"),

    S3_BUCKET: z.string().min(1).optional(),
    S3_ENDPOINT: optionalUrl,
    S3_REGION: z.string().min(1).default("us-east-1"),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),

    SMTP_URL: z.string().regex(/^smtps?:\/\//, { error: "must be an smtp:// or smtps:// URL" }).optional(),
    MAIL_FROM: z.string().min(3).default("Errandly <no-reply@errandly.app>"),

    /**
     * Web Push's VAPID keys (docs/decisions/062-web-push-and-installable-app.md). Unset: a pair is
     * made on first start and kept in DATA_DIR/vapid.json. Every instance must use the same pair, so
     * with several instances set them here (`npx web-push generate-vapid-keys`).
     */
    VAPID_PUBLIC_KEY: z.string().min(1).optional(),
    VAPID_PRIVATE_KEY: z.string().min(1).optional(),
    /** Who the push services may contact about this sender. Unset: PUBLIC_URL when https, else mailto: MAIL_FROM's address. */
    VAPID_SUBJECT: z.string().regex(/^(mailto:|https:\/\/)/, { error: "must be a mailto: or https:// URL" }).optional(),
    /**
     * The push services a subscription may point at: the server posts to the endpoint a browser
     * gives, so any other host is refused (a stranger's "endpoint" would make the server call it).
     * A leading "*." matches any subdomain. Loopback hosts listed here may use http (tests).
     */
    PUSH_SERVICE_HOSTS: z
      .string()
      .min(1)
      .default("fcm.googleapis.com,updates.push.services.mozilla.com,*.push.apple.com,*.notify.windows.com")
      .transform((list) => list.split(",").map((host) => host.trim().toLowerCase()).filter(Boolean)),

    /**
     * Where the job board's map loads its tiles (docs/decisions/031-job-board-map.md): a Leaflet
     * template; the CSP allows exactly its host for images. Point it at your own tile server when the
     * public OpenStreetMap servers' usage policy does not fit your traffic.
     */
    MAP_TILE_URL: z
      .string()
      .refine(isTileTemplate, { error: "must be an http(s) URL with {z}, {x} and {y} (and {s} only as the first label of the host)" })
      .default(DEFAULT_MAP_TILE_URL),
    MAP_TILE_ATTRIBUTION: z.string().min(1).max(300).default(DEFAULT_MAP_ATTRIBUTION),

    /**
     * The bearer token a Prometheus scraper sends to read /metrics (docs/operations.md). Unset: the
     * route answers 404. Long enough that it cannot be guessed.
     */
    METRICS_TOKEN: z.string().min(16, { error: "must be at least 16 characters (use `openssl rand -hex 24`)" }).optional(),

    /**
     * The key the authenticator apps' keys are sealed with in the database: 32 random bytes in
     * base64 (`openssl rand -base64 32`). Unset: DATA_DIR/secrets.key, made on first start; required
     * with DATABASE_URL, where every instance must use the same key. SECRETS_KEY_PREVIOUS opens what
     * the old key sealed while the key is changed (docs/decisions/069-secrets-at-rest-and-encrypted-backups.md).
     */
    SECRETS_KEY: secretsKey,
    SECRETS_KEY_PREVIOUS: secretsKey,
    /** The public half of the backup key (age1…): what `npm run backup` encrypts archives to (docs/operations.md). */
    BACKUP_RECIPIENT: z
      .string()
      .regex(/^age1[0-9a-z]{20,}$/, { error: "must be an age public key (age1…, from `npm run backup -- --new-key FILE`)" })
      .optional(),
    /** The backup key itself (AGE-SECRET-KEY-1…), for `npm run restore`; unset, restore asks for it. Keep it off the servers. */
    BACKUP_KEY: z
      .string()
      .regex(/^AGE-SECRET-KEY-(PQ-)?1[0-9A-Z]{20,}$/, { error: "must be an age secret key (AGE-SECRET-KEY-1…); the age1… line is the public half, BACKUP_RECIPIENT" })
      .optional(),

    FELIX_LLM_URL: optionalUrl,
    FELIX_LLM_MODEL: z.string().min(1).optional(),
    FELIX_LLM_API_KEY: z.string().min(1).optional(),
    FELIX_LLM_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(8_000),
  })
  .superRefine((env, ctx) => {
    const groups: [string, string[]][] = [
      ["OIDC", ["OIDC_ISSUER_URL", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"]],
      ["Stripe", ["STRIPE_SECRET_KEY", "STRIPE_PUBLISHABLE_KEY", "STRIPE_WEBHOOK_SECRET"]],
      ["S3", ["S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"]],
      ["Felix language model", ["FELIX_LLM_URL", "FELIX_LLM_MODEL"]],
      ["VAPID", ["VAPID_PUBLIC_KEY", "VAPID_PRIVATE_KEY"]],
    ];
    if (env.DATABASE_URL && !env.S3_BUCKET && !env.STORAGE_DIR) {
      ctx.addIssue({
        code: "custom",
        path: ["STORAGE_DIR"],
        message:
          "is required when DATABASE_URL is set and S3 is not: uploads saved on one instance's disk are invisible to the others. " +
          "Set S3_* for shared object storage, or STORAGE_DIR to a directory every instance shares (a network mount)",
      });
    }
    if (env.DATABASE_URL && !env.SECRETS_KEY) {
      ctx.addIssue({
        code: "custom",
        path: ["SECRETS_KEY"],
        message:
          "is required when DATABASE_URL is set: every instance on that database must read the authenticator apps' keys with the same key. " +
          "Make one with `openssl rand -base64 32` and give it to every instance",
      });
    }
    if (env.SECRETS_KEY_PREVIOUS && !env.SECRETS_KEY) {
      ctx.addIssue({ code: "custom", path: ["SECRETS_KEY_PREVIOUS"], message: "only applies with SECRETS_KEY: set SECRETS_KEY to the new key too" });
    }
    if (env.BACKGROUND_CHECKS === "checkr" && !env.CHECKR_API_KEY) {
      ctx.addIssue({ code: "custom", path: ["CHECKR_API_KEY"], message: "is required when BACKGROUND_CHECKS is checkr (the API key from Checkr's developer settings)" });
    }
    // Node refuses a header timeout longer than the whole request's (decision 071).
    if (env.HEADERS_TIMEOUT_MS !== undefined && env.HEADERS_TIMEOUT_MS > env.REQUEST_TIMEOUT_MS) {
      ctx.addIssue({ code: "custom", path: ["HEADERS_TIMEOUT_MS"], message: `must not be longer than REQUEST_TIMEOUT_MS (${env.REQUEST_TIMEOUT_MS})` });
    }
    // The embedded PostgreSQL is always reached directly; these two only describe a DATABASE_URL.
    if (!env.DATABASE_URL && env.DATABASE_LISTEN_URL) {
      ctx.addIssue({ code: "custom", path: ["DATABASE_LISTEN_URL"], message: "only applies with DATABASE_URL: set DATABASE_URL too, or remove it" });
    }
    if (!env.DATABASE_URL && env.DATABASE_POOL_MODE === "transaction") {
      ctx.addIssue({ code: "custom", path: ["DATABASE_POOL_MODE"], message: "transaction only applies with DATABASE_URL pointing at a pooler: set DATABASE_URL too, or remove it" });
    }
    const demo = demoDataDecision(demoSettings(env));
    if (demo.refusal) ctx.addIssue({ code: "custom", path: ["SEED_DEMO"], message: demo.refusal });
    const record = env as Record<string, unknown>;
    for (const [name, keys] of groups) {
      const set = keys.filter((k) => record[k] !== undefined);
      if (set.length > 0 && set.length < keys.length) {
        for (const k of keys.filter((key) => record[key] === undefined)) {
          ctx.addIssue({ code: "custom", path: [k], message: `is required when any ${name} variable is set` });
        }
      }
    }
  })
  .transform((env) => ({
    ...env,
    PUBLIC_URL: env.PUBLIC_URL ?? `http://localhost:${env.PORT}`,
    SEED_DEMO: demoDataDecision(demoSettings(env)).seed,
    HEADERS_TIMEOUT_MS: env.HEADERS_TIMEOUT_MS ?? Math.min(DEFAULT_HEADERS_TIMEOUT_MS, env.REQUEST_TIMEOUT_MS),
  }));

function demoSettings(env: { NODE_ENV: DemoDataSettings["nodeEnv"]; HOST: string; PUBLIC_URL?: string | undefined; SEED_DEMO?: boolean | undefined }): DemoDataSettings {
  return { nodeEnv: env.NODE_ENV, host: env.HOST, publicUrl: env.PUBLIC_URL, seedDemo: env.SEED_DEMO };
}

export type Env = z.infer<typeof envSchema>;

export class EnvError extends Error {}

export function parseEnv(source: Record<string, string | undefined>): Env {
  // Empty strings mean "unset" so that `.env.example` copied as-is works.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".") || "(env)"}: ${i.message}`);
    throw new EnvError(`Invalid environment configuration:\n${lines.join("\n")}`);
  }
  return result.data;
}

/** Why others may reach this server (it may then hold no demo data), or null on a loopback development or test run. */
export function demoDataExposure(env: Env): string | null {
  return demoDataDecision(demoSettings(env)).exposure;
}

export function isHttps(env: Env): boolean {
  return env.PUBLIC_URL.startsWith("https://");
}
