import { randomBytes, randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import type { HTTPMethods, LightMyRequestResponse } from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/server/db/client.js";
import { providerProfiles } from "../../src/server/db/schema/providers.js";
import { tasks } from "../../src/server/db/schema/tasks.js";
import { users } from "../../src/server/db/schema/users.js";
import { hashPassword } from "../../src/server/features/auth/passwords.js";
import { createSession, hashToken } from "../../src/server/features/auth/sessions.js";
import { WEEKDAYS } from "../../src/shared/constants.js";
import { NOTIFICATION_KINDS } from "../../src/shared/notifications.js";
import type { TaskRow } from "../../src/server/transition-actions.js";
import { call, createUser, TEST_ORIGIN, useTestApp, type TestUser } from "../create-test-app.js";
import { GOOD_CARD } from "../fixtures/cards.js";
import { askQuestion, createApplicant, expire, makeOffer, postOffersTask, postRequestTask, postTask, taskRow, transition } from "../fixtures/factory.js";
import { tinyPdf, tinyPng } from "../fixtures/test-files.js";
import { EVIL_STRINGS, evil, junkJson, nearValue, toJsonText, validValue, type JsonSchema, type NamedValues } from "./schema-arbitrary.js";

// Every route, fuzzed from its own schemas (the OpenAPI document @fastify/swagger builds from the
// routes' zod schemas), by six kinds of caller. For every request:
//   1. no 5xx: client input never crashes the server;
//   2. a 4xx is JSON `{message}` and changes nothing in the database;
//   3. no answer carries a secret planted in the fixtures that this caller may not see.
// Failures print the route, the caller and the input; fast-check shrinks them and prints the seed.
// FUZZ_SEED and FUZZ_RUNS explore further than the fixed seed CI runs:
//   FUZZ_SEED=7 FUZZ_RUNS=300 npx vitest run --project server test/security/route-fuzz.test.ts

const BASE_SEED = Number(process.env.FUZZ_SEED ?? 20_260_601);
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);

const t = await useTestApp();
const { db } = t.database;

// ---------------------------------------------------------------------------------------------
// Routes: the OpenAPI operations, plus the routes it does not describe.

interface Parameter {
  in: "path" | "query" | "header" | "cookie";
  name: string;
  required?: boolean;
  schema: JsonSchema;
}
interface OpenApiOperation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}
interface OpenApi {
  paths: Record<string, Record<string, OpenApiOperation>>;
}

interface Operation {
  method: string;
  /** OpenAPI form: /api/tasks/{id}/claim. */
  path: string;
  params: Parameter[];
  query: Parameter[];
  headers: Parameter[];
  body: JsonSchema | null;
}

const label = (op: { method: string; path: string }) => `${op.method} ${op.path}`;

const openApi = t.app.swagger() as unknown as OpenApi;
const documented: Operation[] = Object.entries(openApi.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, op]) => {
    const parameters = op.parameters ?? [];
    return {
      method: method.toUpperCase(),
      path,
      params: parameters.filter((p) => p.in === "path"),
      query: parameters.filter((p) => p.in === "query"),
      headers: parameters.filter((p) => p.in === "header"),
      body: op.requestBody?.content["application/json"]?.schema ?? null,
    };
  }),
);

/** Every route the app serves under /api, /objects and /ws, read from Fastify's route tree. */
function servedRoutes(): { method: string; path: string }[] {
  const out: { method: string; path: string }[] = [];
  const stack: string[] = [];
  for (const line of t.app.printRoutes({ commonPrefix: false }).split("\n")) {
    const match = /^([│ ]*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? "").length / 4;
    stack.length = depth;
    stack.push(match[2] ?? "");
    const path = stack.join("").replace(/:(\w+)/g, "{$1}");
    if (!/^\/(api\/|objects\/|ws$)/.test(path)) continue;
    for (const method of (match[3] ?? "").split(", ").filter(Boolean)) {
      // HEAD is Fastify's automatic twin of GET; the fuzzer sends it to GET routes now and then.
      if (method !== "HEAD") out.push({ method, path });
    }
  }
  return out;
}

/**
 * Served but not in the OpenAPI document, so there is no schema to follow: they get the junk.
 * The chat socket (/ws, an upgrade) and the API documentation pages of @fastify/swagger-ui.
 */
const undocumented: Operation[] = servedRoutes()
  .filter((r) => !documented.some((op) => label(op) === label(r)))
  .map((r) => ({ ...r, params: [], query: [], headers: [], body: null }));
const operations = [...documented, ...undocumented];

// ---------------------------------------------------------------------------------------------
// Callers and fixtures: a poster with tasks in every state, the provider assigned to them, a
// plain user, an admin, an admin signed in with the password alone (no second factor yet), and a
// signed-out visitor. Secrets are planted wherever the data model holds something private, with
// who may see each.

type ActorName = "anonymous" | "user" | "poster" | "provider" | "admin" | "oneFactorAdmin";
interface Actor {
  login: TestUser | null;
  role: "user" | "provider" | "admin" | null;
  /**
   * Admin powers: the admin role on a session proven by two factors. An admin on one factor has
   * none, and sees what any user sees (src/server/policy.ts, docs/decisions/068).
   */
  admin: boolean;
}

type Audience =
  /** Never in an answer: password hashes, session tokens. */
  | { kind: "nobody" }
  /** These users (and admins). */
  | { kind: "people"; ids: string[] }
  /** The task's poster, its provider before or after the request, and admins. */
  | { kind: "task"; taskId: string }
  /** A blind review: its writer and admins, and everyone once the other side has reviewed too. */
  | { kind: "blind-review"; taskId: string; reviewerId: string; reviewedId: string };

interface Secret {
  what: string;
  value: string;
  audience: Audience;
}

/** Secrets by their first PREFIX characters, so an answer is scanned once whatever their number. */
const PREFIX = 8;
const secrets = new Map<string, Secret[]>();

function plant(what: string, audience: Audience, value = `ZQ${randomBytes(5).toString("hex")}`): string {
  if (value.length < PREFIX) throw new Error(`the ${what} is too short to be told from other text`);
  const key = value.slice(0, PREFIX);
  secrets.set(key, [...(secrets.get(key) ?? []), { what, value, audience }]);
  return value;
}

function unplant(value: string): void {
  const key = value.slice(0, PREFIX);
  secrets.set(key, (secrets.get(key) ?? []).filter((s) => s.value !== value));
}

/** Every planted secret that occurs in `text`. */
function secretsIn(text: string): Secret[] {
  const found = new Set<Secret>();
  for (let i = 0; i + PREFIX <= text.length; i += 1) {
    for (const secret of secrets.get(text.slice(i, i + PREFIX)) ?? []) {
      if (text.startsWith(secret.value, i)) found.add(secret);
    }
  }
  return [...found];
}

/**
 * Full last names: their owner, the other party of their tasks (the fixtures pair this poster with
 * this provider) and admins; everyone else sees "Maria G." (docs/product.md, "People you can see").
 */
const lastNameAudience: { kind: "people"; ids: string[] } = { kind: "people", ids: [] };
const posterLastName = plant("poster's full last name", lastNameAudience, `Zqposter${randomBytes(4).toString("hex")}`);
const providerLastName = plant("provider's full last name", lastNameAudience, `Zqprovider${randomBytes(4).toString("hex")}`);

const actors: Record<ActorName, Actor> = {
  anonymous: { login: null, role: null, admin: false },
  user: { login: await createUser(t), role: "user", admin: false },
  poster: { login: await createUser(t, { lastName: posterLastName }), role: "user", admin: false },
  provider: { login: await createUser(t, { verifiedProvider: true, lastName: providerLastName }), role: "provider", admin: false },
  admin: { login: await createUser(t, { role: "admin" }), role: "admin", admin: true },
  oneFactorAdmin: { login: await createUser(t, { role: "admin", secondFactor: false }), role: "admin", admin: false },
};
const ACTOR_NAMES = Object.keys(actors) as ActorName[];

function idOf(name: ActorName): string {
  const login = actors[name].login;
  if (!login) throw new Error(`${name} has no account`);
  return login.id;
}
const poster = () => idOf("poster");
const provider = () => idOf("provider");
lastNameAudience.ids.push(poster(), provider());

function login(name: ActorName): TestUser {
  const user = actors[name].login;
  if (!user) throw new Error(`${name} has no account`);
  return user;
}

function plantSession(login: TestUser): void {
  const token = login.cookie.slice(login.cookie.indexOf("=") + 1);
  plant("session token", { kind: "nobody" }, token);
  plant("session token hash", { kind: "nobody" }, hashToken(token));
}

/** Ids of rows that exist, so generated requests reach past "not found". */
const pool = {
  taskIds: [] as string[],
  userIds: [] as string[],
  emails: [] as string[],
  uploadIds: [] as string[],
  uploadUrls: [] as string[],
  objectPaths: [] as string[],
  tokens: [] as string[],
  clientSecrets: [] as string[],
  amounts: [] as number[],
  rowIds: [] as string[],
  /** Ledger transactions the poster has a receipt of (docs/decisions/060-receipts-from-the-ledger.md). */
  receiptIds: [] as string[],
  offerIds: [] as string[],
  questionIds: [] as string[],
  /** Photos in the disputed task's thread: evidence for its parties and admins only. */
  disputePhotoIds: [] as string[],
};

for (const name of ACTOR_NAMES) {
  const login = actors[name].login;
  if (!login) continue;
  plantSession(login);
  pool.userIds.push(login.id);
  pool.emails.push(login.email);
  plant(`${name}'s e-mail`, { kind: "people", ids: [login.id] }, login.email);
  const passwordHash = await hashPassword(randomBytes(12).toString("hex"));
  await db.update(users).set({ passwordHash }).where(eq(users.id, login.id));
  plant(`${name}'s password hash`, { kind: "nobody" }, passwordHash);
  plant(`${name}'s password hash`, { kind: "nobody" }, passwordHash.split("$").at(-1) ?? passwordHash);
}

await db
  .update(providerProfiles)
  .set({
    address: plant("provider's home address", { kind: "people", ids: [provider()] }),
    phone: plant("provider's phone", { kind: "people", ids: [provider()] }, `410${String(randomBytes(4).readUInt32BE() % 1e7).padStart(7, "0")}`),
    idDocumentPath: plant("provider's ID document path", { kind: "people", ids: [provider()] }, `/objects/${randomUUID()}`),
  })
  .where(eq(providerProfiles.userId, provider()));

// An applicant waiting for review: admins read the application, nobody else.
const applicant = await createApplicant(t);
pool.userIds.push(applicant.id);
plant("applicant's e-mail", { kind: "people", ids: [applicant.id] }, applicant.email);
await db
  .update(providerProfiles)
  .set({
    phone: plant("applicant's phone", { kind: "people", ids: [applicant.id] }, `443${String(randomBytes(4).readUInt32BE() % 1e7).padStart(7, "0")}`),
    address: plant("applicant's home address", { kind: "people", ids: [applicant.id] }),
    idDocumentPath: plant("applicant's ID document path", { kind: "people", ids: [applicant.id] }, `/objects/${randomUUID()}`),
  })
  .where(eq(providerProfiles.userId, applicant.id));

let coordinates = 0;
/**
 * A position with eight decimals, unique to this call (a counter, so no two tasks share one): the
 * exact one is private, the 0.01° one is public.
 */
function exactCoordinate(base: number, audience: Audience, what: string): number {
  coordinates += 1;
  const value = Math.round((base + coordinates * 1e-5 + 3e-8) * 1e8) / 1e8;
  plant(what, audience, String(value));
  return value;
}

let posted = 0;
/**
 * A task of the poster's, posted through the API (the factory), every address and exact position
 * in it a planted secret: every other one a route with a stop, the others a single address.
 */
async function insertTask(budgetCents: number): Promise<string> {
  posted += 1;
  // The server chooses the id; the secrets' audience learns it once the task exists.
  const audience = { kind: "task" as const, taskId: "" };
  const lat = exactCoordinate(38.9, audience, "task's exact latitude");
  const lon = exactCoordinate(-76.5, audience, "task's exact longitude");
  const place =
    posted % 2 === 0
      ? {
          startLocation: plant("task's start address", audience),
          startCity: "Annapolis",
          startState: "MD",
          startLat: lat,
          startLon: lon,
          endLocation: plant("task's end address", audience),
          endCity: "Baltimore",
          endState: "MD",
          endLat: exactCoordinate(39.2, audience, "task's exact end latitude"),
          endLon: exactCoordinate(-76.6, audience, "task's exact end longitude"),
          stops: [
            {
              address: plant("task's stop address", audience),
              city: "Glen Burnie",
              state: "MD",
              notes: plant("task's stop notes", audience),
              lat: 39.16,
              lon: -76.62,
            },
          ],
        }
      : { location: plant("task's street address", audience), city: "Annapolis", state: "MD", lat, lon };
  const task = await postTask(t, login("poster"), {
    budgetCents,
    body: { title: "Pick up and drop off a parcel", description: "Two stops on the way", category: "errands", ...place },
  });
  audience.taskId = task.id;
  pool.taskIds.push(task.id);
  pool.amounts.push(task.totalCents / 100);
  return task.id;
}

async function api(actor: ActorName, method: "GET" | "POST" | "PUT" | "PATCH", url: string, payload?: unknown) {
  const res = await call(t, actors[actor].login, {
    method,
    url,
    remoteAddress: randomIp(),
    ...(payload === undefined ? {} : Buffer.isBuffer(payload) ? { payload, headers: { "content-type": "application/pdf" } } : { payload: payload as object }),
  });
  if (res.statusCode >= 400) throw new Error(`fixture ${method} ${url} failed: ${res.statusCode} ${res.body}`);
  return res;
}

function randomIp(): string {
  const b = randomBytes(3);
  return `10.${b[0] ?? 0}.${b[1] ?? 0}.${b[2] ?? 1}`;
}

async function moved(step: Promise<TaskRow | null>, what: string): Promise<void> {
  if (!(await step)) throw new Error(`fixture ${what} was refused`);
}

async function claimedTask(budgetCents: number): Promise<string> {
  const id = await insertTask(budgetCents);
  await moved(transition(t, "claim", id, login("provider")), "claim");
  const { totalCents } = await taskRow(t, id);
  const intent = await api("poster", "POST", "/api/create-payment-intent", { taskId: id, amount: totalCents / 100 });
  pool.clientSecrets.push(intent.json<{ clientSecret: string }>().clientSecret);
  return id;
}

async function paidTask(budgetCents: number): Promise<string> {
  const id = await claimedTask(budgetCents);
  const clientSecret = pool.clientSecrets.at(-1);
  await api("poster", "POST", "/api/sandbox/payments/confirm", { clientSecret, ...GOOD_CARD });
  return id;
}

async function completedTask(budgetCents: number): Promise<string> {
  const id = await paidTask(budgetCents);
  await moved(transition(t, "start", id, login("provider")), "start");
  await moved(transition(t, "complete", id, login("provider")), "complete");
  return id;
}

// Tasks in every state the lifecycle has; $150 budgets so completion opens the approval window.
const chatTask = await paidTask(4000);
const reviewedTask = await completedTask(15_000);
const disputedTask = await completedTask(15_000);
await completedTask(15_000);
// The payment-deadline sweeper releases it once the window has run out (the clock moves to the deadline).
const expiredTask = await claimedTask(3000);
await expire(t, { id: expiredTask });
// A task that takes offers, with the provider's offer on it (docs/product.md, Offers).
const offersTask = await postOffersTask(t, login("poster"));
pool.taskIds.push(offersTask.id);
pool.offerIds.push(await makeOffer(t, login("provider"), offersTask.id));
// A public question by the provider on that open task (docs/product.md, Public questions).
pool.questionIds.push(await askQuestion(t, login("provider"), offersTask.id));
// A task the poster requested from the provider, waiting for the answer (docs/product.md, Requesting a provider).
pool.taskIds.push((await postRequestTask(t, login("poster"), login("provider"))).id);

for (const [from, to] of [
  ["poster", "provider"],
  ["provider", "poster"],
] as const) {
  const content = plant(`chat message from ${from}`, { kind: "people", ids: [idOf(from), idOf(to)] });
  const sent = await api(from, "POST", "/api/messages", { taskId: chatTask, content });
  pool.rowIds.push(sent.json<{ id: string }>().id);
}

await api("poster", "POST", `/api/tasks/${disputedTask}/report-problem`, {
  reason: "not_done",
  description: plant("dispute description", { kind: "task", taskId: disputedTask }),
});
const evidenceUrl = (await api("provider", "POST", "/api/objects/upload", { kind: "dispute_photo" })).json<{ uploadURL: string }>().uploadURL;
await api("provider", "PUT", evidenceUrl, tinyPng());
await api("provider", "POST", `/api/tasks/${disputedTask}/dispute/messages`, {
  body: plant("dispute answer", { kind: "task", taskId: disputedTask }),
  photoURLs: [evidenceUrl],
});
const disputeThread = (await api("provider", "GET", `/api/tasks/${disputedTask}/dispute`)).json<{ dispute: { messages: { photos: { id: string }[] }[] } }>();
pool.disputePhotoIds.push(...disputeThread.dispute.messages.flatMap((m) => m.photos.map((p) => p.id)));
await api("poster", "POST", "/api/reviews", {
  taskId: reviewedTask,
  reviewedId: provider(),
  rating: 4,
  comment: plant("blind review", { kind: "blind-review", taskId: reviewedTask, reviewerId: poster(), reviewedId: provider() }),
});

// What the public forms leave for the admin inbox.
const contactEmail = plant("contact form e-mail", { kind: "people", ids: [] }, `zq${randomBytes(4).toString("hex")}@example.test`);
await api("anonymous", "POST", "/api/contact", {
  name: "Curious Visitor",
  email: contactEmail,
  subject: "Question",
  message: plant("contact message", { kind: "people", ids: [] }),
});
await api("anonymous", "POST", "/api/appointments", {
  name: "Office Visitor",
  email: plant("appointment e-mail", { kind: "people", ids: [] }, `zq${randomBytes(4).toString("hex")}@example.test`),
  phone: "410 555 0100",
  reason: plant("appointment reason", { kind: "people", ids: [] }, `ZQ${randomBytes(8).toString("hex")}`),
  preferContact: "call",
  // 15:00 UTC: 11 AM at the office, within opening hours.
  appointmentDate: new Date(t.clock.now().getTime() + 3 * 86_400_000 + 3 * 3_600_000).toISOString(),
});

// The provider's ID document, readable by the provider and admins only.
async function newUploadUrl(actor: ActorName, kind?: "id_document" | "profile_photo"): Promise<string> {
  const res = await api(actor, "POST", "/api/objects/upload", kind ? { kind } : {});
  const url = res.json<{ uploadURL: string }>().uploadURL;
  pool.uploadUrls.push(url);
  pool.tokens.push(url.slice(url.lastIndexOf("/") + 1));
  return url;
}
// A comment line makes the file's bytes its own (a fuzzed upload of the bare PDF must not match).
const idDocumentUrl = await newUploadUrl("provider", "id_document");
const idFile = Buffer.concat([tinyPdf(), Buffer.from(`%${plant("provider's ID document file", { kind: "people", ids: [provider()] })}\n`)]);
await api("provider", "PUT", idDocumentUrl, idFile);
const idDocument = (await api("provider", "PUT", "/api/provider/set-id-document", { idDocumentURL: idDocumentUrl })).json<{ objectPath: string }>();
pool.objectPaths.push(idDocument.objectPath);
pool.uploadIds.push(idDocument.objectPath.slice("/objects/".length));

const receipts = await queryRows<{ id: string }>(db, sql`select id from ledger_transactions where kind in ('capture', 'tip', 'refund')`);
pool.receiptIds.push(...receipts.map((r) => r.id));

const notices = await queryRows<{ id: string }>(db, sql`select id from notifications`);
pool.rowIds.push(...notices.map((n) => n.id));

/**
 * Before each route: fresh counters, signed-in callers, and for a route that acts on a task a fresh
 * open and claimed one, so one route's successes (a claim, a cancel) leave the next something to act
 * on. (Only for those: every task lengthens the poster's and provider's lists.)
 */
async function refreshFixtures(op: Operation): Promise<{ providerUploadUrl: string }> {
  await db.execute(sql`delete from rate_limits`);
  // The last route's moderation undone (docs/product.md, Moderation): a suspended caller could not
  // sign in again, a revoked provider or a block could not claim the fixtures' tasks.
  await db.execute(sql`update users set suspended_at = null, suspension_reason = null where suspended_at is not null`);
  await db.execute(sql`delete from user_blocks`);
  await db.execute(sql`update provider_profiles set verification_status = 'approved', rejection_reason = null where user_id = ${provider()}`);
  for (const name of ACTOR_NAMES) await keepSignedIn(name);
  const actsOnTask = op.path.startsWith("/api/tasks/{id}") || op.params.some((p) => p.name === "taskId") || JSON.stringify(op.body ?? {}).includes('"taskId"');
  if (actsOnTask) {
    // A provider holds a few unpaid claims at most: the last refresh's claim runs out first.
    const unpaid = await queryRows<{ id: string }>(
      db,
      sql`select id from tasks where provider_id = ${idOf("provider")} and status = 'claimed' and payment_captured_at is null`,
    );
    // One sweep expires every claim due by then: a later one in the list may already be gone.
    for (const task of unpaid) if ((await taskRow(t, task.id)).status === "claimed") await expire(t, task);
    await insertTask(2500);
    await claimedTask(3500);
  }
  await newUploadUrl("user");
  return { providerUploadUrl: await newUploadUrl("provider", "profile_photo") };
}

/** A caller whose session a request ended (sign-out, sign-in) gets a new one. */
async function keepSignedIn(name: ActorName): Promise<void> {
  const { login, admin } = actors[name];
  if (!login) return;
  const token = login.cookie.slice(login.cookie.indexOf("=") + 1);
  const [alive] = await queryRows<{ ok: number }>(db, sql`select 1 as ok from sessions where token_hash = ${hashToken(token)}`);
  if (alive) return;
  // Proven as createUser proved the first one, so the admin keeps two factors and the one-factor admin one.
  const proof = { firstFactor: "password", secondFactor: admin ? "totp" : null } as const;
  const fresh = await createSession(db, login.id, { idleDays: t.env.SESSION_IDLE_DAYS, absoluteDays: t.env.SESSION_ABSOLUTE_DAYS }, t.clock.now(), {}, proof);
  login.cookie = `errandly_session=${fresh}`;
  plantSession(login);
}

// ---------------------------------------------------------------------------------------------
// The database fingerprint: per table, the row count and an md5 of every row as text.

/** Tables left out, each with why it may change when a request is refused. */
const UNFINGERPRINTED_TABLES: Record<string, string> = {
  rate_limits: "a limit counts every request it sees, the refused ones (and the 429 itself) included",
  security_events: "the security log records refused sign-ins, second steps, step-ups and admin requests by design (docs/decisions/050)",
};
/** Columns left out of a table that is otherwise fingerprinted. */
const UNFINGERPRINTED_COLUMNS: Record<string, { columns: string[]; why: string }> = {
  sessions: {
    columns: ["last_seen_at", "idle_expires_at"],
    why: "resolving a session extends its idle expiry (at most hourly, sessions.ts), whatever the answer",
  },
};
/** Refusals that change a table by design: the route, the table, the statuses, and why. */
const CHANGES_WHEN_REFUSED: Record<string, { table: string; statuses: number[]; why: string }[]> = {
  "PUT /api/objects/put/{token}": [
    {
      table: "uploads",
      statuses: [400, 413, 415],
      why: "the single-use link is spent before the body is checked, so a refused file cannot be retried on it (docs/decisions/009)",
    },
  ],
  "POST /api/sandbox/payments/confirm": [
    {
      table: "payments",
      statuses: [402, 409],
      why: "a declined card, or a window that closed, leaves the payment 'failed' with the reason, as a processor keeps the attempt; no money moves (docs/decisions/008)",
    },
  ],
};

const columns = await queryRows<{ table_name: string; column_name: string }>(
  db,
  sql`select c.table_name, c.column_name from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
      order by c.table_name, c.ordinal_position`,
);
const tableColumns = new Map<string, string[]>();
for (const { table_name: table, column_name: column } of columns) {
  if (table in UNFINGERPRINTED_TABLES || UNFINGERPRINTED_COLUMNS[table]?.columns.includes(column)) continue;
  tableColumns.set(table, [...(tableColumns.get(table) ?? []), column]);
}
const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const fingerprintQuery = sql.raw(
  [...tableColumns]
    .map(
      ([table, cols]) =>
        `select '${table}' as name, (select count(*) || ':' || md5(coalesce(string_agg(r, ',' order by r), '')) ` +
        `from (select row(${cols.map(quote).join(", ")})::text as r from ${quote(table)}) s) as digest`,
    )
    .join(" union all "),
);

interface Observation {
  /** The next transaction id: unchanged means nothing was written since. */
  xid: string;
  tables: Map<string, string>;
  /** Poster and provider of every task, for the "task" audience. */
  parties: Map<string, string[]>;
}

let observed: Observation | null = null;

async function taskParties(): Promise<Map<string, string[]>> {
  const rows = await queryRows<{ id: string; user_id: string; provider_id: string | null }>(db, sql`select id, user_id, provider_id from tasks`);
  return new Map(rows.map((r) => [r.id, r.provider_id ? [r.user_id, r.provider_id] : [r.user_id]]));
}

/** The database as it is now; re-read only when a transaction id was handed out since. */
async function observe(): Promise<Observation> {
  const [row] = await queryRows<{ xid: string }>(db, sql`select pg_snapshot_xmax(pg_current_snapshot())::text as xid`);
  const xid = row?.xid ?? "";
  if (observed?.xid === xid) return observed;
  const digests = await queryRows<{ name: string; digest: string }>(db, fingerprintQuery);
  observed = { xid, tables: new Map(digests.map((d) => [d.name, d.digest])), parties: await taskParties() };
  return observed;
}

// ---------------------------------------------------------------------------------------------
// Requests.

interface FuzzRequest {
  kind: "valid" | "near" | "junk";
  actor: ActorName;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload: string | Buffer | undefined;
  remoteAddress: string;
}

const fromPool = <T>(list: T[], fallback: T): fc.Arbitrary<T> => fc.nat().map((i) => (list.length > 0 ? (list[i % list.length] ?? fallback) : fallback));
// At 15:00 UTC: within the 9 AM-6 PM of a task (in UTC) and of the office (11 AM Eastern).
const daysAhead = fc.integer({ min: -2, max: 400 }).map((d) => new Date(t.clock.now().getTime() + d * 86_400_000 + 3 * 3_600_000).toISOString());

const email = fc
  .tuple(fc.stringMatching(/^[a-z0-9]{1,8}([._+-][a-z0-9]{1,6})?$/), fc.constantFrom("example.test", "mail.example.org"))
  .map(([local, domain]) => `${local}@${domain}`);
const state = fc.constantFrom("MD", "va", "", "DC");
const flags = (keys: readonly string[]) => fc.dictionary(fc.constantFrom(...keys), fc.boolean(), { maxKeys: keys.length });

/** Values by field name the published schemas cannot produce on their own (see NamedValues). */
const named: NamedValues = {
  taskId: { string: fromPool(pool.taskIds, randomUUID()) },
  reviewedId: { string: fromPool(pool.userIds, randomUUID()) },
  // What a report names: a person or a task that exists, so reports reach past "not found".
  targetId: { string: fc.oneof(fromPool(pool.userIds, randomUUID()), fromPool(pool.taskIds, randomUUID())) },
  userId: { string: fromPool(pool.userIds, randomUUID()) },
  email: { string: fc.oneof(email, fromPool(pool.emails, "a@example.test")), object: flags(NOTIFICATION_KINDS) },
  ids: { array: fc.array(fromPool(pool.rowIds, randomUUID()), { maxLength: 3 }) },
  clientSecret: { string: fromPool(pool.clientSecrets, "none") },
  amount: { number: fromPool(pool.amounts, 1) },
  budget: { number: fc.integer({ min: 2000, max: 500_000 }).map((cents) => cents / 100) },
  cardNumber: { string: fc.constantFrom("4242 4242 4242 4242", "4000 0000 0000 0002", "4000000000009995", "4242424242424241") },
  idDocumentURL: { string: fromPool(pool.uploadUrls, "/api/objects/put/x") },
  profilePhotoURL: { string: fromPool(pool.uploadUrls, "/api/objects/put/x") },
  idDocumentUrl: { string: fromPool(pool.objectPaths, "/objects/x") },
  profilePhotoUrl: { string: fromPool(pool.objectPaths, "/objects/x") },
  availability: { object: flags(WEEKDAYS) },
  phone: { string: fc.constantFrom("410-555-0100", "(443) 555 0199") },
  state: { string: state },
  startState: { string: state },
  endState: { string: state },
  appointmentDate: { string: daysAhead },
  scheduledDate: { string: daysAhead },
  // Time and turning up (decision 074): a proposed start, a calendar's zone (one the runtime does not know too).
  startsAt: { string: daysAhead },
  timeZone: { string: fc.constantFrom("America/New_York", "America/Los_Angeles", "Europe/Berlin", "Mars/Olympus_Mons") },
  q: { string: fc.constantFrom("Annapolis", "Baltimore, MD", "100 Main St, Annapolis") },
  // The admin's ledger search: accounts that exist, and dates either side of the fixtures'.
  account: { string: fc.oneof(fc.constantFrom("platform:revenue", "external:poster_payments", "external:refunds"), fromPool(pool.taskIds, randomUUID()).map((id) => `escrow:task:${id}`)) },
  from: { string: fc.constantFrom("2020-01-01", "2026-02-29", "2099-12-31") },
  to: { string: fc.constantFrom("2020-01-01", "2030-06-30", "1999-13-01") },
  // Web Push: a listed push service's address and base64url keys (they are only stored; nothing is sent here).
  push: { object: flags(NOTIFICATION_KINDS) },
  endpoint: { string: fc.constantFrom("https://fcm.googleapis.com/fcm/send/fuzz", "https://updates.push.services.mozilla.com/wpush/v2/fuzz", "http://169.254.169.254/") },
  p256dh: { string: fc.stringMatching(/^[A-Za-z0-9_-]{1,100}$/) },
  auth: { string: fc.stringMatching(/^[A-Za-z0-9_-]{1,30}$/) },
};

/** Values for path parameters: rows that exist first, by what the parameter names. */
function pathPool(op: Operation, name: string): fc.Arbitrary<string> {
  if (name === "token") return fromPool(pool.tokens, "x".repeat(30));
  if (name === "offerId") return fromPool(pool.offerIds, randomUUID());
  if (name === "questionId") return fromPool(pool.questionIds, randomUUID());
  if (name === "userId" || op.path.startsWith("/api/users/{id}") || op.path.startsWith("/api/providers/{id}")) return fromPool(pool.userIds, randomUUID());
  if (op.path.includes("/objects/")) return fromPool(pool.uploadIds, randomUUID());
  if (op.path.startsWith("/api/receipts/")) return fromPool(pool.receiptIds, randomUUID());
  if (op.path.startsWith("/api/dispute-photos/") && name === "photoId") return fromPool(pool.disputePhotoIds, randomUUID());
  if (name === "size") return fc.constantFrom("small", "medium", "large");
  if (name === "year") return fc.constantFrom(String(t.clock.now().getUTCFullYear()), "1999", "2101", "last");
  return fromPool(pool.taskIds, randomUUID());
}

const asText = (v: unknown): string => (typeof v === "string" ? v : toJsonText(v));

/** encodeURIComponent, with lone surrogates (which it refuses) replaced. */
const encode = (s: string) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, "\ufffd"));

const RAW_SEGMENTS = ["%zz", "%", "%00", "..", ".", "%2e%2e", "a%2Fb", "%E0%A4%A", "%c0%ae", "\u0000"];
const junkSegment = fc.oneof(
  fc.string({ maxLength: 40, unit: "binary" }).map(encode),
  fc.constantFrom(...EVIL_STRINGS).map(encode),
  fc.constantFrom(...RAW_SEGMENTS),
);

function pathArb(op: Operation, kind: FuzzRequest["kind"]): fc.Arbitrary<string> {
  const segments = op.params.map((p) => {
    const valid = fc.oneof(pathPool(op, p.name), validValue(p.schema).map(asText)).map(encode);
    if (kind === "valid") return valid;
    if (kind === "near") return fc.oneof(valid, evil(p.schema).map((v) => encode(asText(v))));
    return junkSegment;
  });
  return fc.tuple(...segments).map((values) => {
    let path = op.path;
    op.params.forEach((p, i) => {
      path = path.replace(`{${p.name}}`, values[i] ?? "");
    });
    return path.replace("*", "x");
  });
}

const RAW_QUERIES = ["?", "?&&=", "?a[b]=1", "?__proto__[isAdmin]=1", "?constructor[prototype][x]=1", "?%zz=1", "?q=%00", "?page=1&page=2", "?=1"];

function queryArb(op: Operation, kind: FuzzRequest["kind"]): fc.Arbitrary<string> {
  const schema: JsonSchema = {
    type: "object",
    properties: Object.fromEntries(op.query.map((p) => [p.name, p.schema])),
    required: op.query.filter((p) => p.required).map((p) => p.name),
  };
  const toQuery = (value: unknown) => {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return `?q=${encode(asText(value))}`;
    const params = new URLSearchParams();
    for (const [key, v] of Object.entries(value)) {
      for (const item of Array.isArray(v) ? v : [v]) params.append(key, asText(item));
    }
    const text = params.toString();
    return text ? `?${text}` : "";
  };
  if (kind === "valid") return validValue(schema, named).map(toQuery);
  if (kind === "near") return nearValue(schema, named).map(toQuery);
  return fc.oneof(
    fc.constantFrom(...RAW_QUERIES),
    fc.dictionary(fc.string({ maxLength: 10 }), fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom(...EVIL_STRINGS)), { maxKeys: 4 }).map(toQuery),
  );
}

const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "application/json; charset=utf-16le",
  "application/JSON",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/octet-stream",
  "image/png",
  "application/pdf",
];

const fileBody = fc.oneof(
  fc.constantFrom(tinyPng(), tinyPdf(), Buffer.from("MZ\x90\x00 not an image"), Buffer.from("<html><script>alert(1)</script>")),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
);

const junkBody: fc.Arbitrary<{ payload: string | Buffer; contentType: string }> = fc.oneof(
  fc.record({ payload: junkJson, contentType: fc.constant("application/json") }),
  fc.record({ payload: junkJson, contentType: fc.constantFrom(...CONTENT_TYPES) }),
  fc.record({ payload: fileBody, contentType: fc.constantFrom(...CONTENT_TYPES) }),
);

const HAS_BODY = new Set(["POST", "PUT", "PATCH", "DELETE"]);

function bodyArb(op: Operation, kind: FuzzRequest["kind"]): fc.Arbitrary<{ payload: string | Buffer; contentType: string } | null> {
  if (!HAS_BODY.has(op.method)) return fc.constant(null);
  const json = (value: unknown) => ({ payload: toJsonText(value), contentType: "application/json" });
  if (kind === "valid") return op.body ? validValue(op.body, named).map(json) : fc.constant(null);
  if (kind === "near") {
    if (op.body) return nearValue(op.body, named).map(json);
    return fc.oneof(fc.constant(null), fc.constant(json({})), fileBody.map((payload) => ({ payload, contentType: "application/octet-stream" })));
  }
  return fc.oneof(fc.constant(null), junkBody);
}

function headersArb(op: Operation, kind: FuzzRequest["kind"]): fc.Arbitrary<Record<string, string>> {
  const declared = fc.tuple(...op.headers.map((h) => fc.option(kind === "valid" ? validValue(h.schema).map(asText) : junkSegment))).map((values) =>
    Object.fromEntries(op.headers.flatMap((h, i) => (values[i] === null || values[i] === undefined ? [] : [[h.name, String(values[i])]]))),
  );
  if (kind !== "junk") return declared;
  // Cross-site writes must be refused before anything happens; the socket wants its own origin.
  const hostile = fc.constantFrom<Record<string, string>>(
    {},
    { origin: TEST_ORIGIN },
    { origin: TEST_ORIGIN, connection: "upgrade", upgrade: "websocket" },
    { origin: "https://evil.example" },
    { origin: "null" },
    { "sec-fetch-site": "cross-site" },
    { "content-encoding": "gzip" },
    { "x-forwarded-for": "1.2.3.4" },
  );
  return fc.tuple(declared, hostile).map(([a, b]) => ({ ...a, ...b }));
}

/** The poster, the provider and the admins own most of the data (or may seem to), so most paths go deep with them. */
const anyActor = fc.oneof(
  ...ACTOR_NAMES.map((name) => ({ arbitrary: fc.constant(name), weight: name === "anonymous" || name === "user" ? 1 : 2 })),
);

function requestArb(op: Operation): fc.Arbitrary<FuzzRequest> {
  const of = (kind: FuzzRequest["kind"]) =>
    fc
      .record({
        actor: anyActor,
        path: pathArb(op, kind),
        query: queryArb(op, kind),
        body: bodyArb(op, kind),
        headers: headersArb(op, kind),
        // Mostly a different address each time so per-IP limits leave deep paths reachable; now
        // and then the same one, so the limits themselves get hit.
        remoteAddress: fc.oneof({ arbitrary: fc.constant("127.0.0.1"), weight: 1 }, { arbitrary: fc.ipV4(), weight: 3 }),
        head: fc.boolean(),
      })
      .map(({ actor, path, query, body, headers, remoteAddress, head }): FuzzRequest => ({
        kind,
        actor,
        method: op.method === "GET" && kind === "junk" && head ? "HEAD" : op.method,
        url: `${path}${query}`,
        headers: body ? { ...headers, "content-type": body.contentType } : headers,
        payload: body?.payload,
        remoteAddress,
      }));
  return fc.oneof({ arbitrary: of("valid"), weight: 4 }, { arbitrary: of("near"), weight: 3 }, { arbitrary: of("junk"), weight: 2 });
}

// ---------------------------------------------------------------------------------------------
// The properties.

const statuses = new Map<string, Map<number, number>>();

function tally(op: Operation, status: number): void {
  const byStatus = statuses.get(label(op)) ?? new Map<number, number>();
  byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  statuses.set(label(op), byStatus);
}

function describeRequest(req: FuzzRequest, res: LightMyRequestResponse): string {
  return `${req.method} ${req.url.slice(0, 300)} as ${req.actor} (${req.kind}) answered ${res.statusCode}: ${res.body.slice(0, 300)}`;
}

async function visibleTo(secret: Secret, actor: Actor, before: Observation): Promise<boolean> {
  const { audience } = secret;
  if (audience.kind === "nobody") return false;
  if (audience.kind === "blind-review") {
    const [other] = await queryRows<{ ok: number }>(
      db,
      sql`select 1 as ok from reviews where task_id = ${audience.taskId} and reviewer_id = ${audience.reviewedId}`,
    );
    if (other) return true;
  }
  if (actor.admin) return true;
  const id = actor.login?.id;
  if (!id) return false;
  switch (audience.kind) {
    case "people":
      return audience.ids.includes(id);
    case "blind-review":
      return audience.reviewerId === id;
    case "task": {
      const after = await taskParties();
      return [before.parties, after].some((parties) => parties.get(audience.taskId)?.includes(id) ?? false);
    }
  }
}

async function exercise(op: Operation, req: FuzzRequest): Promise<LightMyRequestResponse> {
  const actor = actors[req.actor];
  const before = await observe();
  const res = await call(t, actor.login, {
    method: req.method as HTTPMethods,
    url: req.url,
    headers: req.headers,
    remoteAddress: req.remoteAddress,
    ...(req.payload === undefined ? {} : { payload: req.payload }),
  });
  // Work a route does after its answer (src/server/after-answer.ts) belongs to this request.
  await t.app.ctx.afterAnswer.settled();
  tally(op, res.statusCode);
  if (res.statusCode >= 500) throw new Error(`5xx on client input: ${describeRequest(req, res)}`);

  if (res.statusCode >= 400) {
    if (req.method !== "HEAD") {
      const type = String(res.headers["content-type"] ?? "");
      const message = type.startsWith("application/json") ? (res.json<{ message?: unknown }>().message ?? null) : null;
      if (typeof message !== "string" || message.length === 0) throw new Error(`4xx without a JSON {message}: ${describeRequest(req, res)}`);
    }
    const after = await observe();
    const allowed = (CHANGES_WHEN_REFUSED[label(op)] ?? []).filter((c) => c.statuses.includes(res.statusCode)).map((c) => c.table);
    const changed = [...after.tables].filter(([table, digest]) => before.tables.get(table) !== digest && !allowed.includes(table)).map(([table]) => table);
    if (changed.length > 0) throw new Error(`refused, yet changed ${changed.join(", ")}: ${describeRequest(req, res)}`);
  }

  const answer = `${res.rawPayload.toString("latin1")}\n${String(res.headers.location ?? "")}`;
  const asked = `${req.url}\n${JSON.stringify(req.headers)}\n${Buffer.isBuffer(req.payload) ? req.payload.toString("latin1") : (req.payload ?? "")}`;
  for (const secret of secretsIn(answer)) {
    if (asked.includes(secret.value)) continue;
    if (!(await visibleTo(secret, actor, before))) throw new Error(`leaked the ${secret.what} to ${req.actor}: ${describeRequest(req, res)}`);
  }

  if (res.headers["set-cookie"]) await keepSignedIn(req.actor);
  return res;
}

const request = (actor: ActorName, method: string, url: string, extra: Partial<FuzzRequest> = {}): FuzzRequest => ({
  kind: "valid",
  actor,
  method,
  url,
  headers: {},
  payload: undefined,
  remoteAddress: "127.0.0.1",
  ...extra,
});

/** Inputs that once broke a route, replayed first on every run (fast-check `examples`). */
const REGRESSIONS: Record<string, (fresh: { providerUploadUrl: string }) => FuzzRequest[]> = {
  // 500: a PUT with no body has no stream to read (objects-routes.ts).
  "PUT /api/objects/put/{token}": (fresh) => [request("provider", "PUT", fresh.providerUploadUrl)],
  // An empty 404 without {message}: a plain GET is not a WebSocket upgrade (chat/socket.ts).
  "GET /ws": () => [request("user", "GET", "/ws", { headers: { origin: TEST_ORIGIN } })],
  // 500: a subnormal latitude underflowed radians() in the distance sort (task-repository.ts).
  // The job board's filters: the same underflow through near, a ZIP code nobody has, a box across the 180° meridian.
  "GET /api/tasks/open": () => [
    request("anonymous", "GET", "/api/tasks/open?lat=5e-324&lon=0"),
    request("anonymous", "GET", "/api/tasks/open?near=5e-324,0&radiusMiles=5&sort=distance"),
    request("anonymous", "GET", "/api/tasks/open?near=00000&radiusMiles=50"),
    request("anonymous", "GET", "/api/tasks/open?near=51.9,179.99&radiusMiles=50&minBudget=0&maxBudget=100000&when=today"),
    // The map's area (decision 031): the poles, the whole world, a subnormal corner, with a radius too.
    request("anonymous", "GET", "/api/tasks/open?bbox=-180,-90,180,90&sort=budget_asc"),
    request("anonymous", "GET", "/api/tasks/open?bbox=0,5e-324,1,1&near=0,0&radiusMiles=50&sort=distance"),
  ],
  "GET /api/tasks/open/radius-counts": () => [request("anonymous", "GET", "/api/tasks/open/radius-counts?near=89.99,0&radiusMiles=50&when=flexible")],
  // Background checks (decision 064): a consider that pauses the provider, a date past year 9999's
  // reach and an impossible day; a signed-looking webhook with no service connected.
  "POST /api/admin/providers/{userId}/background-checks": () => [
    request("admin", "POST", `/api/admin/providers/${idOf("provider")}/background-checks`, {
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ checkedWhat: "County records", result: "consider", checkedOn: "2026-01-02", reason: "A record to look at" }),
    }),
    request("admin", "POST", `/api/admin/providers/${idOf("provider")}/background-checks`, {
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ checkedWhat: "County records", result: "clear", checkedOn: "9999-12-31" }),
    }),
    request("admin", "POST", `/api/admin/providers/${idOf("provider")}/background-checks`, {
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ checkedWhat: "County records", result: "clear", checkedOn: "2026-02-30" }),
    }),
  ],
  "POST /api/background-checks/checkr/webhook": () => [
    request("anonymous", "POST", "/api/background-checks/checkr/webhook", {
      headers: { "content-type": "application/json", "x-checkr-signature": "0".repeat(64) },
      payload: JSON.stringify({ id: "evt_1", type: "report.completed", data: { object: { object: "report" } } }),
    }),
  ],
};

function seedOf(op: Operation): number {
  let h = BASE_SEED;
  for (const ch of label(op)) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  return h;
}

describe("route fuzzing", () => {
  it("covers every route the app serves", () => {
    const fuzzed = new Set(operations.map(label));
    const missing = servedRoutes().map(label).filter((r) => !fuzzed.has(r));
    expect(missing).toEqual([]);
    // The undocumented ones are known and few: anything new belongs in the OpenAPI document.
    expect(undocumented.map(label).filter((r) => !/^GET \/(ws|api\/docs)/.test(r))).toEqual([]);
    expect(documented.length).toBeGreaterThan(50);
  });

  it("fingerprints every table but the ones named, and those exist", () => {
    const tables = new Set(columns.map((c) => c.table_name));
    const excluded = [...Object.keys(UNFINGERPRINTED_TABLES), ...Object.keys(UNFINGERPRINTED_COLUMNS)];
    expect(excluded.filter((name) => !tables.has(name))).toEqual([]);
    expect([...tables].filter((name) => !tableColumns.has(name))).toEqual(Object.keys(UNFINGERPRINTED_TABLES));
    expect(Object.values(UNFINGERPRINTED_COLUMNS).flatMap((c) => c.columns).filter((c) => !columns.some((k) => k.column_name === c))).toEqual([]);
  });

  it("answers unknown paths under /api with a JSON 4xx", async () => {
    const unknown: Operation = { method: "ANY", path: "/api/(unknown)", params: [], query: [], headers: [], body: null };
    const requests = fc
      .record({
        actor: anyActor,
        method: fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"),
        segments: fc.array(junkSegment, { minLength: 1, maxLength: 3 }),
        body: fc.option(junkBody),
      })
      .map(({ actor, method, segments, body }) =>
        request(actor, method, `/api/zz${segments.join("/")}`, body && method !== "GET" ? { payload: body.payload, headers: { "content-type": body.contentType } } : {}),
      );
    await fc.assert(
      fc.asyncProperty(requests, async (req) => {
        expect((await exercise(unknown, req)).statusCode).toBeGreaterThanOrEqual(400);
      }),
      { numRuns: RUNS, seed: BASE_SEED },
    );
  });

  // Each check must be able to fail: these plant the very fault it looks for, in this file's own
  // database copy, and expect the check to report it.
  describe("its checks fail when they should", () => {
    const opOf = (name: string): Operation => {
      const op = operations.find((o) => label(o) === name);
      if (!op) throw new Error(`no route ${name}`);
      return op;
    };

    it("reports a secret in a stranger's answer", async () => {
      const [row] = await db.select({ title: tasks.title }).from(tasks).where(eq(tasks.id, chatTask));
      const canary = plant("canary title", { kind: "task", taskId: chatTask });
      await db.update(tasks).set({ title: canary }).where(eq(tasks.id, chatTask));
      try {
        await expect(exercise(opOf("GET /api/tasks/{id}"), request("anonymous", "GET", `/api/tasks/${chatTask}`))).rejects.toThrow(
          /leaked the canary title to anonymous/,
        );
      } finally {
        await db.update(tasks).set({ title: row?.title ?? "Task" }).where(eq(tasks.id, chatTask));
        unplant(canary);
      }
    });

    it("reports a refused request that wrote", async () => {
      // The sign-in limiter writes rate_limits (not fingerprinted); the trigger turns that into a
      // write the fingerprint sees, on a request answered 401.
      await db.execute(sql`create function fuzz_canary() returns trigger language plpgsql as $$
        begin insert into audit_log (action, target_type, target_id) values ('canary', 'test', 'canary'); return new; end $$`);
      await db.execute(sql`create trigger fuzz_canary after insert or update on rate_limits for each row execute function fuzz_canary()`);
      try {
        const login = request("anonymous", "POST", "/api/auth/login", {
          headers: { "content-type": "application/json" },
          payload: JSON.stringify({ email: "nobody@example.test", password: "not the password" }),
        });
        await expect(exercise(opOf("POST /api/auth/login"), login)).rejects.toThrow(/refused, yet changed audit_log/);
      } finally {
        await db.execute(sql`drop trigger fuzz_canary on rate_limits`);
        await db.execute(sql`drop function fuzz_canary()`);
        await db.execute(sql`delete from audit_log where action = 'canary'`);
      }
    });

    it("reports a 5xx", async () => {
      await db.execute(sql`create function fuzz_canary_fail() returns trigger language plpgsql as $$ begin raise exception 'canary'; end $$`);
      await db.execute(sql`create trigger fuzz_canary_fail before insert on contact_messages for each row execute function fuzz_canary_fail()`);
      try {
        const contact = request("anonymous", "POST", "/api/contact", {
          headers: { "content-type": "application/json" },
          payload: JSON.stringify({ name: "Canary", email: "canary@example.test", subject: "Canary", message: "Canary" }),
          remoteAddress: randomIp(),
        });
        await expect(exercise(opOf("POST /api/contact"), contact)).rejects.toThrow(/5xx on client input/);
      } finally {
        await db.execute(sql`drop trigger fuzz_canary_fail on contact_messages`);
        await db.execute(sql`drop function fuzz_canary_fail()`);
      }
    });
  });

  for (const op of operations) {
    // The documentation pages (@fastify/swagger-ui) are costly to build and take no input of ours.
    const runs = op.path.startsWith("/api/docs") ? Math.ceil(RUNS / 8) : RUNS;
    it(label(op), async () => {
      const fresh = await refreshFixtures(op);
      const examples = (REGRESSIONS[label(op)]?.(fresh) ?? []).map((r): [FuzzRequest] => [r]);
      const property = fc.asyncProperty(requestArb(op), async (req) => {
        await exercise(op, req);
      });
      await fc.assert(property, { numRuns: runs, seed: seedOf(op), examples });
    }, 120_000);
  }
});

afterAll(() => {
  // How deep the runs went: a route that never answers below 400 only ever tested its refusals.
  const counts = [...statuses.values()].map((byStatus) => [...byStatus.values()].reduce((a, b) => a + b, 0));
  const shallow = [...statuses].filter(([, byStatus]) => ![...byStatus.keys()].some((s) => s < 400)).map(([route]) => route);
  console.info(
    `route fuzz: ${statuses.size} routes, ${counts.reduce((a, b) => a + b, 0)} requests; only refusals from: ${shallow.join(", ") || "none"}`,
  );
});
