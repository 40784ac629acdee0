import { sql } from "drizzle-orm";
import { queryRows, type Db } from "../../src/server/db/client.js";
import { CHAT_RATE_LIMIT_PER_MINUTE } from "../../src/shared/chat.js";
import { CHAT_RATE_WINDOW_MS } from "../../src/server/features/chat/repository.js";
import { STUCK_PROCESSING_MS } from "../../src/shared/money-lifecycle.js";
import { SANDBOX_CARD, idList, sleep, taskBody, waitFor, type Actor, type Answer, type Traffic } from "./load.js";

// The mixed load of the fault tests: each worker is one poster running errands end to end (post a
// task, a provider claims it, the poster writes in its chat and pays through the sandbox card
// form) while the test breaks something underneath. A client that gets 503 or no answer retries
// the same step, as the web app's user would; every 2xx is written down as acknowledged, so the
// test can prove afterwards that each one is in the database.

export interface Acknowledged {
  /** Task id → its title (titles are unique per logical request, retries reuse them). */
  tasks: Map<string, string>;
  claims: Set<string>;
  /** Message id → its content. */
  messages: Map<string, string>;
  /** Task ids whose sandbox confirm answered 200. */
  payments: Set<string>;
}

export interface WorkloadOptions {
  label: string;
  /** Which server a request goes to; called per request (two instances alternate). */
  url: (n: number) => string;
  posters: Actor[];
  providers: Actor[];
  traffic: Traffic;
  /** Each confirm and intent counts against the card limit (20 per 15 min per poster). */
  paymentsPerPoster: number;
  /** Pause between steps, to keep the load modest on two cores. */
  pauseMs?: number;
}

export interface Workload {
  acked: Acknowledged;
  /** Requests that got a status no step expects (a 500, a 401 from a lost session…). */
  unexpected: string[];
  /**
   * Resolves once every worker has finished `rounds` more errands from now: before a fault, the
   * load is under way; after one, each worker came through what it retried. Counted, not timed, so
   * a slow machine waits longer instead of testing less; throws after `timeoutMs`.
   */
  rounds(rounds: number, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

const RETRY_MS = 150;

/** At most `max` takes per key within any `windowMs`. */
function slidingBudget(max: number, windowMs: number): { take(key: string): boolean } {
  const taken = new Map<string, number[]>();
  return {
    take(key) {
      const now = Date.now();
      const recent = (taken.get(key) ?? []).filter((at) => now - at < windowMs);
      if (recent.length >= max) return false;
      recent.push(now);
      taken.set(key, recent);
      return true;
    },
  };
}

export function startWorkload(options: WorkloadOptions): Workload {
  const acked: Acknowledged = { tasks: new Map(), claims: new Set(), messages: new Map(), payments: new Set() };
  const unexpected: string[] = [];
  let stopped = false;
  let sent = 0;
  const { traffic } = options;

  /** One step, repeated while the server says "try again" (503) or does not answer. */
  async function step(actor: Actor, method: string, path: string, body?: unknown): Promise<Answer | null> {
    for (;;) {
      const answer = await traffic.call(options.url(sent++), actor, method, path, body);
      if (answer.status !== 503 && answer.status !== 0) return answer;
      if (stopped) return null;
      await sleep(RETRY_MS);
    }
  }

  function note(what: string, answer: Answer, expected: number[]): boolean {
    if (expected.includes(answer.status)) return true;
    unexpected.push(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return false;
  }

  async function errand(worker: number, n: number, poster: Actor, payments: { left: number }): Promise<void> {
    const title = `${options.label} w${worker} #${n}`;
    const created = await step(poster, "POST", "/api/tasks", taskBody(title));
    if (!created || !note("create", created, [201])) return;
    const taskId = String(created.body.id);
    acked.tasks.set(taskId, title);
    const total = Number(created.body.totalAmount);

    const provider = options.providers[(worker + n) % options.providers.length];
    if (!provider || stopped) return;
    const claimed = await step(provider, "PATCH", `/api/tasks/${taskId}/claim`);
    // 409: a retried claim whose first try committed; the task is claimed either way.
    if (!claimed || !note("claim", claimed, [200, 409]) || claimed.status !== 200) return;
    acked.claims.add(taskId);

    // Stay under the chat rate limit (per user per minute): a fast machine would otherwise turn
    // part of the load into 429s, which say nothing about faults.
    if (stopped || !chatBudget.take(poster.id)) return;
    const content = `${title}: on my way?`;
    const sentMessage = await step(poster, "POST", "/api/messages", { taskId, content });
    if (!sentMessage || !note("message", sentMessage, [201])) return;
    acked.messages.set(String(sentMessage.body.id), content);

    if (payments.left <= 0 || stopped) return;
    payments.left -= 1;
    const intent = await step(poster, "POST", "/api/create-payment-intent", { taskId, amount: total });
    if (!intent || !note("payment intent", intent, [200])) return;
    const paid = await step(poster, "POST", "/api/sandbox/payments/confirm", { clientSecret: intent.body.clientSecret, ...SANDBOX_CARD });
    if (!paid) return;
    // 409: "already been paid" (a retried confirm whose first try committed) or "already being
    // processed" (the first try was cut off mid-way; recoverCutOffPayments deals with it).
    if (note("confirm", paid, [200, 409]) && paid.status === 200) acked.payments.add(taskId);
  }

  // Errands each worker has finished, and the waits of rounds(), checked at every finish.
  const finished = options.posters.map(() => 0);
  const waiting = new Set<() => void>();
  const chatBudget = slidingBudget(CHAT_RATE_LIMIT_PER_MINUTE - 5, CHAT_RATE_WINDOW_MS);
  const workers = options.posters.map(async (poster, worker) => {
    const payments = { left: options.paymentsPerPoster };
    for (let n = 0; !stopped; n += 1) {
      await errand(worker, n, poster, payments);
      finished[worker] = n + 1;
      for (const check of waiting) check();
      await sleep(options.pauseMs ?? 50);
    }
  });

  return {
    acked,
    unexpected,
    rounds(rounds, timeoutMs = 60_000) {
      const targets = finished.map((n) => n + rounds);
      return new Promise<void>((resolve, reject) => {
        const timeout = setTimeout(() => {
          waiting.delete(check);
          reject(new Error(`${options.label}: the workers finished ${finished.join(", ")} errands, not ${targets.join(", ")}, within ${timeoutMs} ms`));
        }, timeoutMs);
        function check() {
          if (finished.some((n, worker) => n < (targets[worker] ?? 0))) return;
          clearTimeout(timeout);
          waiting.delete(check);
          resolve();
        }
        waiting.add(check);
        check();
      });
    },
    async stop() {
      stopped = true;
      await Promise.all(workers);
    },
  };
}

export interface PaymentRecovery {
  /** Payments left "processing" by a confirm that was cut off. */
  cutOff: number;
  /** Of those, paid by the poster's retry once the server's sweep handed them back. */
  repaid: number;
  failures: string[];
}

/**
 * Proves a cut-off payment is not stuck for good: the test moves its "processing" mark back past
 * the stuck window (as if minutes went by), the server's own sweep hands it back as failed, and
 * the poster's retry then pays it, once.
 */
export async function recoverCutOffPayments(db: Db, traffic: Traffic, url: string, posters: Actor[]): Promise<PaymentRecovery> {
  const stuck = await queryRows<{ id: string; poster_id: string; client_secret: string | null }>(
    db,
    sql`select id::text, poster_id::text, client_secret from payments where status = 'processing'`,
  );
  const result: PaymentRecovery = { cutOff: stuck.length, repaid: 0, failures: [] };
  if (stuck.length === 0) return result;
  const ids = idList(stuck.map((p) => p.id));
  await db.execute(sql`update payments set updated_at = now() - ${`${STUCK_PROCESSING_MS + 60_000} milliseconds`}::interval where id = any(${ids}::uuid[])`);
  await waitFor(
    "the sweep to hand cut-off payments back",
    async () => {
      const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from payments where id = any(${ids}::uuid[]) and status = 'processing'`);
      return Number(row?.n) === 0;
    },
    10_000,
  );
  for (const payment of stuck) {
    const poster = posters.find((p) => p.id === payment.poster_id);
    if (!poster || !payment.client_secret) {
      result.failures.push(`${payment.id}: no poster or client secret`);
      continue;
    }
    const paid = await traffic.call(url, poster, "POST", "/api/sandbox/payments/confirm", { clientSecret: payment.client_secret, ...SANDBOX_CARD });
    if (paid.status === 200) result.repaid += 1;
    else result.failures.push(`${payment.id}: ${paid.status} ${JSON.stringify(paid.body)}`);
  }
  return result;
}
