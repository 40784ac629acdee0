import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { startAppServer, warnIfStale } from "./app-server.js";
import { benchArgs } from "./args.js";

// What one request of each hot route costs, alone (issue 16: find the cost before changing code).
// bench:load measures the mix; this measures each route on its own with few connections, so the
// server is not saturated and its CPU time per request is the route's own cost: the server's Node
// process, every PostgreSQL process, and the statements the route sent (pg_stat_statements, when
// the database has it).
//
//   npm run bench:load -- --seed-only=postgres://postgres@127.0.0.1:55499/bench   (once: prints the cookie prefix)
//   npm run bench:routes -- --database=postgres://postgres@127.0.0.1:55499/bench --cookie-prefix=load-…- [--duration=5] [--connections=4] [--warmup=1] [--only=board,task] [--cpu-prof=DIR]
//                                            the defaults: each route --duration s after --warmup s not measured
//   two builds side by side: --server=../base/dist/server/server/main.js,dist/server/server/main.js --rounds=3
//
// The database is the one --seed-only seeded (its world: users load-N@example.test with sessions
// whose token is the printed prefix + N, tasks, chats). The server is the built one
// (dist/server/server/main.js) in production mode, as bench:load runs it.

const ROOT = resolve(import.meta.dirname, "..");
const args = benchArgs();
const DATABASE_URL = args.get("database");
const COOKIE_PREFIX = args.get("cookie-prefix");
if (!DATABASE_URL || !COOKIE_PREFIX) throw new Error("--database=postgres://… and --cookie-prefix=… (from bench:load --seed-only) are required");
const DURATION_S = Number(args.get("duration") ?? 5);
const CONNECTIONS = Number(args.get("connections") ?? 4);
/** Seconds of each route before it is measured: JIT, prepared statements on every pooled connection. */
const WARMUP_S = Number(args.get("warmup") ?? 1);
const ONLY = args.get("only")?.split(",");
const ENTRIES = (args.get("server") ?? "dist/server/server/main.js").split(",").map((e) => resolve(ROOT, e));
const ROUNDS = Number(args.get("rounds") ?? 1);

const cookieOf = (n: number) => `errandly_session=${COOKIE_PREFIX}${n}`;

interface Case {
  name: string;
  /** A request description for autocannon; called for every request. */
  request: () => { method: "GET" | "POST" | "PATCH"; path: string; headers?: Record<string, string>; body?: string };
}

const database = new pg.Client({ connectionString: DATABASE_URL });
await database.connect();
/** The seeded people (load-1 … load-N@example.test), whatever --users the seed had. */
const USERS = Number((await database.query<{ n: string }>("select count(*) as n from users where email like 'load-%@example.test'")).rows[0]?.n ?? 0);
if (USERS === 0) throw new Error(`${DATABASE_URL} has no bench:load users: seed it with npm run bench:load -- --seed-only=…`);
/** A seeded person at random, signed in by the session the seed gave them. */
const anyone = () => 1 + Math.floor(Math.random() * USERS);
const openTaskIds = (await database.query<{ id: string }>("select id from tasks where status = 'open' order by random() limit 2000")).rows.map((r) => r.id);
/** In-progress tasks with the user number of their poster and provider: the chats. */
const chats = (
  await database.query<{ id: string; poster: number; provider: number }>(
    `select t.id, split_part(split_part(p.email, '@', 1), '-', 2)::int as poster, split_part(split_part(v.email, '@', 1), '-', 2)::int as provider
       from tasks t join users p on p.id = t.user_id join users v on v.id = t.provider_id
      where t.status = 'in_progress' and p.email like 'load-%' and v.email like 'load-%' order by random() limit 500`,
  )
).rows;
const pick = <T>(list: readonly T[]): T => {
  const item = list[Math.floor(Math.random() * list.length)];
  if (item === undefined) throw new Error("empty list");
  return item;
};
let counter = 0;

const cases: Case[] = [
  { name: "health", request: () => ({ method: "GET", path: "/api/health" }) },
  // The same first page again and again: the board's kept answer (decision 035).
  { name: "board-kept", request: () => ({ method: "GET", path: "/api/tasks/open?pageSize=30" }) },
  // A different minimum budget each time: every request misses the kept answers and runs the query.
  { name: "board", request: () => ({ method: "GET", path: `/api/tasks/open?pageSize=30&minBudget=${1 + (counter++ % 100_000) / 1000}` }) },
  { name: "task", request: () => ({ method: "GET", path: `/api/tasks/${pick(openTaskIds)}` }) },
  { name: "task-signed-in", request: () => ({ method: "GET", path: `/api/tasks/${pick(openTaskIds)}`, headers: { cookie: cookieOf(anyone()) } }) },
  {
    name: "post",
    request: () => {
      const n = counter++;
      // Spread over the users so the hourly posting limit is not reached.
      const body = { title: `Load task ${n}`, description: "Should take under an hour.", category: "delivery", budget: 20 + (n % 200), urgency: "standard", location: `${n % 999} Main St`, city: "Annapolis", state: "MD", lat: 38.9, lon: -76.5 };
      return { method: "POST", path: "/api/tasks", headers: { cookie: cookieOf(1 + (n % USERS)), "content-type": "application/json", origin: ORIGIN() }, body: JSON.stringify(body) };
    },
  },
  {
    name: "message",
    request: () => {
      const chat = pick(chats);
      const body = { taskId: chat.id, content: "On my way, ten minutes out." };
      return { method: "POST", path: "/api/messages", headers: { cookie: cookieOf(Math.random() < 0.5 ? chat.poster : chat.provider), "content-type": "application/json", origin: ORIGIN() }, body: JSON.stringify(body) };
    },
  },
  { name: "messages", request: () => {
      const chat = pick(chats);
      return { method: "GET", path: `/api/messages/${chat.id}`, headers: { cookie: cookieOf(chat.poster) } };
    },
  },
  { name: "user", request: () => ({ method: "GET", path: "/api/auth/user", headers: { cookie: cookieOf(anyone()) } }) },
];

function cpuSecondsOf(pid: number, which: "all" | "system" = "all"): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return ((which === "all" ? Number(fields[11]) : 0) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}
function databaseCpuSeconds(): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() === "postgres") total += cpuSecondsOf(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

async function statements(reset: boolean): Promise<{ calls: number; execMs: number; planMs: number } | null> {
  try {
    if (reset) {
      await database.query("select pg_stat_statements_reset()");
      return null;
    }
    const { rows } = await database.query<{ calls: string; exec: number; plan: number }>(
      "select sum(calls) as calls, sum(total_exec_time) as exec, sum(total_plan_time) as plan from pg_stat_statements where query not like '%pg_stat_statements%'",
    );
    const row = rows[0];
    if (args.has("statements")) {
      // --statements: each statement the route sent, by calls.
      const each = await database.query<{ calls: string; exec: number; plan: number; query: string }>(
        "select calls, total_exec_time as exec, total_plan_time as plan, regexp_replace(query, '\\s+', ' ', 'g') as query from pg_stat_statements where query not like '%pg_stat_statements%' order by calls desc, total_exec_time desc limit 20",
      );
      for (const r of each.rows) console.log(`    ${r.calls.padStart(7)} calls ${Number(r.exec).toFixed(0).padStart(6)} ms exec ${Number(r.plan).toFixed(0).padStart(6)} ms plan  ${r.query.slice(0, 160)}`);
    }
    return row ? { calls: Number(row.calls), execMs: Number(row.exec), planMs: Number(row.plan) } : null;
  } catch {
    return null;
  }
}

let origin = "";
const ORIGIN = () => origin;

interface Measure {
  reqPerS: number;
  p50: number;
  p99: number;
  serverMs: number;
  serverKernelMs: number;
  databaseMs: number;
  statements: { calls: number; execMs: number; planMs: number } | null;
  notOk: number;
}

async function measure(port: number, pid: number, c: Case): Promise<Measure> {
  origin = `http://127.0.0.1:${port}`;
  const run = (duration: number) =>
    autocannon({ url: origin, connections: CONNECTIONS, duration, requests: [{ setupRequest: (r: autocannon.Request) => ({ ...r, ...c.request() }) }] });
  if (WARMUP_S > 0) await run(WARMUP_S);
  await statements(true);
  const before = { server: cpuSecondsOf(pid), system: cpuSecondsOf(pid, "system"), database: databaseCpuSeconds() };
  const result = await run(DURATION_S);
  const n = result.requests.total;
  const perReq = (seconds: number) => (seconds * 1000) / n;
  return {
    reqPerS: n / DURATION_S,
    p50: result.latency.p50,
    p99: result.latency.p99,
    serverMs: perReq(cpuSecondsOf(pid) - before.server),
    serverKernelMs: perReq(cpuSecondsOf(pid, "system") - before.system),
    databaseMs: perReq(databaseCpuSeconds() - before.database),
    statements: await statements(false).then((s) => (s ? { calls: s.calls / n, execMs: s.execMs / n, planMs: s.planMs / n } : null)),
    notOk: result.non2xx + result.errors,
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

function row(label: string, runs: Measure[]): string {
  const m = (f: (x: Measure) => number, digits = 3) => median(runs.map(f)).toFixed(digits);
  const st = runs.every((r) => r.statements) ? runs.map((r) => r.statements as NonNullable<Measure["statements"]>) : null;
  const notOk = runs.reduce((n, r) => n + r.notOk, 0);
  return `| ${label}${notOk > 0 ? ` (${notOk} not 2xx)` : ""} | ${m((x) => x.reqPerS, 0)} | ${m((x) => x.p50, 0)} | ${m((x) => x.p99, 0)} | ${m((x) => x.serverMs)} (kernel ${m((x) => x.serverKernelMs)}) | ${m((x) => x.databaseMs)} | ${st ? median(st.map((x) => x.calls)).toFixed(2) : "-"} | ${st ? median(st.map((x) => x.execMs)).toFixed(3) : "-"} | ${st ? median(st.map((x) => x.planMs)).toFixed(3) : "-"} |`;
}

// --server=a.js,b.js: two builds side by side, measured in turns (A B, B A, ...) --rounds times, medians.
const entries = ENTRIES;
for (const entry of entries) warnIfStale(entry);
const servers = [];
/** The servers' DATA_DIRs (uploads only: the database is --database), removed at the end. */
const dataDirs = entries.map((_, i) => mkdtempSync(join(tmpdir(), `errandly-bench-routes-${i}-`)));
for (const [i, entry] of entries.entries()) {
  servers.push(
    await startAppServer({
      entry,
      dataDir: dataDirs[i] ?? "",
      databaseUrl: DATABASE_URL,
      env: {
        SANDBOX_PAYMENTS_IN_PRODUCTION: "true",
        // --cpu-prof=DIR: the server's V8 CPU profile over every route measured, written when it stops.
        ...(args.has("cpu-prof") ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${resolve(args.get("cpu-prof") ?? "")}` } : {}),
      },
    }),
  );
}
console.log(
  `bench:routes: ${cpus().length} cores, ${CONNECTIONS} connections, ${DURATION_S} s per route, ${ROUNDS} round(s) (load average ${loadavg().map((l) => l.toFixed(1)).join(" ")})`,
);
for (const [i, entry] of entries.entries()) console.log(`  ${"AB"[i]}: ${entry}`);
console.log("| route | req/s | p50 ms | p99 ms | server CPU ms/req | PostgreSQL CPU ms/req | statements/req | exec ms/req | plan ms/req |");
console.log("|---|---|---|---|---|---|---|---|---|");
try {
  for (const c of cases) {
    if (ONLY && !ONLY.includes(c.name)) continue;
    const runs: Measure[][] = servers.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? servers.map((_, i) => i) : servers.map((_, i) => i).reverse();
      for (const i of order) {
        const server = servers[i];
        if (server) runs[i]?.push(await measure(server.port, server.child.pid ?? 0, c));
      }
    }
    for (const [i, r] of runs.entries()) console.log(row(servers.length > 1 ? `${c.name} ${"AB"[i]}` : c.name, r));
  }
} finally {
  for (const server of servers) await server.stop();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  await database.end();
}
