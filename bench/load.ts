import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import pg from "pg";
import { migrateDatabase, openDatabase, queryRows, type Database } from "../src/server/db/client.js";
import { openEmbeddedPostgres, type EmbeddedPostgres } from "../src/server/db/embedded-postgres.js";
import { openTasksSql } from "../src/server/features/tasks/board-query.js";
import { CATEGORY_VALUES } from "../src/shared/constants.js";
import { startPostgresCluster } from "../test/postgres-cluster.js";
import { startPgBouncer } from "../test/faults/topology-processes.js";
import { startAppServer, startHelloWorld, warnIfStale, type AppServer } from "./app-server.js";
import { benchArgs } from "./args.js";
import { addStatements, buildsOption, copyDataDir, embeddedUrl, preloadSettings, seededDirectory, seedingGroups, serverLogOf, statements, statementsReport, statementsSideBySide, type Build, type SeededDirectory, type Statement } from "./builds.js";
import { Comparison, loadAverageNow, type Figure } from "./compare-report.js";
import { Inspector, inspectorUrlOf } from "./inspector.js";
import { clusterCpuSeconds, cpuSecondsOf, embeddedPostmaster, memoryOf, statOf, systemSecondsOf, threadCpuSeconds, type Memory } from "./processes.js";
import { instanceCounts, loadAverage, startStack, type Stack } from "./balancer.js";
import { databasesOption, externalPostgres, pgbenchPath, serverVersion, type BenchDatabase, type BenchDatabaseHandle, type ExternalPostgres } from "./databases.js";

// Mixed load (docs/benchmarks.md, "Mixed load (bench:load)"): the BUILT server
// (dist/server/server/main.js, NODE_ENV=production) in a child process, on the two databases of
// bench/databases.ts, seeded with generate_series (10k users with sessions, a fifth of them
// approved providers; 100k tasks, mostly open, some in progress with a chat, some completed with
// reviews), driven by N keep-alive connections in this process for D seconds with the mix of issue 8:
//   70% job board (browse and search), 15% task detail, 5% post a task,
//    5% claim -> pay (sandbox card) -> start -> complete, 5% chat (read and send).
// Beside it, the machine's ceiling: Fastify's hello world through the same load generator, and
// pgbench running the job board's first-page SQL (bench/job-board-query.sql) on the same data, on
// each database server (both are real PostgreSQL servers).
//
//   npm run build && npm run bench:load
//   npm run bench:load -- --duration=60 --connections=100 --databases=embedded,postgres --tasks=100000 --users=10000
//   other options: --warmup=5 (s, not measured), --timeout=30000 (ms, a timeout is an error),
//   --ceilings=false (skip hello world and pgbench), --server=path/to/main.js, --timeline (requests
//   completed each second and the slowest requests, to spot stalls), --rounds=N (both servers up,
//   N measurements of --duration each, alternating between the databases: for a noisy machine),
//   --postgres-fsync=on (the Debian throwaway cluster with fsync on, as the embedded server runs),
//   --pool=N (the server's DATABASE_POOL_SIZE), --in-flight=N (its MAX_CONCURRENT_REQUESTS; a list
//   such as --in-flight=32,1000 runs one server per value on each database, alternating with --rounds)
//   npm run bench:load -- --topology=haproxy --instances=1,3 --rounds=3   one seeded database on
//   a throwaway PostgreSQL behind PgBouncer, and HAProxy in front of 1 and of 3 built instances
//   (bench/balancer.ts), measured alternately; medians of the rounds and the ratio
//   npm run bench:compare -- --base=<ref> load --rounds=4 --duration=30   two builds side by side
//   (bench/compare.ts passes --builds=LABEL:DIR,LABEL:DIR; see runBuilds), with --statements,
//   --cpu-prof[=DIR], --alloc-prof[=DIR], --heap-snapshot[=DIR], --memory-timeline, --explain[=RATE], --hello-duration=S,
//   --fresh-seed, --keep-data (docs/benchmarks.md, "Side by side")
//   npm run bench:load -- --write-query        regenerate bench/job-board-query.sql and exit
//   npm run bench:load -- --seed-only=postgres://...|/data/dir   seed that database and keep it (EXPLAIN, profiling)
//
// embedded: the server gets a fresh DATA_DIR and no DATABASE_URL, so it starts its own PostgreSQL
// from the npm binaries, as the product does by default. The bench seeds that cluster first
// (openEmbeddedPostgres on the same directory), stops it, and lets the server start it.
// postgres: DATABASE_URL's server when set (a throwaway database is created there and dropped
// afterwards), else a throwaway cluster from Debian's /usr/lib/postgresql/*/bin (fsync off,
// max_connections 200); the server gets DATABASE_URL and STORAGE_DIR.

const ROOT = resolve(import.meta.dirname, "..");
const QUERY_FILE = join(ROOT, "bench", "job-board-query.sql");

const args = benchArgs();
const DURATION_S = Number(args.get("duration") ?? 60);
const WARMUP_S = Number(args.get("warmup") ?? 5);
const CONNECTIONS = Number(args.get("connections") ?? 100);
const TASKS = Number(args.get("tasks") ?? 100_000);
const USERS = Number(args.get("users") ?? 10_000);
const TIMEOUT_MS = Number(args.get("timeout") ?? 30_000);
const DATABASES = databasesOption(args.get("databases"));
// --in-flight=N or a list: the servers' MAX_CONCURRENT_REQUESTS (null: the server's default).
const IN_FLIGHT: (string | null)[] = args.has("in-flight") ? (args.get("in-flight") ?? "").split(",") : [null];
const CEILINGS = args.get("ceilings") !== "false";
/** Measurements per database, alternating between the databases (see runDatabases). */
const ROUNDS = Number(args.get("rounds") ?? 1);
/** --topology=haproxy: through the balancer and pooler (runBalanced) instead of one server per database. */
const TOPOLOGY = args.get("topology") ?? "direct";
const SERVER_ENTRY = resolve(ROOT, args.get("server") ?? "dist/server/server/main.js");
/** A fifth of the users are approved providers: enough distinct claimers that races stay rare. */
const PROVIDERS = Math.max(2, Math.floor(USERS / 5));

// ---- the world the load generator knows ------------------------------------------------------

interface User {
  id: string;
  n: number;
  cookie: string;
  provider: boolean;
}
interface SeededTask {
  id: string;
  userId: string;
  providerId: string | null;
  status: string;
}
interface World {
  users: User[];
  byId: Map<string, User>;
  providers: User[];
  tasks: SeededTask[];
  /** Seeded open tasks, shuffled: claims take from here when a connection has seen no board yet. */
  openPool: SeededTask[];
  /** In-progress tasks with a provider: the chats. */
  chats: SeededTask[];
  /** Claimed tasks waiting for their next step; any connection may take the next one. */
  flows: Flow[];
}

const TITLES = [
  "Grocery pickup for a neighbour", "Bring a cake to the party", "Clean out the fridge", "Carry a couch upstairs",
  "Walk two beagles", "Collect dry cleaning", "Queue for concert tickets", "Mount a television",
  "Ship three packages", "Build a bookshelf", "Collect a prescription", "Tidy the garage",
  "Rake the leaves", "Paint a fence", "Deliver flowers", "Sort the recycling",
];
const DESCRIPTIONS = [
  "Should take under an hour; tools are in the hallway.", "Keep the receipt, I will reimburse at once.",
  "A hatchback or larger is needed.", "Third floor, no lift.", "Any time before Friday works.",
  "The grocery list is on the fridge door.", "Handle with care, some items are glass.", "The doorman has the keys.",
];
const SEARCHES = ["grocery", "cake", "couch", "beagles", "tickets", "television", "packages", "bookshelf", "garage", "flowers"];
const FIRST_NAMES = ["Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun"];

const textArray = (values: readonly string[]) => sql.raw(`array[${values.map((v) => `'${v.replaceAll("'", "''")}'`).join(",")}]`);

/**
 * Users, approved provider profiles, one session per user (token = prefix + n, so the load
 * generator can build every cookie without a sign-in), tasks, reviews and chat messages: all with
 * generate_series (about 25 s at 100k tasks on PostgreSQL on the shared 2-core machine).
 */
async function seed(database: Database, tokenPrefix: string): Promise<void> {
  const db = database.db;
  // bench:compare seeds at the oldest build's schema; before migration 0025 a task has no line items,
  // and that migration fills them in when the newer build starts on its copy.
  const lineItems =
    (await queryRows(db, sql`select 1 from information_schema.columns where table_name = 'tasks' and column_name = 'provider_share_cents'`)).length > 0;
  const lineItemColumns = lineItems ? sql`, provider_share_cents, platform_commission_cents` : sql``;
  const lineItemValues = lineItems ? sql`, g.budget - round(g.budget * 0.15)::int, round(g.budget * 0.15)::int` : sql``;
  await db.execute(sql`insert into users (email, first_name, last_name, role, created_at, updated_at, email_verified_at)
    select 'load-' || g || '@example.test', (${textArray(FIRST_NAMES)})[1 + g % ${FIRST_NAMES.length}], 'L' || g,
      (case when g <= ${PROVIDERS}::int then 'provider' else 'user' end)::user_role, now() - interval '90 days', now(), now() - interval '90 days'
    from generate_series(1, ${USERS}::int) g`);
  const loadUsers = sql`(select id, role, email, split_part(split_part(email, '@', 1), '-', 2)::int as n
    from users where email like 'load-%@example.test')`;
  await db.execute(sql`insert into provider_profiles (user_id, verification_status, full_name, email, phone, address, city,
      state, zip_code, bio, service_types, reviewed_at, submitted_at)
    select u.id, 'approved', 'Provider ' || u.n, u.email, '410-555-0100', u.n || ' Main St', 'Annapolis', 'MD', '21401',
      'Load test provider', array['delivery', 'errands'], now(), now()
    from ${loadUsers} u where u.role = 'provider'`);
  await db.execute(sql`insert into sessions (token_hash, user_id, created_at, last_seen_at, idle_expires_at, absolute_expires_at)
    select encode(sha256(convert_to(${tokenPrefix}::text || u.n::text, 'UTF8')), 'hex'), u.id, now(), now(),
      now() + interval '7 days', now() + interval '29 days'
    from ${loadUsers} u`);
  // 5% completed long ago (reviewed both ways, so posters have ratings), 2% in progress (paid,
  // with a chat), the rest open; posters spread (by hash) over every user, providers over the providers.
  await db.execute(sql`
    with u as ${loadUsers},
    g as (
      select g, 1 + abs(hashtext('poster' || g)::bigint) % ${USERS}::int as poster_n,
        1 + abs(hashtext('provider' || g)::bigint) % ${PROVIDERS}::int as provider_n,
        case when g % 20 = 0 then 'completed' when g % 50 = 1 then 'in_progress' else 'open' end as status,
        2000 + (g * 37) % 20000 as budget
      from generate_series(1, ${TASKS}::int) g
    )
    insert into tasks (user_id, provider_id, title, description, category, urgency, budget_cents, urgent_fee_cents,
      service_fee_cents, total_cents, location, city, state, lat, lon, approx_lat, approx_lon, status,
      payment_captured_at, claimed_at, started_at, completed_at, created_at, updated_at${lineItemColumns})
    select up.id, pv.id,
      (${textArray(TITLES)})[1 + g.g % ${TITLES.length}] || ' #' || g.g,
      (${textArray(DESCRIPTIONS)})[1 + (g.g / 7) % ${DESCRIPTIONS.length}],
      (${textArray(CATEGORY_VALUES)})[1 + g.g % ${CATEGORY_VALUES.length}],
      'standard', g.budget, 0, ceil(g.budget * 0.08)::int + 50, g.budget + ceil(g.budget * 0.08)::int + 50,
      g.g || ' Main St', 'Annapolis', 'MD', 38.9 + (g.g % 100) * 0.01, -76.5 - (g.g % 50) * 0.01,
      round((38.9 + (g.g % 100) * 0.01)::numeric, 2), round((-76.5 - (g.g % 50) * 0.01)::numeric, 2),
      g.status::task_status,
      case when g.status = 'open' then null else now() - interval '50 minutes' end,
      case when g.status = 'open' then null else now() - interval '1 hour' end,
      case when g.status = 'open' then null else now() - interval '40 minutes' end,
      case when g.status = 'completed' then now() - interval '30 days' end,
      case when g.status = 'open' then now() - g.g * interval '1 minute' else now() - interval '40 days' - g.g * interval '1 minute' end,
      now()${lineItemValues}
    from g join u up on up.n = g.poster_n
    left join u pv on g.status <> 'open'
      and pv.n = case when g.provider_n = g.poster_n then 1 + g.provider_n % ${PROVIDERS}::int else g.provider_n end`);
  const loadTasks = sql`(select t.* from tasks t join users u on u.id = t.user_id where u.email like 'load-%@example.test')`;
  // Both sides reviewed, so both reviews are revealed (revealed_at set); the trigger on reviews adds
  // each to the reviewed person's users.rating_count and rating_sum (docs/decisions/037-ratings-on-the-user-row.md).
  await db.execute(sql`insert into reviews (task_id, reviewer_id, reviewed_id, rating, comment, created_at, revealed_at)
    select t.id, t.user_id, t.provider_id, (3 + abs(hashtext(t.id::text)::bigint) % 3)::smallint, 'Great work', t.completed_at, t.completed_at
    from ${loadTasks} t where t.status = 'completed'
    union all
    select t.id, t.provider_id, t.user_id, (3 + abs(hashtext(t.id::text || 'p')::bigint) % 3)::smallint, 'Clear instructions', t.completed_at, t.completed_at
    from ${loadTasks} t where t.status = 'completed'`);
  // Read already: the unseen-message notifier has nothing to catch up on when the server starts.
  await db.execute(sql`insert into messages (task_id, sender_id, recipient_id, content, read, created_at)
    select t.id, case when k % 2 = 0 then t.user_id else t.provider_id end, case when k % 2 = 0 then t.provider_id else t.user_id end,
      'Seeded message ' || k, true, now() - (5 - k) * interval '1 minute'
    from ${loadTasks} t cross join generate_series(1, 4) k where t.status = 'in_progress'`);
  await db.execute(sql`analyze`);
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    const a = items[i];
    const b = items[j];
    if (a === undefined || b === undefined) continue;
    items[i] = b;
    items[j] = a;
  }
  return items;
}

/** What the load generator must know of a seeded database, as plain JSON (kept beside a seed bench/builds.ts caches). */
interface WorldRows {
  tokenPrefix: string;
  users: { id: string; n: number; provider: boolean }[];
  tasks: SeededTask[];
}

async function readWorld(database: Database, tokenPrefix: string): Promise<WorldRows> {
  const userRows = await queryRows<{ id: string; email: string; role: string }>(
    database.db,
    sql`select id, email, role from users where email like 'load-%@example.test'`,
  );
  const users = userRows.map((r) => ({ id: r.id, n: Number(r.email.slice("load-".length, r.email.indexOf("@"))), provider: r.role === "provider" }));
  const taskRows = await queryRows<{ id: string; user_id: string; provider_id: string | null; status: string }>(
    database.db,
    sql`select id, user_id, provider_id, status from tasks`,
  );
  return { tokenPrefix, users, tasks: taskRows.map((r) => ({ id: r.id, userId: r.user_id, providerId: r.provider_id, status: r.status })) };
}

/** A world of its own for each server: claims and flows are that server's database's. */
function worldOf(rows: WorldRows): World {
  const users = rows.users.map((u) => ({ ...u, cookie: `errandly_session=${rows.tokenPrefix}${u.n}` }));
  const tasks = rows.tasks.map((t) => ({ ...t }));
  return {
    users,
    byId: new Map(users.map((u) => [u.id, u])),
    providers: users.filter((u) => u.provider),
    tasks,
    openPool: shuffle(tasks.filter((t) => t.status === "open")),
    chats: tasks.filter((t) => t.status === "in_progress" && t.providerId !== null),
    flows: [],
  };
}

async function loadWorld(database: Database, tokenPrefix: string): Promise<World> {
  return worldOf(await readWorld(database, tokenPrefix));
}

/** The job board's first page exactly as the app sends it, parameters inlined for pgbench. */
function jobBoardSql(database: Database): string {
  const { sql: text, params } = openTasksSql({ db: database.db, now: () => new Date() }, { sort: "newest", page: 1, pageSize: 30 });
  const literal = (v: unknown): string => {
    if (v === null) return "null";
    if (typeof v === "number") return String(v);
    return `'${String(v).replaceAll("'", "''")}'`;
  };
  // Highest index first, so $1 does not eat the front of $10.
  let inlined = text;
  for (let i = params.length; i >= 1; i--) inlined = inlined.replaceAll(`$${i}`, literal(params[i - 1]));
  return `-- The job board's first page (GET /api/tasks/open), written by \`npm run bench:load -- --write-query\`\n-- from openTasksSql() with its parameters inlined.\n${inlined};\n`;
}

/** The file without its timestamps, to tell whether the app's query has changed since it was written. */
const shapeOf = (text: string) => text.replace(/'\d{4}-\d\d-\d\dT[\d:.]+Z'/g, "'<ts>'");

// ---- the server under test --------------------------------------------------------------------

/** The postmaster of the cluster behind `url`: the parent of a backend. */
async function postmasterOf(c: Contender): Promise<number> {
  // The embedded cluster is the server's own, started on a port of its choosing (c.url is the
  // seeding run's): its data directory names its postmaster on postmaster.pid's first line.
  if (c.kind === "embedded") return embeddedPostmaster(c.dataDir);
  const client = new pg.Client({ connectionString: c.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>("select pg_backend_pid() as pid");
    return Number(statOf(rows[0]?.pid ?? 0)?.[1] ?? 0);
  } finally {
    await client.end();
  }
}

/** Where the machine's CPU went during a measurement, per request (issue 16: find the cost first). */
interface CpuSplit {
  serverMs: number;
  databaseMs: number;
  generatorMs: number;
}

function cpuSnapshot(serverPid: number, postmaster: number) {
  const own = process.cpuUsage();
  return { server: cpuSecondsOf(serverPid), database: clusterCpuSeconds(postmaster), generator: (own.user + own.system) / 1e6 };
}

function cpuPerRequest(before: ReturnType<typeof cpuSnapshot>, after: ReturnType<typeof cpuSnapshot>, requests: number): CpuSplit {
  const per = (a: number, b: number) => (requests > 0 ? ((b - a) * 1000) / requests : Number.NaN);
  return { serverMs: per(before.server, after.server), databaseMs: per(before.database, after.database), generatorMs: per(before.generator, after.generator) };
}

// ---- the load generator -----------------------------------------------------------------------

interface Reply {
  status: number;
  body: string;
}

type Outcome = "ok" | "race" | "error";

class RouteStats {
  latencies: number[] = [];
  ok = 0;
  races = 0;
  errors = 0;
}

class Results {
  routes = new Map<string, RouteStats>();
  errorSamples: string[] = [];
  /** Completed requests per second of the run, and the slowest requests, to spot stalls (--timeline). */
  perSecond: number[] = [];
  slowest: { label: string; startedAtS: number; ms: number }[] = [];
  private readonly began = performance.now();
  tick(label: string, started: number, ms: number): void {
    const second = Math.floor((performance.now() - this.began) / 1000);
    this.perSecond[second] = (this.perSecond[second] ?? 0) + 1;
    if (this.slowest.length < 5 || ms > (this.slowest.at(-1)?.ms ?? 0)) {
      this.slowest = [...this.slowest, { label, startedAtS: (started - this.began) / 1000, ms }].sort((a, b) => b.ms - a.ms).slice(0, 5);
    }
  }
  /** Requests answered, whatever the answer. */
  requests(): number {
    let n = 0;
    for (const s of this.routes.values()) n += s.ok + s.races + s.errors;
    return n;
  }
  route(label: string): RouteStats {
    let s = this.routes.get(label);
    if (!s) {
      s = new RouteStats();
      this.routes.set(label, s);
    }
    return s;
  }
}

class Client {
  private agent: http.Agent;
  constructor(
    private readonly port: number,
    connections: number,
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
  }

  request(method: string, path: string, cookie: string | null, body?: unknown): Promise<Reply> {
    const payload = body === undefined ? null : JSON.stringify(body);
    const headers: Record<string, string> = { accept: "application/json" };
    if (cookie) headers.cookie = cookie;
    if (payload !== null) {
      headers["content-type"] = "application/json";
      headers["content-length"] = String(Buffer.byteLength(payload));
    }
    // Same-origin, as the browser sends it: the CSRF check refuses other origins on writes.
    if (method !== "GET") headers.origin = `http://127.0.0.1:${this.port}`;
    return new Promise((done, fail) => {
      const req = http.request({ host: "127.0.0.1", port: this.port, method, path, headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", fail);
      });
      req.setTimeout(TIMEOUT_MS, () => req.destroy(new Error(`timeout after ${TIMEOUT_MS} ms`)));
      req.on("error", fail);
      if (payload !== null) req.write(payload);
      req.end();
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

const pick = <T>(items: readonly T[]): T => {
  const item = items[Math.floor(Math.random() * items.length)];
  if (item === undefined) throw new Error("pick from an empty list");
  return item;
};

interface BoardEntry {
  id: string;
  userId: string;
}

interface Flow {
  step: "intent" | "confirm" | "start" | "complete";
  taskId: string;
  total: number;
  poster: User;
  provider: User;
  clientSecret: string;
}

/** One keep-alive connection's user: picks the next request from the mix and runs it. */
class VirtualUser {
  /** Open tasks from the last board page this user saw: claims come from there, like a person's would. */
  private seen: BoardEntry[] = [];

  constructor(
    private readonly client: Client,
    private readonly world: World,
    private readonly results: Results,
  ) {}

  private async call(label: string, method: string, path: string, cookie: string | null, body: unknown, judge: (status: number) => Outcome): Promise<Reply | null> {
    const stats = this.results.route(label);
    const started = performance.now();
    let reply: Reply | null = null;
    let outcome: Outcome;
    let detail = "";
    try {
      reply = await this.client.request(method, path, cookie, body);
      outcome = judge(reply.status);
      detail = `${reply.status} ${reply.body.slice(0, 200)}`;
    } catch (err) {
      outcome = "error";
      detail = err instanceof Error ? err.message : String(err);
    }
    const ms = performance.now() - started;
    this.results.tick(label, started, ms);
    if (outcome === "error") {
      stats.errors += 1;
      if (this.results.errorSamples.length < 10) this.results.errorSamples.push(`${method} ${path}: ${detail}`);
      return null;
    }
    stats.latencies.push(ms);
    if (outcome === "race") stats.races += 1;
    else stats.ok += 1;
    return outcome === "ok" ? reply : null;
  }

  async next(): Promise<void> {
    const r = Math.random() * 100;
    if (r < 70) return this.browse();
    if (r < 85) return this.read();
    if (r < 90) return this.post();
    if (r < 95) return this.advanceFlow();
    return this.chat();
  }

  private async browse(): Promise<void> {
    // The web app's board: newest first, a category, a search, more pages, the two budget sorts.
    const r = Math.random() * 100;
    const [label, query] =
      r < 45
        ? ["newest", ""]
        : r < 60
          ? ["category", `category=${pick(CATEGORY_VALUES)}&`]
          : r < 75
            ? ["search", `search=${pick(SEARCHES)}&`]
            : r < 85
              ? ["pages 2-5", `page=${2 + Math.floor(Math.random() * 4)}&`]
              : ["budget sort", `sort=${Math.random() < 0.5 ? "budget_desc" : "budget_asc"}&`];
    // A quarter of visitors are signed in: their request also resolves the session.
    const cookie = Math.random() < 0.25 ? pick(this.world.users).cookie : null;
    const reply = await this.call(`GET /api/tasks/open (${label})`, "GET", `/api/tasks/open?${query}pageSize=30`, cookie, undefined, ok200);
    if (reply) this.seen = (JSON.parse(reply.body) as BoardEntry[]).map(({ id, userId }) => ({ id, userId }));
  }

  private async read(): Promise<void> {
    const task = pick(this.world.tasks);
    const cookie = Math.random() < 0.5 ? pick(this.world.users).cookie : null;
    await this.call("GET /api/tasks/:id", "GET", `/api/tasks/${task.id}`, cookie, undefined, ok200);
  }

  private async post(): Promise<void> {
    const poster = pick(this.world.users);
    const n = Math.floor(Math.random() * 1_000_000);
    const body = {
      title: `${pick(TITLES)} (load ${n})`,
      description: pick(DESCRIPTIONS),
      category: pick(CATEGORY_VALUES),
      budget: 20 + (n % 200),
      urgency: "standard",
      location: `${n % 999} Main St`,
      city: "Annapolis",
      state: "MD",
      lat: 38.9 + (n % 100) * 0.001,
      lon: -76.5 - (n % 50) * 0.001,
    };
    await this.call("POST /api/tasks", "POST", "/api/tasks", poster.cookie, body, (s) => (s === 201 ? "ok" : "error"));
  }

  /** A task to claim: one from the page this user last saw, else a seeded open task nobody here took. */
  private claimTarget(): BoardEntry | null {
    while (this.seen.length > 0) {
      const entry = this.seen.splice(Math.floor(Math.random() * this.seen.length), 1)[0];
      if (entry) return entry;
    }
    const task = this.world.openPool.pop();
    return task ? { id: task.id, userId: task.userId } : null;
  }

  /**
   * One request of a claim -> pay -> start -> complete flow: the next step of a claimed task
   * waiting in the shared queue, or a new claim when none waits. The mix counts requests, and any
   * connection can take the next step, so flows finish within seconds like a person's would.
   */
  private async advanceFlow(): Promise<void> {
    const flow = this.world.flows.shift();
    if (!flow) return this.claim();
    if (flow.step === "intent") {
      const reply = await this.call("POST /api/create-payment-intent", "POST", "/api/create-payment-intent", flow.poster.cookie, { taskId: flow.taskId, amount: flow.total }, ok200);
      if (!reply) return;
      flow.clientSecret = (JSON.parse(reply.body) as { clientSecret: string }).clientSecret;
      flow.step = "confirm";
    } else if (flow.step === "confirm") {
      const card = { clientSecret: flow.clientSecret, cardNumber: "4242424242424242", expMonth: 12, expYear: new Date().getUTCFullYear() + 3, cvc: "123" };
      if (!(await this.call("POST /api/sandbox/payments/confirm", "POST", "/api/sandbox/payments/confirm", flow.poster.cookie, card, ok200))) return;
      flow.step = "start";
    } else if (flow.step === "start") {
      if (!(await this.call("PATCH /api/tasks/:id/start", "PATCH", `/api/tasks/${flow.taskId}/start`, flow.provider.cookie, undefined, ok200))) return;
      flow.step = "complete";
    } else {
      await this.call("PATCH /api/tasks/:id/complete", "PATCH", `/api/tasks/${flow.taskId}/complete`, flow.provider.cookie, undefined, ok200);
      return;
    }
    this.world.flows.push(flow);
  }

  private async claim(): Promise<void> {
    const target = this.claimTarget();
    if (!target) return this.browse();
    const poster = this.world.byId.get(target.userId);
    if (!poster) return this.browse(); // a task posted by someone outside the load's users
    let provider = pick(this.world.providers);
    while (provider.id === poster.id) provider = pick(this.world.providers);
    // 409 is the expected answer when another user claimed the task first (see docs/benchmarks.md).
    const reply = await this.call("PATCH /api/tasks/:id/claim", "PATCH", `/api/tasks/${target.id}/claim`, provider.cookie, undefined, (s) =>
      s === 200 ? "ok" : s === 409 ? "race" : "error",
    );
    if (!reply) return;
    const task = JSON.parse(reply.body) as { totalAmount: number };
    this.world.flows.push({ step: "intent", taskId: target.id, total: task.totalAmount, poster, provider, clientSecret: "" });
  }

  private async chat(): Promise<void> {
    const task = pick(this.world.chats);
    const actorId = Math.random() < 0.5 ? task.userId : task.providerId;
    const actor = actorId ? this.world.byId.get(actorId) : undefined;
    if (!actor) throw new Error(`chat task ${task.id} has no seeded participant`);
    if (Math.random() < 0.5) {
      await this.call("GET /api/messages/:taskId", "GET", `/api/messages/${task.id}`, actor.cookie, undefined, ok200);
    } else {
      const body = { taskId: task.id, content: `On my way, ${Math.floor(Math.random() * 60)} minutes out.` };
      await this.call("POST /api/messages", "POST", "/api/messages", actor.cookie, body, (s) => (s === 201 ? "ok" : "error"));
    }
  }
}

const ok200 = (s: number): Outcome => (s === 200 ? "ok" : "error");

interface LoadReport {
  results: Results;
  seconds: number;
}

/** CONNECTIONS closed loops for `seconds`; each runs one request at a time on its own keep-alive socket. */
async function runLoad(port: number, seconds: number, step: (client: Client, results: Results) => () => Promise<void>): Promise<LoadReport> {
  const client = new Client(port, CONNECTIONS);
  const results = new Results();
  const began = performance.now();
  const until = began + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      const next = step(client, results);
      while (performance.now() < until) await next();
    }),
  );
  const elapsed = (performance.now() - began) / 1000;
  client.close();
  return { results, seconds: elapsed };
}

function mixedStep(world: World) {
  return (client: Client, results: Results) => {
    const user = new VirtualUser(client, world, results);
    return () => user.next();
  };
}

function helloStep(client: Client, results: Results) {
  const stats = results.route("GET / (hello world)");
  return async () => {
    const started = performance.now();
    try {
      const reply = await client.request("GET", "/", null);
      if (reply.status === 200) {
        stats.ok += 1;
        stats.latencies.push(performance.now() - started);
      } else stats.errors += 1;
    } catch {
      stats.errors += 1;
    }
  };
}

// ---- ceilings: pgbench on each database server ----------------------------------------------------

interface QueryCeiling {
  tps: number;
  latencyMs: number;
  detail: string;
}

function runPgbench(url: string, file: string, seconds: number): Promise<QueryCeiling> {
  const pgbenchArgs = ["-n", "-c", String(CONNECTIONS), "-j", "2", "-T", String(seconds), "-f", file, url];
  return new Promise((done, fail) => {
    const child = spawn(pgbenchPath(), pgbenchArgs, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    child.on("exit", (code) => {
      const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(out)?.[1] ?? Number.NaN);
      const latency = Number(/latency average = ([\d.]+) ms/.exec(out)?.[1] ?? Number.NaN);
      const connecting = /initial connection time = ([\d.]+) ms/.exec(out)?.[1] ?? "?";
      if (code !== 0 || Number.isNaN(tps)) fail(new Error(`pgbench failed (${code}):\n${out}`));
      else done({ tps, latencyMs: latency, detail: `pgbench -n -c ${CONNECTIONS} -j 2 -T ${seconds} -f bench/job-board-query.sql (initial connection time ${connecting} ms)` });
    });
  });
}

// ---- report -----------------------------------------------------------------------------------

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

const ms = (v: number) => (Number.isNaN(v) ? "-" : v < 10 ? v.toFixed(1) : v.toFixed(0));

interface RunSummary {
  kind: string;
  rps: number;
  /** Over every request of the mix. */
  p50: number;
  p99: number;
  errors: number;
  races: number;
  table: string[];
  memory: { start: Memory; end: Memory } | null;
  seedSeconds: number;
  ceiling: QueryCeiling | null;
}

function summarize(kind: string, report: LoadReport, seedSeconds: number, memory: RunSummary["memory"], ceiling: QueryCeiling | null): RunSummary {
  const table: string[] = [];
  let total = 0;
  let errors = 0;
  let races = 0;
  const all: number[] = [];
  for (const [label, s] of [...report.results.routes.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const sorted = [...s.latencies].sort((a, b) => a - b);
    const done = s.ok + s.races;
    total += done;
    errors += s.errors;
    races += s.races;
    for (const v of s.latencies) all.push(v);
    table.push(`| ${kind} | ${label} | ${done} | ${(done / report.seconds).toFixed(1)} | ${ms(percentile(sorted, 50))} | ${ms(percentile(sorted, 99))} | ${s.races} | ${s.errors} |`);
  }
  all.sort((a, b) => a - b);
  table.push(`| ${kind} | **all** | ${total} | **${(total / report.seconds).toFixed(1)}** | ${ms(percentile(all, 50))} | ${ms(percentile(all, 99))} | ${races} | ${errors} |`);
  return { kind, rps: total / report.seconds, p50: percentile(all, 50), p99: percentile(all, 99), errors, races, table, memory, seedSeconds, ceiling };
}

// ---- main -------------------------------------------------------------------------------------

/** Migrates (by URL, under the app's advisory lock), seeds, and reads back what the load generator needs. */
async function seedAndLoadWorld(url: string, tokenPrefix: string): Promise<{ world: World; seconds: number; querySql: string }> {
  await migrateDatabase(url);
  const database = await openDatabase({ databaseUrl: url, poolSize: 2 });
  try {
    const began = performance.now();
    await seed(database, tokenPrefix);
    const seconds = (performance.now() - began) / 1000;
    return { world: await loadWorld(database, tokenPrefix), seconds, querySql: jobBoardSql(database) };
  } finally {
    await database.close();
  }
}

/** The committed pgbench file, unless the app's query has changed since it was written (then a copy in `dir`). */
function pgbenchFile(querySql: string, dir: string): string {
  const committed = existsSync(QUERY_FILE) ? readFileSync(QUERY_FILE, "utf8") : "";
  if (shapeOf(committed) === shapeOf(querySql)) return QUERY_FILE;
  console.log("bench/job-board-query.sql differs from the app's query: using the current query (run --write-query to update the file)");
  const file = join(dir, "job-board-query.sql");
  writeFileSync(file, querySql);
  return file;
}

/** One database under test, from seeding to clean-up. */
interface Contender {
  kind: BenchDatabase;
  /** The database, and the server's MAX_CONCURRENT_REQUESTS when several are compared. */
  label: string;
  inFlight: string | null;
  world: World;
  seedSeconds: number;
  querySql: string;
  dataDir: string;
  /** The seeded database (embedded: its URL while the bench runs the cluster; it changes port on each start). */
  url: string;
  benchDatabase: BenchDatabaseHandle | null;
  /** The embedded cluster while the bench (not the server) runs it. */
  embedded: EmbeddedPostgres | null;
  server: AppServer | null;
  memory: { start: Memory; end: Memory } | null;
  reports: LoadReport[];
}

/** Seeds the database; embedded: in the server's own cluster (DATA_DIR/postgres), left stopped for the server. */
async function prepare(kind: BenchDatabase, external: ExternalPostgres | null, inFlight: string | null): Promise<Contender> {
  const tokenPrefix = `load-${randomBytes(12).toString("hex")}-`;
  const dataDir = mkdtempSync(join(tmpdir(), "errandly-load-data-"));
  const label = IN_FLIGHT.length > 1 ? `${kind} (${inFlight} in flight)` : kind;
  const c: Contender = { kind, label, inFlight, world: null as unknown as World, seedSeconds: 0, querySql: "", dataDir, url: "", benchDatabase: null, embedded: null, server: null, memory: null, reports: [] };
  try {
    if (kind === "postgres") {
      if (!external) throw new Error("no external PostgreSQL");
      c.benchDatabase = await external.createDatabase();
      c.url = c.benchDatabase.url;
    } else {
      c.embedded = await openEmbeddedPostgres({ dir: dataDir });
      c.url = c.embedded.url;
      console.log(`embedded: PostgreSQL ${await serverVersion(c.embedded.adminUrl)} (npm binaries, the server's own cluster in DATA_DIR/postgres, default settings)`);
    }
    const seeded = await seedAndLoadWorld(c.url, tokenPrefix);
    Object.assign(c, { world: seeded.world, seedSeconds: seeded.seconds, querySql: seeded.querySql });
    console.log(`${kind}: seeded ${c.world.users.length} users, ${c.world.tasks.length} tasks in ${c.seedSeconds.toFixed(1)} s`);
    if (c.embedded) {
      // Handed over stopped, so the server starts its embedded PostgreSQL itself, as it does in production.
      await c.embedded.stop("fast");
      c.embedded = null;
    }
    return c;
  } catch (err) {
    await cleanUp(c);
    throw err;
  }
}

/** Where --cpu-prof and --heap-snapshot write when given no directory: .cache/profiles/<time>/. */
function profileDir(option: string): string {
  const given = args.get(option);
  const dir = given && given !== "true" ? resolve(given) : join(ROOT, ".cache", "profiles", new Date().toISOString().replace(/[:.]/g, "-").slice(0, 19));
  mkdirSync(dir, { recursive: true });
  return dir;
}

function serverNodeOptions(): { NODE_OPTIONS?: string } {
  const options = [
    ...(args.has("cpu-prof") ? [`--cpu-prof --cpu-prof-dir=${profileDir("cpu-prof")}`] : []),
    ...(args.has("node-options") ? [args.get("node-options") ?? ""] : []),
  ];
  return options.length > 0 ? { NODE_OPTIONS: options.join(" ") } : {};
}

/** The server's environment under the load, beside what startAppServer sets. */
function serverEnv(inFlight: string | null): Record<string, string> {
  return {
    // The claim flow pays with the sandbox card form; production turns it off unless told.
    SANDBOX_PAYMENTS_IN_PRODUCTION: "true",
    // The load's connections all come from 127.0.0.1 and stand for many people: with the
    // per-address limits (docs/decisions/043-slow-requests-bounded.md) it would measure one address's share.
    MAX_CONNECTIONS_PER_ADDRESS: String(CONNECTIONS * 2),
    MAX_CONCURRENT_PER_ADDRESS: "10000",
    REQUEST_QUEUE_PER_ADDRESS: String(CONNECTIONS * 2),
    // --pool=N: the server's DATABASE_POOL_SIZE (its default otherwise).
    ...(args.has("pool") ? { DATABASE_POOL_SIZE: args.get("pool") ?? "" } : {}),
    // --in-flight=N: the server's MAX_CONCURRENT_REQUESTS (its default otherwise).
    ...(inFlight !== null ? { MAX_CONCURRENT_REQUESTS: inFlight } : {}),
  };
}

async function startContender(c: Contender): Promise<void> {
  c.server = await startAppServer({
    entry: SERVER_ENTRY,
    dataDir: c.dataDir,
    databaseUrl: c.kind === "postgres" ? c.url : null,
    // --cpu-prof[=DIR]: a V8 CPU profile of the server, written to DIR (.cache/profiles/<time>/
    // unless given) when it stops (issue 16: profile before changing code). --node-options="...":
    // other flags for the server's Node.
    env: { ...serverEnv(c.inFlight), ...serverNodeOptions() },
  });
  const start = memoryOf(c.server.child.pid ?? 0);
  c.memory = { start, end: start };
  if (WARMUP_S > 0) await runLoad(c.server.port, WARMUP_S, mixedStep(c.world));
}

async function measureContender(c: Contender, label: string): Promise<LoadReport> {
  if (!c.server) throw new Error(`${c.label}: server not started`);
  console.log(`${c.label}: ${label}${CONNECTIONS} connections for ${DURATION_S} s (load average ${loadavg().map((l) => l.toFixed(1)).join(" ")})`);
  const statements = args.has("statements") && c.kind === "postgres";
  if (statements) await statementsOf(c.url, "reset");
  const postmaster = await postmasterOf(c);
  const cpuBefore = cpuSnapshot(c.server.child.pid ?? 0, postmaster);
  const report = await runLoad(c.server.port, DURATION_S, mixedStep(c.world));
  const cpu = cpuPerRequest(cpuBefore, cpuSnapshot(c.server.child.pid ?? 0, postmaster), report.results.requests());
  console.log(
    `${c.label}: CPU per request: server ${cpu.serverMs.toFixed(3)} ms, PostgreSQL ${cpu.databaseMs.toFixed(3)} ms, load generator ${cpu.generatorMs.toFixed(3)} ms (${cpus().length} cores)`,
  );
  c.reports.push(report);
  if (statements) console.log(`${c.label}: pg_stat_statements over the run, by total time:\n${await statementsOf(c.url, "report")}`);
  if (report.results.errorSamples.length > 0) console.log(`${c.label}: first errors:\n  ${report.results.errorSamples.join("\n  ")}`);
  if (args.has("timeline")) {
    console.log(`${c.label}: requests completed per second: ${Array.from(report.results.perSecond, (n) => n ?? 0).join(" ")}`);
    for (const r of report.results.slowest) console.log(`${c.label}: slow: ${r.label} started at ${r.startedAtS.toFixed(1)} s, took ${r.ms.toFixed(0)} ms`);
  }
  return report;
}

/**
 * --statements (Debian's cluster only, started with pg_stat_statements preloaded): what the database
 * spent its time on during one measurement, to find the cost before changing code (issue 16).
 */
async function statementsOf(url: string, what: "reset" | "report"): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    if (what === "reset") {
      await client.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
      await client.query("SELECT pg_stat_statements_reset()");
      return "";
    }
    // Planning counts too: the board's statements are planned for their values on every run.
    const { rows } = await client.query<{ calls: string; total_ms: number; plan_ms: number; mean_ms: number; rows: string; query: string }>(
      `SELECT calls, total_exec_time AS total_ms, total_plan_time AS plan_ms, mean_exec_time AS mean_ms, rows, regexp_replace(query, '\\s+', ' ', 'g') AS query
         FROM pg_stat_statements ORDER BY total_exec_time + total_plan_time DESC`,
    );
    const sum = (f: (r: (typeof rows)[number]) => number) => rows.reduce((total, r) => total + f(r), 0);
    const totals = `all statements: ${sum((r) => Number(r.calls))} calls, ${sum((r) => r.total_ms).toFixed(0)} ms executing, ${sum((r) => r.plan_ms).toFixed(0)} ms planning`;
    const line = (r: (typeof rows)[number]) =>
      `${String(r.calls).padStart(7)} calls ${r.total_ms.toFixed(0).padStart(7)} ms total ${r.plan_ms.toFixed(0).padStart(6)} ms plan ${r.mean_ms.toFixed(2).padStart(7)} ms mean ${String(r.rows).padStart(7)} rows  ${r.query.slice(0, 220)}`;
    return [totals, ...rows.slice(0, 40).map(line)].join("\n");
  } finally {
    await client.end();
  }
}

/** Stops the server (which stops the embedded PostgreSQL it started, on SIGTERM). */
async function stopContender(c: Contender): Promise<void> {
  if (!c.server) return;
  if (c.memory) c.memory.end = memoryOf(c.server.child.pid ?? 0);
  await c.server.stop();
  c.server = null;
}

/** pgbench on the same server with the app stopped. */
async function ceilingOf(c: Contender): Promise<QueryCeiling | null> {
  if (c.kind === "embedded") {
    // Started again (the server stopped it): same data, a new port.
    c.embedded = await openEmbeddedPostgres({ dir: c.dataDir });
    c.url = c.embedded.url;
  }
  try {
    // A failed ceiling (pgbench 15 against the embedded 18 spends seconds on 100 SCRAM logins, so a
    // very short --duration may process nothing) is reported, not allowed to lose the run's figures.
    return await runPgbench(c.url, pgbenchFile(c.querySql, c.dataDir), DURATION_S);
  } catch (err) {
    console.log(`${c.label}: pgbench ceiling failed: ${err instanceof Error ? err.message : String(err)}`);
    return null;
  } finally {
    if (c.embedded) {
      await c.embedded.stop("fast");
      c.embedded = null;
    }
  }
}

async function cleanUp(c: Contender): Promise<void> {
  await stopContender(c).catch((err: unknown) => console.log(`${c.label}: could not stop the server: ${String(err)}`));
  if (c.embedded?.isRunning()) await c.embedded.stop("fast").catch((err: unknown) => console.log(`could not stop the embedded PostgreSQL: ${String(err)}`));
  await c.benchDatabase?.drop();
  rmSync(c.dataDir, { recursive: true, force: true });
}

/** The rounds of one database as one report: the same requests, over the sum of the rounds' seconds. */
function mergeReports(reports: LoadReport[]): LoadReport {
  if (reports.length === 1 && reports[0]) return reports[0];
  const results = new Results();
  for (const r of reports) {
    for (const [label, s] of r.results.routes) {
      const into = results.route(label);
      into.ok += s.ok;
      into.races += s.races;
      into.errors += s.errors;
      for (const v of s.latencies) into.latencies.push(v);
    }
    results.errorSamples.push(...r.results.errorSamples);
  }
  return { results, seconds: reports.reduce((n, r) => n + r.seconds, 0) };
}

const p99Of = (report: LoadReport) => percentile([...report.results.routes.values()].flatMap((s) => s.latencies).sort((p, q) => p - q), 99);

const completed = (report: LoadReport) => [...report.results.routes.values()].reduce((n, s) => n + s.ok + s.races, 0);

/**
 * ROUNDS = 1: each database in turn (seed, server, warm-up, measure, stop, pgbench), one server at a
 * time. ROUNDS > 1: every database seeded and its server started first, then the measurements
 * alternate (A B, B A, A B, ...), so a machine whose load drifts during the run weighs on both alike;
 * the per-round ratios and their median are printed.
 */
async function runDatabases(external: ExternalPostgres | null): Promise<RunSummary[]> {
  const contenders: Contender[] = [];
  try {
    if (ROUNDS <= 1) {
      for (const kind of DATABASES) {
        for (const inFlight of IN_FLIGHT) {
          const c = await prepare(kind, external, inFlight);
          contenders.push(c);
          await startContender(c);
          await measureContender(c, "");
          await stopContender(c);
        }
      }
    } else {
      for (const kind of DATABASES) for (const inFlight of IN_FLIGHT) contenders.push(await prepare(kind, external, inFlight));
      for (const c of contenders) await startContender(c);
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 === 0 ? contenders : [...contenders].reverse();
        for (const c of order) await measureContender(c, `round ${round + 1} of ${ROUNDS}, `);
      }
      for (const c of contenders) await stopContender(c);
      const [a, b] = contenders;
      if (a && b) {
        const ratios: number[] = [];
        for (let round = 0; round < ROUNDS; round++) {
          const ra = a.reports[round];
          const rb = b.reports[round];
          if (!ra || !rb) continue;
          const [x, y] = [completed(ra) / ra.seconds, completed(rb) / rb.seconds];
          ratios.push(x / y);
          console.log(
            `round ${round + 1}: ${a.label} ${x.toFixed(1)} req/s p99 ${ms(p99Of(ra))} ms, ${b.label} ${y.toFixed(1)} req/s p99 ${ms(p99Of(rb))} ms, ${a.label} / ${b.label} ${(x / y).toFixed(3)}`,
          );
        }
        const sorted = [...ratios].sort((p, q) => p - q);
        console.log(`${a.label} / ${b.label} per round: median ${(sorted[Math.floor(sorted.length / 2)] ?? Number.NaN).toFixed(3)}, range ${sorted[0]?.toFixed(3)} to ${sorted.at(-1)?.toFixed(3)}`);
      }
    }
    const summaries: RunSummary[] = [];
    for (const c of contenders) {
      const ceiling = CEILINGS ? await ceilingOf(c) : null;
      summaries.push(summarize(c.label, mergeReports(c.reports), c.seedSeconds, c.memory, ceiling));
    }
    return summaries;
  } finally {
    for (const c of contenders) await cleanUp(c);
  }
}

/** Building the board's SQL needs drizzle, not a connection: the pool never connects. */
async function writeQuery(): Promise<void> {
  const database = await openDatabase({ databaseUrl: "postgres://127.0.0.1:1/unused", poolSize: 1 });
  writeFileSync(QUERY_FILE, jobBoardSql(database));
  await database.close();
  console.log(`wrote ${QUERY_FILE}`);
}

async function main(): Promise<void> {
  const began = performance.now();
  console.log(
    `bench:load: ${cpus().length} cores (${cpus()[0]?.model ?? "?"}), Node ${process.version}, ${CONNECTIONS} connections, ` +
      `${DURATION_S} s per run after ${WARMUP_S} s warm-up, ${TASKS} tasks, ${USERS} users, server ${SERVER_ENTRY}`,
  );
  if (!args.has("server")) warnIfStale(SERVER_ENTRY);
  const external = DATABASES.includes("postgres") ? await externalPostgres({ fsync: args.get("postgres-fsync") === "on", statements: args.has("statements") }) : null;
  try {
    if (external) console.log(`postgres: ${external.description}`);
    let hello: RunSummary | null = null;
    if (CEILINGS) {
      const server = await startHelloWorld();
      try {
        await runLoad(server.port, Math.min(WARMUP_S, 2), helloStep);
        hello = summarize("hello world", await runLoad(server.port, DURATION_S, helloStep), 0, null, null);
      } finally {
        await server.stop();
      }
      console.log(`hello world: ${hello.rps.toFixed(0)} req/s`);
    }
    const runs = await runDatabases(external);

    console.log("\n| Database | Route | requests | req/s | p50 ms | p99 ms | 409 lost race | errors |\n|---|---|---|---|---|---|---|---|");
    for (const run of runs) console.log(run.table.join("\n"));
    if (hello) console.log(hello.table.join("\n"));
    console.log(
      "\n| Database | seed s | req/s (mix) | p50 ms | p99 ms | errors | 409 lost races | RSS start MB | RSS end MB | peak RSS MB | hello world req/s | mix / hello world | job board SQL q/s | mix / SQL |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    );
    for (const run of runs) {
      const m = run.memory;
      const helloRps = hello?.rps ?? Number.NaN;
      const q = run.ceiling?.tps ?? Number.NaN;
      console.log(
        `| ${run.kind} | ${run.seedSeconds.toFixed(1)} | ${run.rps.toFixed(1)} | ${ms(run.p50)} | ${ms(run.p99)} | ${run.errors} | ${run.races} | ${m?.start.rssMb.toFixed(0)} | ${m?.end.rssMb.toFixed(0)} | ${m?.end.peakMb.toFixed(0)} | ` +
          `${helloRps.toFixed(0)} | ${(run.rps / helloRps).toFixed(3)} | ${q.toFixed(0)} | ${(run.rps / q).toFixed(3)} |`,
      );
    }
    for (const run of runs) if (run.ceiling) console.log(`${run.kind} ceiling: ${run.ceiling.detail}: ${run.ceiling.tps.toFixed(0)} q/s, ${run.ceiling.latencyMs.toFixed(2)} ms average`);
    const embeddedRun = runs.find((r) => r.kind === "embedded");
    const postgresRun = runs.find((r) => r.kind === "postgres");
    if (embeddedRun && postgresRun) {
      const ratio = embeddedRun.rps / postgresRun.rps;
      console.log(
        `\nembedded / postgres: ${ratio.toFixed(3)} of the mix's req/s (${((ratio - 1) * 100).toFixed(1)}%; target within 15%: ${ratio >= 0.85 ? "met" : "not met"})` +
          (embeddedRun.ceiling && postgresRun.ceiling ? `; pgbench ${(embeddedRun.ceiling.tps / postgresRun.ceiling.tps).toFixed(3)}` : ""),
      );
    }
    console.log(`\nload average at the end: ${loadavg().map((l) => l.toFixed(1)).join(" ")}; total ${((performance.now() - began) / 1000).toFixed(0)} s`);
    const errors = runs.reduce((n, r) => n + r.errors, 0) + (hello?.errors ?? 0);
    if (errors > 0) {
      console.log(`${errors} errors: the target is 0`);
      process.exitCode = 1;
    }
  } finally {
    await external?.stop();
  }
}

/**
 * Seeds a database you keep for EXPLAIN and profiling: a postgres:// URL, or a DATA_DIR whose
 * embedded PostgreSQL is started (or joined, if a server runs on it) and left as it was found.
 */
async function seedOnly(target: string): Promise<void> {
  const tokenPrefix = `load-${randomBytes(12).toString("hex")}-`;
  const embedded = /^postgres(ql)?:\/\//.test(target) ? null : await openEmbeddedPostgres({ dir: target });
  try {
    const { world, seconds } = await seedAndLoadWorld(embedded?.url ?? target, tokenPrefix);
    console.log(`seeded ${world.users.length} users, ${world.tasks.length} tasks in ${seconds.toFixed(1)} s; cookie of user n: errandly_session=${tokenPrefix}<n>`);
  } finally {
    if (embedded?.owned) await embedded.stop("fast");
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? Number.NaN;

/**
 * --topology=haproxy: one database seeded once, PgBouncer in front of it, and one HAProxy stack per
 * --instances count, all up at once and measured in turn for ROUNDS rounds. On a machine with fewer
 * cores than instances the ratio is the balancer's and the pooler's cost, not added capacity.
 */
async function runBalanced(): Promise<void> {
  const counts = instanceCounts(args.get("instances"), [1, 3]);
  console.log(`bench:load --topology=haproxy: ${cpus().length} cores, instances ${counts.join(" and ")}, ${CONNECTIONS} connections, ${DURATION_S} s x ${ROUNDS} rounds, ${TASKS} tasks`);
  // The test suite's throwaway cluster: PgBouncer needs a password to pass on, Debian's trust cluster has none.
  const database = await startPostgresCluster();
  const stacks: Stack[] = [];
  try {
    const { world, seconds } = await seedAndLoadWorld(database.url, `load-${randomBytes(12).toString("hex")}-`);
    console.log(`seeded ${world.users.length} users, ${world.tasks.length} tasks in ${seconds.toFixed(1)} s`);
    const bouncer = await startPgBouncer(database.url);
    try {
      const env = { SANDBOX_PAYMENTS_IN_PRODUCTION: "true", ...(args.has("pool") ? { DATABASE_POOL_SIZE: args.get("pool") ?? "" } : {}) };
      for (const instances of counts) stacks.push(await startStack({ poolerUrl: bouncer.url, listenUrl: database.url, instances, env }));
      for (const stack of stacks) if (WARMUP_S > 0) await runLoad(stack.port, WARMUP_S, mixedStep(world));
      const runs = new Map<Stack, RunSummary[]>(stacks.map((s) => [s, []]));
      for (let round = 1; round <= ROUNDS; round += 1) {
        for (const stack of round % 2 === 1 ? stacks : [...stacks].reverse()) {
          const before = loadAverage();
          const run = summarize(`haproxy, ${stack.instances} instance(s)`, await runLoad(stack.port, DURATION_S, mixedStep(world)), seconds, null, null);
          console.log(`round ${round}, ${stack.instances} instance(s): ${run.rps.toFixed(1)} req/s, p99 ${ms(run.p99)} ms, ${run.errors} errors (load average ${before})`);
          runs.get(stack)?.push(run);
        }
      }
      console.log("\n| Instances behind HAProxy | median req/s | median p50 ms | median p99 ms | errors | 409 lost races |\n|---|---|---|---|---|---|");
      const medians = stacks.map((stack) => {
        const list = runs.get(stack) ?? [];
        const row = { instances: stack.instances, rps: median(list.map((r) => r.rps)), p50: median(list.map((r) => r.p50)), p99: median(list.map((r) => r.p99)) };
        const errors = list.reduce((n, r) => n + r.errors, 0);
        console.log(`| ${row.instances} | ${row.rps.toFixed(1)} | ${ms(row.p50)} | ${ms(row.p99)} | ${errors} | ${list.reduce((n, r) => n + r.races, 0)} |`);
        if (errors > 0) process.exitCode = 1;
        return row;
      });
      const [first, last] = [medians[0], medians.at(-1)];
      if (first && last && first !== last) {
        console.log(`\n${last.instances} / ${first.instances} instances: ${(last.rps / first.rps).toFixed(3)} of the median req/s on ${cpus().length} cores`);
      }
      console.log(`load average at the end: ${loadAverage()}`);
    } finally {
      for (const stack of stacks) await stack.stop();
      await bouncer.destroy();
    }
  } finally {
    await database.destroy();
  }
}


// ---- builds side by side (bench/compare.ts) ---------------------------------------------------

/** One build's server on its own copy of the seeded database. */
interface BuildContender {
  build: Build;
  dataDir: string;
  world: World;
  server: AppServer;
  inspector: Inspector | null;
  /** pg_stat_statements over the measurements (--statements). */
  statements: Map<string, Statement>;
  requests: number;
  /** Requests, latencies and errors of every measurement, per route (the table at the end). */
  reports: LoadReport[];
}

/** --explain[=RATE]: auto_explain logs EXPLAIN (ANALYZE, BUFFERS) of this share of each build's statements (0.02 unless given). */
const EXPLAIN_RATE = args.has("explain") ? (args.get("explain") === "true" ? 0.02 : Number(args.get("explain"))) : null;

const BUILD_FIGURES: Figure[] = [
  { key: "cpuMs", label: "CPU per request, server + PostgreSQL (ms)", digits: 3 },
  { key: "serverMs", label: "CPU per request, server (ms)", digits: 3 },
  { key: "mainThreadMs", label: "of which the server's main thread (ms)", digits: 3 },
  { key: "systemMs", label: "of which in the kernel (ms)", digits: 3 },
  { key: "databaseMs", label: "CPU per request, PostgreSQL (ms)", digits: 3 },
  { key: "rps", label: "req/s", digits: 0 },
  { key: "p50", label: "p50 (ms)", digits: 1 },
  { key: "p99", label: "p99 (ms)", digits: 1 },
  { key: "errors", label: "errors", digits: 0 },
  { key: "races", label: "409 lost races", digits: 0 },
  { key: "rssMb", label: "server RSS after the round (MB)", digits: 0 },
  { key: "peakMb", label: "server peak RSS (MB)", digits: 0 },
  { key: "helloRatio", label: "mix / hello world (req/s)", digits: 3 },
];

/** Seeds (or finds in .cache/bench-seeds/) one database per schema the builds need. */
async function seedForBuilds(builds: Build[]): Promise<{ build: Build; seed: SeededDirectory<WorldRows> }[]> {
  // What makes the rows: the seed's own code and the words it draws from (an edit elsewhere in this file keeps the seed).
  const recipe = createHash("sha1").update(seed.toString()).update(readWorld.toString()).update(JSON.stringify([TITLES, DESCRIPTIONS, FIRST_NAMES, CATEGORY_VALUES])).digest("hex");
  const seeds: { build: Build; seed: SeededDirectory<WorldRows> }[] = [];
  for (const group of seedingGroups(builds)) {
    const seeded = await seededDirectory<WorldRows>({
      key: JSON.stringify({ bench: "load", tasks: TASKS, users: USERS, schema: group.tags, recipe }),
      schemaRoot: group.schemaRoot,
      fresh: args.has("fresh-seed"),
      seed: async (url) => {
        const tokenPrefix = `load-${randomBytes(12).toString("hex")}-`;
        const database = await openDatabase({ databaseUrl: url, poolSize: 2 });
        try {
          await seed(database, tokenPrefix);
          return await readWorld(database, tokenPrefix);
        } finally {
          await database.close();
        }
      },
    });
    const at = group.tags.at(-1) ?? "?";
    console.log(`${seeded.cached ? "reused the seed" : `seeded in ${seeded.seconds.toFixed(1)} s`} at the schema of ${group.schemaRoot} (${group.tags.length} migrations, the last ${at}): ${seeded.meta.users.length} users, ${seeded.meta.tasks.length} tasks; ${seeded.dir}`);
    for (const build of group.builds) seeds.push({ build, seed: seeded });
  }
  return seeds;
}

async function startBuild(build: Build, seed: SeededDirectory<WorldRows>, inspect: boolean): Promise<BuildContender> {
  const dataDir = await copyDataDir(seed.dir, build.label);
  preloadSettings(dataDir, { statements: args.has("statements"), explainRate: EXPLAIN_RATE });
  const began = performance.now();
  // A newer build migrates its copy here, before it listens.
  const server = await startAppServer({
    entry: build.entry,
    root: build.root,
    dataDir,
    databaseUrl: null,
    env: { ...serverEnv(null), ...build.env },
    nodeFlags: [...build.nodeFlags, ...(inspect ? ["--inspect=127.0.0.1:0"] : [])],
  });
  const url = inspect ? inspectorUrlOf(server.output()) : null;
  if (inspect && !url) throw new Error(`${build.label}: the server did not print its inspector's address`);
  const inspector = url ? await Inspector.connect(url) : null;
  console.log(`${build.label}: server up in ${((performance.now() - began) / 1000).toFixed(1)} s, RSS ${memoryOf(server.child.pid ?? 0).rssMb.toFixed(0)} MB (${build.entry})`);
  return { build, dataDir, world: worldOf(seed.meta), server, inspector, statements: new Map(), requests: 0, reports: [] };
}

/**
 * --memory-timeline (with --inspect, --cpu-prof or --heap-snapshot): every 10 s of a measurement, the
 * server's RSS against V8's heap (reserved, used) and memory outside it, to tell live objects from
 * a heap V8 let grow and from native memory.
 */
function memoryTimeline(c: BuildContender, round: number): NodeJS.Timeout {
  const began = performance.now();
  return setInterval(() => {
    void c.inspector?.memory().then(
      (m) => console.log(`  ${c.build.label}, round ${round}, ${((performance.now() - began) / 1000).toFixed(0)} s: RSS ${m.rssMb} MB, heap ${m.heapUsedMb} used of ${m.heapTotalMb} MB, external ${m.externalMb} MB`),
      () => undefined,
    );
  }, 10_000);
}

async function measureBuild(c: BuildContender, round: number, comparison: Comparison, cpuProfDir: string | null, allocProfDir: string | null): Promise<void> {
  const pid = c.server.child.pid ?? 0;
  const postmaster = embeddedPostmaster(c.dataDir);
  const dbUrl = args.has("statements") ? await embeddedUrl(c.dataDir) : null;
  if (dbUrl) await statements(dbUrl, "reset");
  const load = loadAverageNow();
  if (cpuProfDir) await c.inspector?.startCpuProfile();
  if (allocProfDir) await c.inspector?.startAllocationProfile();
  const before = { server: cpuSecondsOf(pid), main: threadCpuSeconds(pid), system: systemSecondsOf(pid), db: clusterCpuSeconds(postmaster) };
  const timeline = c.inspector && args.has("memory-timeline") ? memoryTimeline(c, round) : null;
  const report = await runLoad(c.server.port, DURATION_S, mixedStep(c.world));
  const after = { server: cpuSecondsOf(pid), main: threadCpuSeconds(pid), system: systemSecondsOf(pid), db: clusterCpuSeconds(postmaster) };
  if (timeline) clearInterval(timeline);
  const requests = report.results.requests();
  const per = (a: number, b: number) => ((b - a) * 1000) / Math.max(1, requests);
  const serverMs = per(before.server, after.server);
  const databaseMs = per(before.db, after.db);
  if (cpuProfDir && c.inspector) {
    const file = join(cpuProfDir, `${c.build.label.replace(/\W+/g, "-")}-round${round}.cpuprofile`);
    await c.inspector.stopCpuProfile(file);
    // What bench/profile-summary.ts needs to turn the profile's shares into time per request.
    writeFileSync(file.replace(/\.cpuprofile$/, ".meta.json"), JSON.stringify({ build: c.build.label, round, requests, serverMs, mainThreadMs: per(before.main, after.main), databaseMs }));
  }
  const meta = JSON.stringify({ build: c.build.label, round, requests, serverMs, mainThreadMs: per(before.main, after.main), databaseMs });
  if (allocProfDir && c.inspector) {
    const file = join(allocProfDir, `${c.build.label.replace(/\W+/g, "-")}-round${round}.heapprofile`);
    await c.inspector.stopAllocationProfile(file);
    writeFileSync(file.replace(/\.heapprofile$/, ".meta.json"), meta);
  }
  if (dbUrl) addStatements(c.statements, await statements(dbUrl, "read"));
  c.requests += requests;
  c.reports.push(report);
  const summary = summarize(c.build.label, report, 0, null, null);
  const memory = memoryOf(pid);
  comparison.add(c.build.label, round, load, {
    cpuMs: serverMs + databaseMs,
    serverMs,
    mainThreadMs: per(before.main, after.main),
    systemMs: per(before.system, after.system),
    databaseMs,
    rps: summary.rps,
    p50: summary.p50,
    p99: summary.p99,
    errors: summary.errors,
    races: summary.races,
    rssMb: memory.rssMb,
    peakMb: memory.peakMb,
  });
  if (report.results.errorSamples.length > 0) console.log(`${c.build.label}: first errors:\n  ${report.results.errorSamples.join("\n  ")}`);
}

/**
 * --builds=LABEL:DIR,LABEL:DIR (bench/compare.ts): each build's server on its own copy of one seeded
 * embedded database, warmed up, then measured in turns for --rounds (A B, B A, ...), with hello
 * world measured after each pair; per measurement the CPU per request of the server and of its
 * PostgreSQL, the latencies, RSS; at the end the medians and the ratio of the last build to the first.
 */
async function runBuilds(builds: Build[]): Promise<void> {
  if (args.has("databases") && DATABASES.join(",") !== "embedded") throw new Error("--builds runs on the embedded PostgreSQL only (each build's server starts its own copy)");
  const rounds = Math.max(1, ROUNDS);
  const helloSeconds = Number(args.get("hello-duration") ?? Math.min(DURATION_S, 10));
  console.log(
    `bench:load, builds side by side: ${cpus().length} cores (${cpus()[0]?.model ?? "?"}), Node ${process.version}, ${CONNECTIONS} connections, ` +
      `${rounds} rounds of ${DURATION_S} s per build after ${WARMUP_S} s warm-up, ${TASKS} tasks, ${USERS} users; load average ${loadAverageNow()}`,
  );
  const cpuProfDir = args.has("cpu-prof") ? profileDir("cpu-prof") : null;
  const heapDir = args.has("heap-snapshot") ? profileDir("heap-snapshot") : null;
  // --alloc-prof[=DIR]: an allocation profile of each measurement (a different directory from
  // --cpu-prof's when both are asked, so each one's .meta.json stays beside its own profile).
  const allocProfDir = args.has("alloc-prof") ? profileDir("alloc-prof") : null;
  const inspect = cpuProfDir !== null || heapDir !== null || allocProfDir !== null || args.has("inspect");
  const seeds = await seedForBuilds(builds);
  const contenders: BuildContender[] = [];
  const hello = CEILINGS ? await startHelloWorld() : null;
  const comparison = new Comparison("bench:load", builds.map((b) => b.label), BUILD_FIGURES);
  try {
    for (const { build, seed } of seeds) contenders.push(await startBuild(build, seed, inspect));
    for (const c of contenders) if (WARMUP_S > 0) await runLoad(c.server.port, WARMUP_S, mixedStep(c.world));
    if (hello) await runLoad(hello.port, Math.min(WARMUP_S, 2), helloStep);
    for (let round = 1; round <= rounds; round++) {
      const order = round % 2 === 1 ? contenders : [...contenders].reverse();
      for (const c of order) await measureBuild(c, round, comparison, cpuProfDir, allocProfDir);
      if (hello) {
        const load = loadAverageNow();
        const helloRps = summarize("hello world", await runLoad(hello.port, helloSeconds, helloStep), 0, null, null).rps;
        console.log(`round ${round}, hello world (load average ${load}): ${helloRps.toFixed(0)} req/s`);
        for (const c of contenders) {
          const rps = completed(c.reports.at(-1) as LoadReport) / (c.reports.at(-1)?.seconds ?? 1);
          comparison.set(c.build.label, round, "helloRatio", rps / helloRps);
        }
      }
    }
    for (const c of contenders) {
      if (c.inspector) {
        // Before and after a full collection: what V8 holds that is garbage, and what is live.
        const m = await c.inspector.memory();
        await c.inspector.send("HeapProfiler.collectGarbage");
        const gc = await c.inspector.memory();
        console.log(
          `${c.build.label}: memory at the end: RSS ${m.rssMb} MB, heap ${m.heapUsedMb} used of ${m.heapTotalMb} MB (old space ${m.spaces.old_space?.sizeMb} MB, new space ${m.spaces.new_space?.sizeMb} MB, code ${m.spaces.code_space?.sizeMb} MB, large objects ${m.spaces.large_object_space?.sizeMb} MB), external ${m.externalMb} MB (array buffers ${m.arrayBuffersMb} MB); ` +
            `after a full collection: RSS ${gc.rssMb} MB, heap ${gc.heapUsedMb} used of ${gc.heapTotalMb} MB`,
        );
      }
      if (heapDir && c.inspector) {
        const file = join(heapDir, `${c.build.label.replace(/\W+/g, "-")}.heapsnapshot`);
        await c.inspector.heapSnapshot(file);
        console.log(`${c.build.label}: heap snapshot ${file}`);
      }
    }
    console.log(`\n| Route | ${builds.map((b) => `${b.label}: requests, p50, p99 ms`).join(" | ")} |\n|---|${builds.map(() => "---|").join("")}`);
    const merged = contenders.map((c) => summarize(c.build.label, mergeReports(c.reports), 0, null, null));
    const routes = [...new Set(contenders.flatMap((c) => c.reports.flatMap((r) => [...r.results.routes.keys()])))].sort();
    for (const route of routes) {
      const cells = contenders.map((c) => {
        const all = c.reports.flatMap((r) => r.results.routes.get(route)?.latencies ?? []).sort((p, q) => p - q);
        return `${all.length}, ${ms(percentile(all, 50))}, ${ms(percentile(all, 99))}`;
      });
      console.log(`| ${route} | ${cells.join(" | ")} |`);
    }
    comparison.print();
    if (args.has("statements")) {
      for (const c of contenders) console.log(`\n${statementsReport(c.build.label, c.statements, c.requests, "request")}`);
      console.log(`\nStatements side by side\n\n${statementsSideBySide(contenders.map((c) => ({ label: c.build.label, statements: c.statements, per: c.requests })), "request")}`);
    }
    if (cpuProfDir) console.log(`\nCPU profiles of each measurement: ${cpuProfDir} (npx tsx bench/profile-summary.ts ${cpuProfDir}/*.cpuprofile)`);
    if (allocProfDir) console.log(`allocation profiles of each measurement: ${allocProfDir} (npx tsx bench/profile-summary.ts ${allocProfDir}/*.heapprofile)`);
    const statementsByBuild = Object.fromEntries(contenders.map((c) => [c.build.label, { requests: c.requests, statements: [...c.statements.values()] }]));
    console.log(`results: ${comparison.save({ tasks: TASKS, users: USERS, connections: CONNECTIONS, duration: DURATION_S, statements: statementsByBuild })}`);
    if (merged.some((m) => m.errors > 0)) process.exitCode = 1;
  } finally {
    for (const c of contenders) {
      c.inspector?.close();
      await c.server.stop().catch((err: unknown) => console.log(`${c.build.label}: could not stop the server: ${String(err)}`));
      if (EXPLAIN_RATE !== null) {
        const file = join(profileDir("explain-dir"), `${c.build.label.replace(/\W+/g, "-")}-server.log`);
        copyFileSync(serverLogOf(c.dataDir), file);
        console.log(`${c.build.label}: auto_explain's plans in ${file}`);
      }
      if (!args.has("keep-data")) rmSync(c.dataDir, { recursive: true, force: true });
      else console.log(`${c.build.label}: data kept in ${c.dataDir}`);
    }
    await hello?.stop();
  }
}

if (args.has("builds")) {
  await runBuilds(buildsOption(args.get("builds") ?? ""));
} else if (TOPOLOGY === "haproxy") {
  await runBalanced();
} else if (args.has("seed-only")) {
  await seedOnly(args.get("seed-only") ?? "");
} else if (args.has("write-query")) {
  await writeQuery();
} else {
  await main();
}
