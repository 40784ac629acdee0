import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { migrateDatabase } from "../src/server/db/client.js";
import { openEmbeddedPostgres } from "../src/server/db/embedded-postgres.js";

// Two builds of the app measured in one run (bench/compare.ts, `--builds=` of bench:load and
// bench:chat): each build's server on its own copy of one seeded embedded database, so both see the
// same rows and neither sees the other's writes (docs/benchmarks.md, "Side by side").
//
// Migrations only go forward, and an old build cannot run on a newer schema (a column it does not
// know may be NOT NULL, a trigger may expect values it never writes). So the database is seeded at
// the OLDEST schema of the builds compared, with that build's own migrations, and each newer build
// migrates its copy when its server starts, as an upgrade in production would. When neither build's
// migrations are a prefix of the other's (two branches), each build gets a seed of its own.

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, "..");

export interface Build {
  /** "base dfc1fa3", "head 1d41ee4 + working tree". */
  label: string;
  /** The checkout the build was made in. */
  root: string;
  /** Its built server. */
  entry: string;
  /** Node flags for this build's server after its start script's (bench:compare --base-flags, --head-flags). */
  nodeFlags: string[];
  /** Environment for this build's server over the bench's (bench:compare --base-env, --head-env). */
  env: Record<string, string>;
}

/**
 * `--builds=LABEL:DIR,LABEL:DIR`, or the JSON bench/compare.ts passes (`[{"label", "root",
 * "nodeFlags", "env"}]`): the checkouts whose dist/ to run, and how.
 */
export function buildsOption(value: string): Build[] {
  const given: { label: string; root: string; nodeFlags?: string[]; env?: Record<string, string> }[] = value.startsWith("[")
    ? (JSON.parse(value) as { label: string; root: string }[])
    : value.split(",").map((item) => {
        const at = item.lastIndexOf(":");
        if (at <= 0) throw new Error(`--builds: "${item}" is not LABEL:DIR`);
        return { label: item.slice(0, at), root: item.slice(at + 1) };
      });
  const builds = given.map((b) => {
    const root = resolve(b.root);
    const entry = join(root, "dist", "server", "server", "main.js");
    if (!existsSync(entry)) throw new Error(`--builds: ${entry} not found: build that checkout first (bench/compare.ts does)`);
    return { label: b.label, root, entry, nodeFlags: b.nodeFlags ?? [], env: b.env ?? {} };
  });
  if (builds.length < 2) throw new Error("--builds: give two builds to compare, such as base:/path/a,head:/path/b");
  if (new Set(builds.map((b) => b.label)).size < builds.length) throw new Error("--builds: each build needs its own label");
  return builds;
}

/** The migrations a checkout has, in order (drizzle's journal). */
export function migrationTags(root: string): string[] {
  const journal = JSON.parse(readFileSync(join(root, "drizzle", "meta", "_journal.json"), "utf8")) as { entries: { tag: string }[] };
  return journal.entries.map((e) => e.tag);
}

/** Which schema to seed each build's copy at: one group at the oldest when they line up, else one per build. */
export function seedingGroups(builds: Build[]): { schemaRoot: string; tags: string[]; builds: Build[] }[] {
  const withTags = builds.map((build) => ({ build, tags: migrationTags(build.root) }));
  const isPrefix = (a: string[], b: string[]) => a.length <= b.length && a.every((tag, i) => b[i] === tag);
  const oldest = withTags.find(({ tags }) => withTags.every((other) => isPrefix(tags, other.tags)));
  if (oldest) return [{ schemaRoot: oldest.build.root, tags: oldest.tags, builds }];
  console.log("the builds' migrations diverge (neither is a prefix of the other): each build gets its own seed, with its own rows");
  return withTags.map(({ build, tags }) => ({ schemaRoot: build.root, tags, builds: [build] }));
}

export interface SeededDirectory<Meta> {
  /** A stopped embedded cluster's DATA_DIR, to be copied, never started itself. */
  dir: string;
  meta: Meta;
  seconds: number;
  cached: boolean;
}

/**
 * An embedded cluster seeded once and kept under .cache/bench-seeds/, keyed by everything that makes
 * it (the bench's own source, its sizes, the schema's migrations): a second run with the same key
 * copies it instead of seeding again (100,000 tasks take 25 to 100 s to seed on two cores).
 * `seed` gets the database's URL and returns what the load generator must know of it (JSON).
 */
export async function seededDirectory<Meta>(options: {
  key: string;
  schemaRoot: string;
  seed: (url: string) => Promise<Meta>;
  fresh?: boolean;
}): Promise<SeededDirectory<Meta>> {
  const hash = createHash("sha1").update(options.key).digest("hex").slice(0, 16);
  const base = join(ROOT, ".cache", "bench-seeds");
  const dir = join(base, hash);
  const metaFile = join(dir, "seed.json");
  if (options.fresh) rmSync(dir, { recursive: true, force: true });
  if (existsSync(metaFile)) {
    const { meta, seconds } = JSON.parse(readFileSync(metaFile, "utf8")) as { meta: Meta; seconds: number };
    return { dir, meta, seconds, cached: true };
  }
  mkdirSync(base, { recursive: true });
  const building = mkdtempSync(join(base, `${hash}-`));
  try {
    const cluster = await openEmbeddedPostgres({ dir: building });
    let meta: Meta;
    const began = performance.now();
    try {
      await migrateDatabase(cluster.url, join(options.schemaRoot, "drizzle"));
      meta = await options.seed(cluster.url);
    } finally {
      await cluster.stop("fast");
    }
    const seconds = (performance.now() - began) / 1000;
    writeFileSync(join(building, "seed.json"), JSON.stringify({ key: options.key, seconds, meta }));
    renameSync(building, dir);
    return { dir, meta, seconds, cached: false };
  } catch (err) {
    rmSync(building, { recursive: true, force: true });
    throw err;
  }
}

/** A copy of a seeded DATA_DIR for one build's server (owners and modes kept: the cluster's files belong to its account). */
export async function copyDataDir(from: string, label: string): Promise<string> {
  const to = mkdtempSync(join(tmpdir(), `errandly-compare-${label.replace(/\W+/g, "-")}-`));
  await run("cp", ["-a", `${from}/.`, to]);
  rmSync(join(to, "seed.json"), { force: true });
  return to;
}

/**
 * Settings for a copy before its server starts it: the embedded server starts PostgreSQL with its
 * own `-c` settings, and PostgreSQL reads postgresql.auto.conf beside them. `statements`:
 * pg_stat_statements with planning time. `explainRate`: auto_explain writes EXPLAIN (ANALYZE,
 * BUFFERS) of that share of the statements, with their real parameters, to the cluster's server.log.
 */
export function preloadSettings(dataDir: string, options: { statements: boolean; explainRate: number | null }): void {
  const libraries = [...(options.statements ? ["pg_stat_statements"] : []), ...(options.explainRate !== null ? ["auto_explain"] : [])];
  if (libraries.length === 0) return;
  const conf = join(dataDir, "postgres", "postgresql.auto.conf");
  const text = existsSync(conf) ? readFileSync(conf, "utf8") : "";
  const lines = [
    `shared_preload_libraries = '${libraries.join(",")}'`,
    ...(options.statements ? ["pg_stat_statements.track_planning = on", "pg_stat_statements.max = 10000"] : []),
    ...(options.explainRate !== null
      ? ["auto_explain.log_min_duration = 0", "auto_explain.log_analyze = on", "auto_explain.log_buffers = on", "auto_explain.log_nested_statements = on", `auto_explain.sample_rate = ${options.explainRate}`]
      : []),
  ];
  writeFileSync(conf, `${text}\n${lines.join("\n")}\n`);
}

/** The embedded cluster's log under a DATA_DIR (auto_explain's plans are there). */
export function serverLogOf(dataDir: string): string {
  return join(dataDir, "postgres", "server.log");
}

/** The app database's URL on the embedded cluster a server started under `dataDir` (joined, not started). */
export async function embeddedUrl(dataDir: string): Promise<string> {
  const cluster = await openEmbeddedPostgres({ dir: dataDir });
  if (cluster.owned) {
    await cluster.stop("fast");
    throw new Error(`no server runs the cluster under ${dataDir}`);
  }
  return cluster.url;
}

export interface Statement {
  query: string;
  calls: number;
  execMs: number;
  planMs: number;
  rows: number;
}

/** pg_stat_statements of one database, by query id; `reset` empties it for the next measurement. */
export async function statements(url: string, what: "reset" | "read"): Promise<Map<string, Statement>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    if (what === "reset") {
      await client.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
      await client.query("SELECT pg_stat_statements_reset()");
      return new Map();
    }
    const { rows } = await client.query<{ queryid: string; query: string; calls: string; total_exec_time: number; total_plan_time: number; rows: string }>(
      `SELECT queryid::text, regexp_replace(query, '\\s+', ' ', 'g') AS query, calls, total_exec_time, total_plan_time, rows
         FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    return new Map(rows.map((r) => [r.queryid, { query: r.query, calls: Number(r.calls), execMs: r.total_exec_time, planMs: r.total_plan_time, rows: Number(r.rows) }]));
  } finally {
    await client.end();
  }
}

/** Adds one measurement's statements into a build's running total. */
export function addStatements(into: Map<string, Statement>, from: Map<string, Statement>): void {
  for (const [id, s] of from) {
    const sum = into.get(id);
    if (!sum) into.set(id, { ...s });
    else Object.assign(sum, { calls: sum.calls + s.calls, execMs: sum.execMs + s.execMs, planMs: sum.planMs + s.planMs, rows: sum.rows + s.rows });
  }
}

/** The words of a statement, for matching one build's statements with another's. */
const wordsOf = (query: string) => new Set(query.toLowerCase().match(/[a-z_]+/g) ?? []);

function similarity(a: Set<string>, b: Set<string>): number {
  let both = 0;
  for (const w of a) if (b.has(w)) both++;
  return both / (a.size + b.size - both || 1);
}

/**
 * Two builds' statements side by side: each statement of the last build with the first build's most
 * alike by their words (a statement that gained a column is still the same statement; under half
 * its words shared, it has none), calls, execution and planning per request, the dearest first.
 */
export function statementsSideBySide(builds: { label: string; statements: Map<string, Statement>; per: number }[], unit: string, top = 30): string {
  const [base, head] = [builds[0], builds.at(-1)];
  if (!base || !head) return "";
  const baseList = [...base.statements.values()].map((s) => ({ s, words: wordsOf(s.query), taken: false }));
  const cost = (s: Statement | undefined, per: number) => (s ? (s.execMs + s.planMs) / per : 0);
  const pairs: { head?: Statement; base?: Statement }[] = [];
  for (const s of [...head.statements.values()].sort((x, y) => cost(y, 1) - cost(x, 1))) {
    const words = wordsOf(s.query);
    let best: (typeof baseList)[number] | undefined;
    let bestScore = 0.5;
    for (const candidate of baseList) {
      if (candidate.taken) continue;
      const score = similarity(words, candidate.words);
      if (score > bestScore) [best, bestScore] = [candidate, score];
    }
    if (best) best.taken = true;
    pairs.push({ head: s, ...(best ? { base: best.s } : {}) });
  }
  for (const b of baseList) if (!b.taken) pairs.push({ base: b.s });
  pairs.sort((x, y) => Math.max(cost(y.head, head.per), cost(y.base, base.per)) - Math.max(cost(x.head, head.per), cost(x.base, base.per)));
  const cell = (s: Statement | undefined, per: number) =>
    s ? `${(s.calls / per).toFixed(3)} / ${((s.execMs / per) * 1000).toFixed(1)} / ${((s.planMs / per) * 1000).toFixed(1)}` : "-";
  const lines = [`| statement | ${base.label}: calls / exec µs / plan µs per ${unit} | ${head.label}: the same |`, "|---|---|---|"];
  for (const p of pairs.slice(0, top)) {
    const text = (p.head ?? p.base)?.query ?? "";
    // Its start and its end: the board's statements differ only in their filters and order.
    const shown = text.length > 200 ? `${text.slice(0, 110)} … ${text.slice(-80)}` : text;
    lines.push(`| ${shown.replaceAll("|", "\\|")} | ${cell(p.base, base.per)} | ${cell(p.head, head.per)} |`);
  }
  return lines.join("\n");
}

/** The statements a build ran per request (or message), the dearest first. */
export function statementsReport(label: string, all: Map<string, Statement>, per: number, unit: string, top = 25): string {
  const list = [...all.values()].sort((a, b) => b.execMs + b.planMs - (a.execMs + a.planMs));
  const sum = (f: (s: Statement) => number) => list.reduce((n, s) => n + f(s), 0);
  const lines = [
    `${label}: pg_stat_statements over the measurements, ${per} ${unit}s: ${(sum((s) => s.calls) / per).toFixed(2)} statements per ${unit}, ` +
      `${((sum((s) => s.execMs) / per) * 1000).toFixed(0)} µs executing and ${((sum((s) => s.planMs) / per) * 1000).toFixed(0)} µs planning per ${unit}`,
    `| calls per ${unit} | exec µs per ${unit} | plan µs per ${unit} | mean exec ms | mean plan ms | rows per call | statement |`,
    "|---|---|---|---|---|---|---|",
  ];
  for (const s of list.slice(0, top)) {
    lines.push(
      `| ${(s.calls / per).toFixed(3)} | ${((s.execMs / per) * 1000).toFixed(1)} | ${((s.planMs / per) * 1000).toFixed(1)} | ${(s.execMs / Math.max(1, s.calls)).toFixed(3)} | ${(s.planMs / Math.max(1, s.calls)).toFixed(3)} | ${(s.rows / Math.max(1, s.calls)).toFixed(1)} | ${s.query.slice(0, 200).replaceAll("|", "\\|")} |`,
    );
  }
  return lines.join("\n");
}
