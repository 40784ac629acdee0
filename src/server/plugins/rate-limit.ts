import type { FastifyRequest, preHandlerAsyncHookHandler } from "fastify";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { SqlStatement } from "../db/prepared.js";
import { tooManyRequests } from "../http-errors.js";

// Fixed-window rate limits kept in the rate_limits table, so a limit holds across every server
// instance on one database. One atomic upsert per check, no read-then-write. A route may stack
// several (per IP and per e-mail for sign-in), which @fastify/rate-limit cannot do: it runs one
// limiter per request (docs/decisions/003-sessions-and-sign-in.md).

export interface LimitRule {
  /** Prefix that keeps each rule's counters apart: "login:ip". */
  name: string;
  max: number;
  windowMs: number;
  /** What is counted; return null to skip the rule for this request. */
  key: (request: FastifyRequest) => string | null;
  /** The 429's message, given the wait ("12 minutes"); a generic one otherwise. */
  message?: (wait: string) => string;
}

/**
 * The counter's upsert, with placeholders key, at and windowStart. Chat folds it into the statement
 * that stores the message (features/chat/repository.ts), so a message is one commit.
 */
export const hitSql = sql`insert into rate_limits (key, count, window_started_at) values (${sql.placeholder("key")}, 1, ${sql.placeholder("at")}::timestamptz)
      on conflict (key) do update set
        count = case when rate_limits.window_started_at <= ${sql.placeholder("windowStart")}::timestamptz then 1 else rate_limits.count + 1 end,
        window_started_at = case when rate_limits.window_started_at <= ${sql.placeholder("windowStart")}::timestamptz then ${sql.placeholder("at")}::timestamptz else rate_limits.window_started_at end
      returning count, window_started_at`;

/** One upsert, written once and only executed: posting runs it on every request. */
export const hitStatement = new SqlStatement<{ count: number; windowStartedAt: Date }>("rate_limit_hit", hitSql);

/** The placeholders of `hitSql` for one check of `key` at `now`. */
export function hitPlaceholders(key: string, windowMs: number, now: Date): { key: string; at: string; windowStart: string } {
  return { key, at: now.toISOString(), windowStart: new Date(now.getTime() - windowMs).toISOString() };
}

/** Whole seconds from `now` until `resetAt`, at least 1: a 429's Retry-After. */
export function retryAfterSeconds(resetAt: Date, now: Date): number {
  return Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000));
}

/** Increments the counter for `key` and returns the count in the current window. */
export async function hit(db: Db, key: string, windowMs: number, now: Date): Promise<{ count: number; resetAt: Date }> {
  const [row] = await hitStatement.rows(db, hitPlaceholders(key, windowMs, now));
  if (!row) throw new Error("rate limit upsert returned no row");
  return { count: Number(row.count), resetAt: new Date(row.windowStartedAt.getTime() + windowMs) };
}

export function rateLimit(db: Db, now: () => Date, ...rules: LimitRule[]): preHandlerAsyncHookHandler {
  return async function limit(request, reply) {
    for (const rule of rules) {
      const key = rule.key(request);
      if (key === null) continue;
      const at = now();
      const { count, resetAt } = await hit(db, `${rule.name}:${key}`, rule.windowMs, at);
      if (count > rule.max) {
        const seconds = retryAfterSeconds(resetAt, at);
        reply.header("retry-after", String(seconds));
        const wait = formatWait(seconds);
        throw tooManyRequests(rule.message ? rule.message(wait) : `Too many requests. Please try again in ${wait}.`);
      }
    }
  };
}

/** "12 seconds", "3 minutes": a wait in words for a 429's message. */
export function formatWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

export async function deleteStaleRateLimits(db: Db, before: Date): Promise<void> {
  await db.execute(sql`delete from rate_limits where window_started_at < ${before.toISOString()}`);
}
