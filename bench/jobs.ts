import { fork, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { migrateDatabase, openDatabase, queryRows, type Database } from "../src/server/db/client.js";
import { openEmbeddedPostgres } from "../src/server/db/embedded-postgres.js";
import { CATEGORY_VALUES } from "../src/shared/constants.js";
import { benchArgs } from "./args.js";
import { startHelloWorld } from "./app-server.js";
import { databasesOption, externalPostgres, type BenchDatabase } from "./databases.js";

// Job board benchmark (docs/benchmarks.md, "Job board (bench:jobs)"): seeds 1k, then 100k open
// tasks, starts the real app on 127.0.0.1 in a child process (so the load loop does not share
// its event loop), and measures GET /api/tasks/open at 50 concurrent keep-alive connections.
//
//   npm run bench:jobs                       embedded PostgreSQL (the default, under a fresh DATA_DIR),
//                                            then an external PostgreSQL (DATABASE_URL's server, else a
//                                            throwaway cluster from Debian's binaries; bench/databases.ts)
//   npm run bench:jobs -- --duration=10 --runs=3 --sizes=1000,100000 --concurrency=50 --databases=embedded,postgres --warmup=1
//                                            the defaults: each cell --runs × --duration s (fractions
//                                            allowed) after a --warmup of its own, not measured
//   npm run bench:jobs -- --sizes=1000000 --users=100000     a million tasks from 100,000 posters (issue 32)
//   npm run bench:jobs -- --metrics=compare                  each run also against a second app on the same
//                                                            database with METRICS_TOKEN set, runs alternating,
//                                                            and the ratio metrics on / off (docs/operations.md)

const args = benchArgs();
const DURATION_S = Number(args.get("duration") ?? 10);
/** Seconds of the same requests before each measured run, not counted (JIT, prepared statements). */
const WARMUP_S = Number(args.get("warmup") ?? 1);
const RUNS = Number(args.get("runs") ?? 3);
const SIZES = (args.get("sizes") ?? "1000,100000").split(",").map(Number);
const CONCURRENCY = Number(args.get("concurrency") ?? 50);
const DATABASES = databasesOption(args.get("databases"));
/** Posters who own the tasks: a hundredth of the tasks unless given. */
const USERS = args.has("users") ? Number(args.get("users")) : null;
const COMPARE_METRICS = args.get("metrics") === "compare";
const SCENARIOS = [
  { name: "no filter", path: "/api/tasks/open" },
  { name: "category=delivery", path: "/api/tasks/open?category=delivery" },
  { name: "search=grocery", path: "/api/tasks/open?search=grocery" },
  // The filters of issue 15 (docs/product.md#job-board-filters). The seed's positions cover
  // 38.9-39.89 N, 76.5-76.99 W: 21401 (Annapolis) is inside, where about 6% of tasks lie within 10
  // miles; 21701 (Frederick) is 20 miles west of the seeded area, so nothing is within 5 miles and
  // the query must look at every candidate the box lets through to say so.
  { name: "near=21401&radiusMiles=10", path: "/api/tasks/open?near=21401&radiusMiles=10" },
  { name: "near=21701&radiusMiles=5 (none)", path: "/api/tasks/open?near=21701&radiusMiles=5" },
];

const TITLES = [
  "Pick up groceries", "Deliver a birthday cake", "Deep clean an apartment", "Help move a couch",
  "Weekly grocery run", "Walk a golden retriever", "Print presentation binders", "Organize a garage",
  "Return packages", "Assemble an office desk", "Pick up pet medication", "Farmers market shopping",
  "Wash the car", "Hang shelves", "Water the plants", "Drop off dry cleaning",
];
const DESCRIPTIONS = [
  "About an hour of work, supplies on site.", "Receipts required, list shared after claim.",
  "Needs a car with a large trunk.", "Stairs involved, two flights.", "Flexible on timing this week.",
  "Grocery store is five minutes away.", "Fragile items, please handle with care.", "Keys with the concierge.",
];

/** Open tasks in bulk with generate_series: varied titles, categories, budgets and positions. */
async function seed(database: Database, count: number): Promise<void> {
  const db = database.db;
  const posters = USERS ?? Math.max(10, Math.floor(count / 100));
  await db.execute(sql`insert into users (email, first_name, last_name, role)
    select 'bench-' || g || '@example.test', 'Poster', 'N' || g, 'user' from generate_series(1, ${posters}) g`);
  const titles = sql.raw(`array[${TITLES.map((t) => `'${t}'`).join(",")}]`);
  const descriptions = sql.raw(`array[${DESCRIPTIONS.map((t) => `'${t}'`).join(",")}]`);
  const categories = sql.raw(`array[${CATEGORY_VALUES.map((c) => `'${c}'`).join(",")}]`);
  await db.execute(sql`
    with u as (select id, row_number() over (order by id) as n from users where email like 'bench-%'),
    g as (select g, 2000 + (g * 37) % 20000 as budget from generate_series(1, ${count}) g)
    insert into tasks (user_id, title, description, category, urgency, budget_cents, urgent_fee_cents,
      service_fee_cents, total_cents, provider_share_cents, platform_commission_cents, location, city, state, lat, lon, approx_lat, approx_lon, status, created_at, updated_at)
    select u.id,
      (${titles})[1 + g.g % ${TITLES.length}] || ' #' || g.g,
      (${descriptions})[1 + (g.g / 7) % ${DESCRIPTIONS.length}],
      (${categories})[1 + g.g % ${CATEGORY_VALUES.length}],
      'standard', g.budget, 0, ceil(g.budget * 0.08)::int + 50, g.budget + ceil(g.budget * 0.08)::int + 50,
      g.budget - round(g.budget * 0.15)::int, round(g.budget * 0.15)::int,
      g.g || ' Main St', 'Annapolis', 'MD',
      38.9 + (g.g % 100) * 0.01, -76.5 - (g.g % 50) * 0.01,
      round((38.9 + (g.g % 100) * 0.01)::numeric, 2), round((-76.5 - (g.g % 50) * 0.01)::numeric, 2),
      'open', now() - g.g * interval '1 minute', now()
    from g join u on u.n = 1 + g.g % ${posters}`);
  await db.execute(sql`analyze`);
}

interface Stats {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/**
 * One GET on a keep-alive connection, the body read and dropped: node:http, the generator bench:load
 * uses (undici's fetch cost the load loop more than the server's answer: hello world was 8,800
 * req/s through it and 28,000 through this).
 */
function get(agent: http.Agent, url: URL): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get({ agent, host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, headers: { accept: "application/json" } }, (res) => {
      res.on("data", () => undefined);
      res.on("end", () => resolve(res.statusCode ?? 0));
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}

/** CONCURRENCY loops, each one keep-alive connection with one request at a time, for `seconds`, after WARMUP_S of warm-up. */
async function load(address: string, seconds: number): Promise<Stats> {
  const url = new URL(address);
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY, maxFreeSockets: CONCURRENCY });
  const latencies: number[] = [];
  let errors = 0;
  const run = async (until: number, record: boolean) => {
    while (performance.now() < until) {
      const start = performance.now();
      const status = await get(agent, url).catch(() => 0);
      if (!record) continue;
      if (status !== 200) errors += 1;
      latencies.push(performance.now() - start);
    }
  };
  const warm = performance.now() + WARMUP_S * 1000;
  await Promise.all(Array.from({ length: CONCURRENCY }, () => run(warm, false)));
  const began = performance.now();
  const until = began + seconds * 1000;
  await Promise.all(Array.from({ length: CONCURRENCY }, () => run(until, true)));
  const elapsed = (performance.now() - began) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors };
}

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

// ---- child: one database with `size` tasks behind the real app -------------------------------

/**
 * embedded: `target` is a fresh DATA_DIR and this process starts the embedded PostgreSQL under
 * DATA_DIR/postgres, as the server does with no DATABASE_URL; postgres: `target` is the URL of a
 * fresh database on the external server.
 */
async function serve(kind: BenchDatabase, size: number, target: string): Promise<void> {
  const embedded = kind === "embedded" ? await openEmbeddedPostgres({ dir: target }) : null;
  const url = embedded?.url ?? target;
  await migrateDatabase(url);
  const database = await openDatabase({ databaseUrl: url });
  const seeded = performance.now();
  await seed(database, size);
  const seedMs = performance.now() - seeded;
  const dataDir = kind === "embedded" ? target : mkdtempSync(join(tmpdir(), "errandly-bench-data-"));
  // The loops all come from 127.0.0.1 and stand for many visitors: the per-address limits
  // (docs/decisions/043-slow-requests-bounded.md) would measure one address's share.
  // Loaded here, in the server process only: the app's modules cost the load loop's process seconds of CPU.
  const [{ buildApp }, { parseEnv }] = await Promise.all([import("../src/server/app.js"), import("../src/server/config/env.js")]);
  const env = parseEnv({
    NODE_ENV: "production",
    LOG_LEVEL: "silent",
    SEED_DEMO: "false",
    DATA_DIR: dataDir,
    MAX_CONNECTIONS_PER_ADDRESS: "10000",
    MAX_CONCURRENT_PER_ADDRESS: "10000",
    REQUEST_QUEUE_PER_ADDRESS: "10000",
  });
  const app = await buildApp({ env, database, logger: false });
  const port = await listen(app);
  // The same app with metrics on, beside it on the same database (--metrics=compare).
  const metricsApp = COMPARE_METRICS ? await buildApp({ env: { ...env, METRICS_TOKEN: "bench-metrics-token-0123456789" }, database, logger: false }) : null;
  const metricsPort = metricsApp ? await listen(metricsApp) : null;
  const [dbSize] = await queryRows<{ bytes: string }>(database.db, sql`select pg_database_size(current_database())::text as bytes`);
  process.send?.({ port, metricsPort, seedMs, databaseBytes: Number(dbSize?.bytes ?? 0) });
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void Promise.all([app.close(), metricsApp?.close()])
      .then(() => database.close())
      .then(() => embedded?.stop("fast"))
      .finally(() => {
        if (kind === "postgres") rmSync(dataDir, { recursive: true, force: true });
        process.exit(0);
      });
  };
  process.on("message", stop);
  // The bench died (an error, Ctrl-C): do not outlive it, nor leave its PostgreSQL running.
  process.once("disconnect", stop);
}

async function listen(app: FastifyInstance): Promise<number> {
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  return typeof address === "object" && address ? address.port : 0;
}

// ---- parent: seed, load, report -------------------------------------------------------------

interface Served {
  child: ChildProcess;
  port: number;
  metricsPort: number | null;
  seedMs: number;
  databaseBytes: number;
}

function startServer(kind: BenchDatabase, size: number, target: string): Promise<Served> {
  // The child seeds and serves: it needs the options that shape the seed and the apps.
  const passed = ["users", "metrics"].filter((name) => args.has(name)).map((name) => `--${name}=${args.get(name)}`);
  const child = fork(process.argv[1] ?? "", ["--serve", `--kind=${kind}`, `--size=${size}`, `--target=${target}`, ...passed], {
    execArgv: process.execArgv,
  });
  return new Promise((resolve, reject) => {
    child.once("message", (m) => resolve({ child, ...(m as Omit<Served, "child">) }));
    child.once("exit", (code) => reject(new Error(`bench server exited with ${code}`)));
  });
}

async function main(): Promise<void> {
  console.log(`bench:jobs on ${cpus().length} cores, ${CONCURRENCY} connections, ${RUNS} x ${DURATION_S}s per cell (median shown)`);
  // The ceiling beside it, by the same loop (issue 16: the first page at 30% of hello world's req/s, side by side).
  const hello = await startHelloWorld();
  const helloRps = median(await Array.from({ length: RUNS }).reduce<Promise<number[]>>(async (all) => [...(await all), (await load(`http://127.0.0.1:${hello.port}/`, DURATION_S)).rps], Promise.resolve([])));
  await hello.stop();
  console.log(`hello world: ${helloRps.toFixed(0)} req/s`);
  const external = DATABASES.includes("postgres") ? await externalPostgres() : null;
  if (external) console.log(`postgres: ${external.description}`);
  const rows: string[] = [];
  try {
    for (const kind of DATABASES) {
      const rpsBySize = new Map<number, number[]>();
      for (const size of SIZES) {
        const pgDb = kind === "postgres" && external ? await external.createDatabase() : null;
        const dataDir = kind === "embedded" ? mkdtempSync(join(tmpdir(), "errandly-bench-jobs-")) : null;
        try {
          const { child, port, metricsPort, seedMs, databaseBytes } = await startServer(kind, size, pgDb?.url ?? dataDir ?? "");
          console.log(`${kind}: seeded ${size} tasks in ${(seedMs / 1000).toFixed(1)}s; database ${(databaseBytes / 1024 / 1024).toFixed(0)} MB`);
          for (const scenario of SCENARIOS) {
            const runs: Stats[] = [];
            const withMetrics: Stats[] = [];
            for (let i = 0; i < RUNS; i++) {
              runs.push(await load(`http://127.0.0.1:${port}${scenario.path}`, DURATION_S));
              if (metricsPort) withMetrics.push(await load(`http://127.0.0.1:${metricsPort}${scenario.path}`, DURATION_S));
            }
            if (metricsPort) {
              const on = median(withMetrics.map((r) => r.rps));
              const off = median(runs.map((r) => r.rps));
              console.log(`${kind} ${size} ${scenario.name}: metrics off ${off.toFixed(0)} req/s, on ${on.toFixed(0)} req/s, on/off ${(on / off).toFixed(3)}`);
            }
            const cell = {
              rps: median(runs.map((r) => r.rps)),
              p50: median(runs.map((r) => r.p50)),
              p99: median(runs.map((r) => r.p99)),
              errors: runs.reduce((n, r) => n + r.errors, 0),
            };
            rpsBySize.set(size, [...(rpsBySize.get(size) ?? []), cell.rps]);
            const line = `| ${kind} | ${size.toLocaleString("en-US")} | ${scenario.name} | ${cell.rps.toFixed(0)} | ${(cell.rps / helloRps).toFixed(2)} | ${cell.p50.toFixed(1)} | ${cell.p99.toFixed(1)} | ${cell.errors} |`;
            rows.push(line);
            console.log(line);
          }
          child.send("stop");
          await new Promise((resolve) => child.once("exit", resolve));
        } finally {
          await pgDb?.drop();
          if (dataDir) rmSync(dataDir, { recursive: true, force: true });
        }
      }
      const small = rpsBySize.get(SIZES[0] ?? 0) ?? [];
      const large = rpsBySize.get(SIZES.at(-1) ?? 0) ?? [];
      const ratios = SCENARIOS.map((s, i) => `${s.name} ${((large[i] ?? 0) / (small[i] ?? 1)).toFixed(2)}`);
      console.log(`${kind}: req/s ratio ${SIZES.at(-1)}/${SIZES[0]}: ${ratios.join(", ")}`);
    }
  } finally {
    await external?.stop();
  }
  console.log(`\nhello world (same loop, same run): ${helloRps.toFixed(0)} req/s`);
  console.log("\n| Database | Open tasks | Query | req/s | / hello world | p50 ms | p99 ms | errors |\n|---|---|---|---|---|---|---|---|");
  for (const row of rows) console.log(row);
}

if (args.has("serve")) {
  const kind = args.get("kind") === "postgres" ? "postgres" : "embedded";
  await serve(kind, Number(args.get("size")), args.get("target") ?? "");
} else {
  await main();
}
