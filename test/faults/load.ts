import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import WebSocket from "ws";
import { queryRows, type Db } from "../../src/server/db/client.js";
import { insertApprovedProfile } from "../fixtures/approved-provider.js";
import { users } from "../../src/server/db/schema/users.js";
import { createSession } from "../../src/server/features/auth/sessions.js";

// The people and the traffic of the fault tests: signed-in users made straight in the database
// (no sign-in rate limits), and an HTTP client that tallies every answer so a test can say how
// many requests were acknowledged, refused with 503, failed with another 5xx or got no answer.

export interface Actor {
  id: string;
  cookie: string;
}

export async function createActors(db: Db, count: number, kind: "poster" | "provider"): Promise<Actor[]> {
  const actors: Actor[] = [];
  for (let i = 0; i < count; i += 1) {
    const email = `${kind}-${i}-${randomUUID().slice(0, 8)}@faults.test`;
    const [user] = await db
      .insert(users)
      .values({ email, firstName: kind === "poster" ? "Paula" : "Pedro", lastName: `${kind}${i}`, role: kind === "poster" ? "user" : "provider", passwordHash: null, emailVerifiedAt: new Date() })
      .returning();
    if (!user) throw new Error("user not inserted");
    if (kind === "provider") {
      await insertApprovedProfile(db, { id: user.id, email, fullName: `Pedro ${kind}${i}`, bio: "Fault-test provider" });
    }
    const token = await createSession(db, user.id, { idleDays: 7, absoluteDays: 30 }, new Date());
    actors.push({ id: user.id, cookie: `errandly_session=${token}` });
  }
  return actors;
}

export interface Answer {
  /** 0 when no HTTP answer came (connection refused or reset, timeout). */
  status: number;
  body: Record<string, unknown>;
  error?: string;
}

export class Traffic {
  readonly statuses = new Map<number, number>();
  readonly noAnswer: string[] = [];
  /** Answers 500 and up other than 503, with what was asked. */
  readonly serverErrors: string[] = [];
  /** 503 answers, with what was asked and the start of the answer (whose line or outage it was). */
  readonly unavailable: string[] = [];
  /** Set while a test knowingly has no server listening (between a kill and the restart). */
  serverDown = false;
  noAnswerWhileDown = 0;
  /** "METHOD path" of each request waiting for its answer. */
  readonly inFlight = new Map<number, string>();
  /** Each request that got no answer or a 5xx other than 503: its id, when it started, what it was. */
  readonly failures: { id: number; startedAt: number; answered: boolean; what: string }[] = [];
  private nextId = 0;

  async call(baseUrl: string, actor: Actor | null, method: string, path: string, body?: unknown): Promise<Answer> {
    const headers: Record<string, string> = { origin: baseUrl };
    if (actor) headers.cookie = actor.cookie;
    if (body !== undefined) headers["content-type"] = "application/json";
    const id = this.nextId++;
    const startedAt = Date.now();
    this.inFlight.set(id, `${method} ${path}`);
    try {
      const res = await fetch(`${baseUrl}${path}`, {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        // A request the server holds longer than this counts as a hang, which is a failure.
        signal: AbortSignal.timeout(20_000),
      });
      const text = await res.text();
      this.statuses.set(res.status, (this.statuses.get(res.status) ?? 0) + 1);
      if (res.status >= 500 && res.status !== 503) {
        this.serverErrors.push(`${method} ${path}: ${res.status} ${text}`);
        this.failures.push({ id, startedAt, answered: true, what: `${method} ${path}: ${res.status}` });
      }
      if (res.status === 503) this.unavailable.push(`${method} ${path}: ${text.slice(0, 120)}`);
      return { status: res.status, body: parseBody(text) };
    } catch (err) {
      const message = describe(err);
      if (this.serverDown) this.noAnswerWhileDown += 1;
      else {
        this.noAnswer.push(`${method} ${path}: ${message}`);
        this.failures.push({ id, startedAt, answered: false, what: `${method} ${path}: ${message}` });
      }
      return { status: 0, body: {}, error: message };
    } finally {
      this.inFlight.delete(id);
    }
  }

  count(predicate: (status: number) => boolean): number {
    let n = 0;
    for (const [status, c] of this.statuses) if (predicate(status)) n += c;
    return n;
  }

  /** "200:812 201:95 409:40 503:310" */
  summary(): string {
    return [...this.statuses.entries()]
      .sort(([a], [b]) => a - b)
      .map(([s, c]) => `${s}:${c}`)
      .join(" ");
  }
}

function parseBody(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function describe(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return cause.code;
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** What beforeAll set up, or an error saying it was not. */
export function need<T>(value: T | null, what: string): T {
  if (value === null) throw new Error(`${what} was not set up`);
  return value;
}

/** A uuid[] literal for `= any(...::uuid[])`. */
export const idList = (ids: string[]) => `{${ids.join(",")}}`;

export const SANDBOX_CARD = { cardNumber: "4242424242424242", expMonth: 12, expYear: 2099, cvc: "123" };

export function taskBody(title: string, budget = 25): Record<string, unknown> {
  return { title, description: "Fault-injection errand", category: "errands", budget, location: "1 Main St", city: "Annapolis", state: "MD" };
}

/** A setup step that must succeed: the answer's body, or an error naming what went wrong. */
async function must(traffic: Traffic, expected: number, ...args: Parameters<Traffic["call"]>): Promise<Record<string, unknown>> {
  const answer = await traffic.call(...args);
  if (answer.status !== expected) throw new Error(`${args[2]} ${args[3]}: ${answer.status} ${answer.error ?? JSON.stringify(answer.body)}`);
  return answer.body;
}

/** A task posted and claimed through the API; returns its id and total in dollars. */
export async function claimedTask(traffic: Traffic, url: string, poster: Actor, provider: Actor, title: string, budget = 25) {
  const task = await must(traffic, 201, url, poster, "POST", "/api/tasks", taskBody(title, budget));
  const id = String(task.id);
  await must(traffic, 200, url, provider, "PATCH", `/api/tasks/${id}/claim`);
  return { id, total: Number(task.totalAmount) };
}

/** A task taken all the way to completed (paid, started, completed) through the API. */
export async function completedTask(traffic: Traffic, url: string, poster: Actor, provider: Actor, title: string, budget: number) {
  const task = await claimedTask(traffic, url, poster, provider, title, budget);
  const intent = await must(traffic, 200, url, poster, "POST", "/api/create-payment-intent", { taskId: task.id, amount: task.total });
  await must(traffic, 200, url, poster, "POST", "/api/sandbox/payments/confirm", { clientSecret: intent.clientSecret, ...SANDBOX_CARD });
  await must(traffic, 200, url, provider, "PATCH", `/api/tasks/${task.id}/start`);
  await must(traffic, 200, url, provider, "PATCH", `/api/tasks/${task.id}/complete`);
  return task;
}

/** Polls until `check` returns true; throws with `what` when `timeoutMs` passes. */
export async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number, everyMs = 200): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check().catch(() => false)) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** A chat socket joined to a task's room, collecting the messages it is pushed. */
export interface RoomSocket {
  received: string[];
  /** The close code and time (epoch ms) once the socket closed. */
  closed(): { code: number; at: number } | null;
  close(): void;
}

export async function joinRoom(baseUrl: string, actor: Actor, taskId: string): Promise<RoomSocket> {
  const socket = new WebSocket(`${baseUrl.replace("http", "ws")}/ws`, { headers: { cookie: actor.cookie, origin: baseUrl } });
  const received: string[] = [];
  let joined = false;
  let closed: { code: number; at: number } | null = null;
  socket.on("close", (code: number) => {
    closed = { code, at: Date.now() };
  });
  socket.on("message", (data: WebSocket.RawData) => {
    const frame = JSON.parse(String(data)) as { type: string; content?: string };
    if (frame.type === "auth_success") joined = true;
    if (frame.type === "message" && frame.content) received.push(frame.content);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  socket.send(JSON.stringify({ type: "auth", taskId }));
  await waitFor("the socket to join the room", async () => joined, 5_000, 50);
  return { received, closed: () => closed, close: () => socket.close() };
}

/** The numbers of rows matching each id, to prove acknowledged writes exist exactly once. */
export async function rowCounts(db: Db, table: "tasks" | "messages", ids: string[]): Promise<Map<string, number>> {
  const counts = new Map(ids.map((id) => [id, 0]));
  if (ids.length === 0) return counts;
  const rows = await queryRows<{ id: string; n: number }>(
    db,
    sql`select id::text as id, count(*)::int as n from ${sql.identifier(table)} where id = any(${idList(ids)}::uuid[]) group by id`,
  );
  for (const row of rows) counts.set(row.id, Number(row.n));
  return counts;
}

/** Of the tasks whose payment was acknowledged, those without a captured payment in the database. */
export async function unpaidTasks(db: Db, taskIds: string[]): Promise<string[]> {
  if (taskIds.length === 0) return [];
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select t.id::text as id from tasks t where t.id = any(${idList(taskIds)}::uuid[])
      and (t.payment_captured_at is null or not exists (select 1 from payments p where p.task_id = t.id and p.status = 'captured'))`,
  );
  const found = await rowCounts(db, "tasks", taskIds);
  return [...rows.map((r) => r.id), ...[...found].filter(([, n]) => n === 0).map(([id]) => id)];
}
