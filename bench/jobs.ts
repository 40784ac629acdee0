import { fork, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { cpus } from "node:os";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import pg from "pg";
import { buildApp } from "../src/server/app.js";
import { parseEnv } from "../src/server/config/env.js";
import { migrateDatabase, openDatabase, type Database } from "../src/server/db/client.js";
import { CATEGORY_VALUES } from "../src/shared/constants.js";
import { benchArgs } from "./args.js";

// Job board benchmark (docs/benchmarks.md, "Job board (bench:jobs)"): seeds 1k, then 100k open
// tasks, starts the real app on 127.0.0.1 in a child process (so the load loop does not share
// its event loop), and measures GET /api/tasks/open at 50 concurrent keep-alive connections.
//
//   npm run bench:jobs                       PGlite, then PostgreSQL too when DATABASE_URL is set
//   npm run bench:jobs -- --duration=10 --runs=3 --sizes=1000,100000 --concurrency=50 --databases=pglite,postgres

const args = benchArgs();
const DURATION_S = Number(args.get("duration") ?? 10);
const RUNS = Number(args.get("runs") ?? 3);
const SIZES = (args.get("sizes") ?? "1000,100000").split(",").map(Number);
const CONCURRENCY = Number(args.get("concurrency") ?? 50);
const SCENARIOS = [
  { name: "no filter", path: "/api/tasks/open" },
  { name: "category=delivery", path: "/api/tasks/open?category=delivery" },
  { name: "search=grocery", path: "/api/tasks/open?search=grocery" },
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
  const posters = Math.max(10, Math.floor(count / 100));
  await db.execute(sql`insert into users (email, first_name, last_name, role)
    select 'bench-' || g || '@example.test', 'Poster', 'N' || g, 'user' from generate_series(1, ${posters}) g`);
  const titles = sql.raw(`array[${TITLES.map((t) => `'${t}'`).join(",")}]`);
  const descriptions = sql.raw(`array[${DESCRIPTIONS.map((t) => `'${t}'`).join(",")}]`);
  const categories = sql.raw(`array[${CATEGORY_VALUES.map((c) => `'${c}'`).join(",")}]`);
  await db.execute(sql`
    with u as (select id, row_number() over (order by id) as n from users where email like 'bench-%'),
    g as (select g, 2000 + (g * 37) % 20000 as budget from generate_series(1, ${count}) g)
    insert into tasks (user_id, title, description, category, urgency, budget_cents, urgent_fee_cents,
      service_fee_cents, total_cents, location, city, state, lat, lon, approx_lat, approx_lon, status, created_at, updated_at)
    select u.id,
      (${titles})[1 + g.g % ${TITLES.length}] || ' #' || g.g,
      (${descriptions})[1 + (g.g / 7) % ${DESCRIPTIONS.length}],
      (${categories})[1 + g.g % ${CATEGORY_VALUES.length}],
      'standard', g.budget, 0, ceil(g.budget * 0.08)::int + 50, g.budget + ceil(g.budget * 0.08)::int + 50,
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

/** CONCURRENCY loops over fetch (undici keep-alive) for `seconds`, after a one-second warm-up. */
async function load(url: string, seconds: number): Promise<Stats> {
  const latencies: number[] = [];
  let errors = 0;
  const run = async (until: number, record: boolean) => {
    while (performance.now() < until) {
      const start = performance.now();
      const res = await fetch(url);
      await res.arrayBuffer();
      if (!record) continue;
      if (res.status !== 200) errors += 1;
      latencies.push(performance.now() - start);
    }
  };
  const warm = performance.now() + 1000;
  await Promise.all(Array.from({ length: CONCURRENCY }, () => run(warm, false)));
  const began = performance.now();
  const until = began + seconds * 1000;
  await Promise.all(Array.from({ length: CONCURRENCY }, () => run(until, true)));
  const elapsed = (performance.now() - began) / 1000;
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors };
}

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

// ---- child: one database with `size` tasks behind the real app -------------------------------

async function serve(kind: "pglite" | "postgres", size: number, databaseUrl: string | undefined): Promise<void> {
  const database = await openDatabase(kind === "postgres" ? { databaseUrl, poolSize: 10 } : { dataDir: "memory://" });
  await migrateDatabase(database);
  const seeded = performance.now();
  await seed(database, size);
  const seedMs = performance.now() - seeded;
  const env = parseEnv({ NODE_ENV: "production", LOG_LEVEL: "silent", SEED_DEMO: "false", DATA_DIR: `/tmp/errandly-bench-${randomUUID()}` });
  const app = await buildApp({ env, database, logger: false });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  process.send?.({ port, seedMs });
  process.on("message", () => {
    void app.close().then(() => database.close()).then(() => process.exit(0));
  });
}

// ---- parent: seed, load, report -------------------------------------------------------------

async function createBenchDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `errandly_bench_${randomUUID().replaceAll("-", "")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

function startServer(kind: "pglite" | "postgres", size: number, url: string | undefined): Promise<{ child: ChildProcess; port: number; seedMs: number }> {
  const child = fork(process.argv[1] ?? "", ["--serve", `--kind=${kind}`, `--size=${size}`, ...(url ? [`--url=${url}`] : [])], {
    execArgv: process.execArgv,
  });
  return new Promise((resolve, reject) => {
    child.once("message", (m) => {
      const { port, seedMs } = m as { port: number; seedMs: number };
      resolve({ child, port, seedMs });
    });
    child.once("exit", (code) => reject(new Error(`bench server exited with ${code}`)));
  });
}

async function main(): Promise<void> {
  const env = parseEnv({ ...process.env, NODE_ENV: "test", SEED_DEMO: "false" });
  const wanted = (args.get("databases") ?? "pglite,postgres").split(",");
  const kinds = (["pglite", "postgres"] as const).filter((k) => wanted.includes(k) && (k === "pglite" || env.DATABASE_URL));
  console.log(`bench:jobs on ${cpus().length} cores, ${CONCURRENCY} connections, ${RUNS} x ${DURATION_S}s per cell (median shown)`);
  const rows: string[] = [];
  for (const kind of kinds) {
    const rpsBySize = new Map<number, number[]>();
    for (const size of SIZES) {
      const pgDb = kind === "postgres" && env.DATABASE_URL ? await createBenchDatabase(env.DATABASE_URL) : null;
      const { child, port, seedMs } = await startServer(kind, size, pgDb?.url);
      console.log(`${kind}: seeded ${size} tasks in ${(seedMs / 1000).toFixed(1)}s`);
      for (const scenario of SCENARIOS) {
        const runs: Stats[] = [];
        for (let i = 0; i < RUNS; i++) runs.push(await load(`http://127.0.0.1:${port}${scenario.path}`, DURATION_S));
        const cell = {
          rps: median(runs.map((r) => r.rps)),
          p50: median(runs.map((r) => r.p50)),
          p99: median(runs.map((r) => r.p99)),
          errors: runs.reduce((n, r) => n + r.errors, 0),
        };
        rpsBySize.set(size, [...(rpsBySize.get(size) ?? []), cell.rps]);
        const line = `| ${kind} | ${size.toLocaleString("en-US")} | ${scenario.name} | ${cell.rps.toFixed(0)} | ${cell.p50.toFixed(1)} | ${cell.p99.toFixed(1)} | ${cell.errors} |`;
        rows.push(line);
        console.log(line);
      }
      child.send("stop");
      await new Promise((resolve) => child.once("exit", resolve));
      await pgDb?.drop();
    }
    const small = rpsBySize.get(SIZES[0] ?? 0) ?? [];
    const large = rpsBySize.get(SIZES.at(-1) ?? 0) ?? [];
    const ratios = SCENARIOS.map((s, i) => `${s.name} ${((large[i] ?? 0) / (small[i] ?? 1)).toFixed(2)}`);
    console.log(`${kind}: req/s ratio ${SIZES.at(-1)}/${SIZES[0]}: ${ratios.join(", ")}`);
  }
  console.log("\n| Database | Open tasks | Query | req/s | p50 ms | p99 ms | errors |\n|---|---|---|---|---|---|---|");
  for (const row of rows) console.log(row);
}

if (args.has("serve")) {
  const kind = args.get("kind") === "postgres" ? "postgres" : "pglite";
  await serve(kind, Number(args.get("size")), args.get("url"));
} else {
  await main();
}
