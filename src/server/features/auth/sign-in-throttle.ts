import { createHash } from "node:crypto";
import type { FastifyBaseLogger, FastifyReply } from "fastify";
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "../../db/client.js";
import { tooManyRequests } from "../../http-errors.js";
import { formatWait, hit } from "../../plugins/rate-limit.js";

// Sign-in throttling that an attacker cannot turn against the owner (docs/product.md "Sign-in
// limits", docs/decisions/022-sign-in-throttling-and-password-policy.md). Three counters, all in
// the rate_limits table so every instance sees them:
// - per (IP, e-mail): the first PAIR_FREE_ATTEMPTS failures are free, then each attempt must wait
//   1 s, 2 s, 4 s … (at most PAIR_MAX_DELAY_S) after the previous one: 429 with Retry-After, never
//   a server-side sleep that would hold a connection. A successful sign-in clears the pair.
// - per IP: a ceiling on failed sign-ins across every e-mail (credential stuffing).
// - per e-mail, from anywhere: a signal in the log only. It never blocks, so failures from an
//   attacker's address cannot stop the owner signing in from theirs.
// The second step adds one more (countCodeGuess): authenticator codes for one account from
// anywhere, a ceiling that pauses the app's codes only, while a passkey or a recovery code still
// signs the owner in (decision 049, "Changed").

export const PAIR_FREE_ATTEMPTS = 5;
export const PAIR_MAX_DELAY_S = 15 * 60;
/** A pair's failures are forgotten this long after its last attempt (the stale-row job's age too). */
const PAIR_FORGET_MS = 24 * 3_600_000;
export const IP_MAX_FAILURES = 30;
export const IP_WINDOW_MS = 15 * 60_000;
/** Failures for one e-mail from anywhere in an hour that are worth a warning in the log. */
export const EMAIL_SIGNAL_FAILURES = 20;
const EMAIL_SIGNAL_WINDOW_MS = 3_600_000;

/** Seconds the pair must wait after its last attempt, once it has made `attempts` without success. */
export function pairDelaySeconds(attempts: number): number {
  if (attempts < PAIR_FREE_ATTEMPTS) return 0;
  return Math.min(PAIR_MAX_DELAY_S, 2 ** (attempts - PAIR_FREE_ATTEMPTS));
}

export interface SignInAttempt {
  /** The password was right: the pair's failures go, and the attempt does not count for the IP. */
  succeeded(): Promise<void>;
  /** The password was wrong (or the account unknown): it stays counted; logs the per-e-mail signal. */
  failed(): Promise<void>;
}

export interface SignInThrottleDeps {
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
}

/**
 * Wrong authenticator codes one account may get from anywhere in a window. Six digits, one step
 * either side accepted: each guess wins with odds of 3 in a million, so this keeps an attacker who
 * knows the password, on however many addresses, below 240 guesses a day.
 */
export const ACCOUNT_CODE_MAX_FAILURES = 10;
export const ACCOUNT_CODE_WINDOW_MS = 3_600_000;

const pairKey = (ip: string, email: string) => `login:pair:${ip}:${email}`;
const ipKey = (ip: string) => `login:ip-failures:${ip}`;
const emailSignalKey = (email: string) => `login:email-signal:${email}`;
const accountCodesKey = (userId: string) => `second-factor:account-codes:${userId}`;

/**
 * Call before checking the password. Answers 429 (with Retry-After) when this IP has reached its
 * ceiling or this (IP, e-mail) pair must still wait; otherwise counts the attempt as a failure up
 * front, atomically, so parallel guesses cannot slip past the count, and hands back what to call
 * once the password is checked.
 */
export async function beginSignIn(deps: SignInThrottleDeps, reply: FastifyReply, ip: string, email: string): Promise<SignInAttempt> {
  const { db, now } = deps;
  const at = now();

  const ipFailures = await hit(db, ipKey(ip), IP_WINDOW_MS, at);
  if (ipFailures.count > IP_MAX_FAILURES) {
    const seconds = secondsUntil(ipFailures.resetAt, at);
    reply.header("retry-after", String(seconds));
    throw tooManyRequests(`Too many failed sign-ins from your network. Please try again in ${formatWait(seconds)}.`);
  }
  const ipWindowStart = new Date(ipFailures.resetAt.getTime() - IP_WINDOW_MS);
  const refundIp = () =>
    db.execute(
      sql`update rate_limits set count = greatest(count - 1, 0)
          where key = ${ipKey(ip)} and window_started_at = ${ipWindowStart.toISOString()}`,
    );

  const reserved = await reservePairAttempt(db, pairKey(ip, email), at);
  if (reserved === "wait") {
    await refundIp();
    const seconds = await pairWaitSeconds(db, pairKey(ip, email), at);
    reply.header("retry-after", String(seconds));
    throw tooManyRequests(
      `Too many failed sign-ins for this e-mail. Please wait ${formatWait(seconds)} before trying again, or reset your password.`,
    );
  }

  return {
    async succeeded() {
      await refundIp();
      await db.execute(sql`delete from rate_limits where key = ${pairKey(ip, email)}`);
    },
    async failed() {
      const { count } = await hit(db, emailSignalKey(email), EMAIL_SIGNAL_WINDOW_MS, now());
      if (count === EMAIL_SIGNAL_FAILURES || (count > EMAIL_SIGNAL_FAILURES && count % 100 === 0)) {
        // Someone is guessing one account's password from many places: worth a look, never a block.
        // The e-mail is logged as a short hash (personal data stays out of the log).
        deps.log.warn({ emailHash: shortHash(email), failures: count, windowMinutes: 60 }, "many failed sign-ins for one e-mail");
      }
    },
  };
}

export interface CodeGuess {
  /** Seconds until the account's codes are taken again, once the ceiling is reached; null below it. */
  waitSeconds: number | null;
  /** The code was right: it does not count against the account. */
  accepted(): Promise<void>;
}

/**
 * Counts one authenticator-code guess against the account, up front and atomically like the pair
 * (parallel guesses cannot slip past), whichever address it comes from. Recovery codes and passkeys
 * are not counted: fifty random bits cannot be guessed, and they are how the owner gets in while
 * the codes wait.
 */
export async function countCodeGuess(deps: Pick<SignInThrottleDeps, "db" | "now">, userId: string): Promise<CodeGuess> {
  const at = deps.now();
  const { count, resetAt } = await hit(deps.db, accountCodesKey(userId), ACCOUNT_CODE_WINDOW_MS, at);
  const windowStart = new Date(resetAt.getTime() - ACCOUNT_CODE_WINDOW_MS);
  return {
    waitSeconds: count > ACCOUNT_CODE_MAX_FAILURES ? secondsUntil(resetAt, at) : null,
    async accepted() {
      await deps.db.execute(
        sql`update rate_limits set count = greatest(count - 1, 0)
            where key = ${accountCodesKey(userId)} and window_started_at = ${windowStart.toISOString()}`,
      );
    },
  };
}

/**
 * One atomic upsert: counts this attempt when the pair may try now, leaves the row alone when it
 * must wait (the WHERE of the DO UPDATE is false, so nothing is returned).
 */
async function reservePairAttempt(db: Db, key: string, at: Date): Promise<"ok" | "wait"> {
  const now = at.toISOString();
  const forgetBefore = new Date(at.getTime() - PAIR_FORGET_MS).toISOString();
  const rows = await queryRows<{ count: number }>(
    db,
    sql`insert into rate_limits (key, count, window_started_at) values (${key}, 1, ${now})
        on conflict (key) do update set
          count = case when rate_limits.window_started_at <= ${forgetBefore} then 1 else rate_limits.count + 1 end,
          window_started_at = ${now}
        where rate_limits.window_started_at <= ${forgetBefore}
           or rate_limits.count < ${PAIR_FREE_ATTEMPTS}
           or rate_limits.window_started_at
              + make_interval(secs => least(${PAIR_MAX_DELAY_S}, power(2, rate_limits.count - ${PAIR_FREE_ATTEMPTS}))) <= ${now}
        returning count`,
  );
  return rows.length > 0 ? "ok" : "wait";
}

async function pairWaitSeconds(db: Db, key: string, at: Date): Promise<number> {
  const [row] = await queryRows<{ count: number; window_started_at: string | Date }>(
    db,
    sql`select count, window_started_at from rate_limits where key = ${key}`,
  );
  if (!row) return 1;
  const allowedAt = new Date(new Date(row.window_started_at).getTime() + pairDelaySeconds(Number(row.count)) * 1000);
  return secondsUntil(allowedAt, at);
}

function secondsUntil(when: Date, at: Date): number {
  return Math.max(1, Math.ceil((when.getTime() - at.getTime()) / 1000));
}

function shortHash(value: string): string {
  return createHash("sha256").update(value).digest("hex").slice(0, 12);
}
