import { fork, type ChildProcess } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import WebSocket from "ws";
import { migrateDatabase, openDatabase, queryRows, type Database } from "../src/server/db/client.js";
import { openEmbeddedPostgres } from "../src/server/db/embedded-postgres.js";
import { createSession } from "../src/server/features/auth/sessions.js";
import { startPostgresCluster } from "../test/postgres-cluster.js";
import { startPgBouncer } from "../test/faults/topology-processes.js";
import { startAppServer, type AppServer } from "./app-server.js";
import { benchArgs } from "./args.js";
import { addStatements, buildsOption, copyDataDir, embeddedUrl, preloadSettings, seededDirectory, seedingGroups, statements, statementsReport, statementsSideBySide, type Build, type SeededDirectory, type Statement } from "./builds.js";
import { Comparison, loadAverageNow, type Figure } from "./compare-report.js";
import { Inspector, inspectorUrlOf } from "./inspector.js";
import { clusterCpuSeconds, cpuSecondsOf, embeddedPostmaster, memoryOf, systemSecondsOf, threadCpuSeconds } from "./processes.js";
import { CpuMeter, instanceCounts, loadAverage, postgresPids, startStack } from "./balancer.js";
import { databasesOption, externalPostgres, type BenchDatabase, type ExternalPostgres } from "./databases.js";

// Chat benchmark (docs/benchmarks.md, "Chat (bench:chat)"): 2,000 WebSocket clients in 1,000
// task rooms (poster and provider each), sending 500 messages per second for 10 s, measuring the
// delay from a frame leaving the sender to the message arriving at the other participant's
// socket. Servers run in child processes so the clients do not share their event loop.
//
//   npm run bench:chat                       one instance on the embedded PostgreSQL (the default,
//                                            a fresh DATA_DIR), then one and two instances on an
//                                            external PostgreSQL (DATABASE_URL's server, else a
//                                            throwaway cluster from Debian's binaries; posters on
//                                            instance A, providers on B: every delivery crosses)
//   npm run bench:chat -- --rate=500 --duration=10 --rooms=1000 --databases=embedded,postgres
//   npm run build && npm run bench:chat -- --topology=haproxy --instances=3 --rooms=2500 --rate=2000
//                                            a throwaway PostgreSQL behind PgBouncer, HAProxy in front
//                                            of 3 built instances (bench/balancer.ts); every socket
//                                            connects to HAProxy, which spreads them round robin
//   ... --topology=haproxy --via=haproxy,direct  the same stack measured twice in one run: through
//                                            HAProxy, then with the sockets spread round robin over
//                                            the instances' own ports (what HAProxy itself costs)
//   npm run bench:compare -- --base=<ref> chat --rounds=4 --rate=300 --drain=30   two builds side by
//                                            side, one instance each on a copy of one seed (compareBuilds;
//                                            --statements, --cpu-prof[=DIR], --message-length=N)
// Every message is counted once per arrival at the recipient: duplicates and missing ones are reported
// (missing: not arrived --drain=5 seconds after the last send; a larger --drain tells late from lost).
//
// Each socket stands for one person, so each connects from an address of its own (127.0.0.1, .2, …,
// 127.0.1.1, …: on Linux all of 127.0.0.0/8 is this machine) and the servers keep every default,
// the cap of 64 open connections per address included (decision 043): 2,000 sockets from 127.0.0.1
// alone were closed as they opened (ECONNRESET).

const args = benchArgs();
const RATE = Number(args.get("rate") ?? 500);
const DURATION_S = Number(args.get("duration") ?? 10);
const ROOMS = Number(args.get("rooms") ?? 1000);
const DATABASES = databasesOption(args.get("databases"));
const TOPOLOGY = args.get("topology") ?? "direct";
/** How long after the last send a message may still arrive; later than that it counts as missing. */
const DRAIN_S = Number(args.get("drain") ?? 5);
/** --topology=haproxy only: how the sockets reach the instances, each measured in turn on the same stack. */
const VIA = (args.get("via") ?? "haproxy").split(",");
if (VIA.some((v) => v !== "haproxy" && v !== "direct")) throw new Error(`--via=${args.get("via")}: give haproxy, direct or both, such as --via=haproxy,direct`);

interface Room {
  taskId: string;
  posterCookie: string;
  providerCookie: string;
}
type Ready = { port: number; rooms: Room[] };

// ---- server side (child process) ----

/** ROOMS claimed tasks, each with a poster and a provider signed in. */
async function seedRooms(database: Database): Promise<Room[]> {
  const rooms: Room[] = [];
  const run = randomUUID().slice(0, 8);
  const users = await queryRows<{ id: string; email: string }>(
    database.db,
    sql`insert into users (email, first_name, last_name, role)
        select 'bench-' || ${run} || '-' || k || g || '@example.test', 'Bench', k, case when k = 'p' then 'provider'::user_role else 'user'::user_role end
        from generate_series(1, ${ROOMS}) g, (values ('c'), ('p')) v(k)
        returning id, email`,
  );
  // bench-<run>-<c|p><n>@example.test → "c12" / "p12"
  const byKey = new Map(users.map((u) => [u.email.split("@")[0]?.split("-")[2] ?? "", u.id]));
  for (let i = 1; i <= ROOMS; i += 1) {
    const posterId = byKey.get(`c${i}`);
    const providerId = byKey.get(`p${i}`);
    if (!posterId || !providerId) throw new Error("seed mismatch");
    const [task] = await queryRows<{ id: string }>(
      database.db,
      sql`insert into tasks (user_id, provider_id, title, description, category, budget_cents, urgent_fee_cents, service_fee_cents, total_cents, provider_share_cents, platform_commission_cents, status)
          values (${posterId}, ${providerId}, 'Bench task', 'Chat benchmark', 'errands', 3000, 0, 290, 3290, 2550, 450, 'claimed') returning id`,
    );
    if (!task) throw new Error("task not inserted");
    const policy = { idleDays: 7, absoluteDays: 30 };
    rooms.push({
      taskId: task.id,
      posterCookie: `errandly_session=${await createSession(database.db, posterId, policy, new Date())}`,
      providerCookie: `errandly_session=${await createSession(database.db, providerId, policy, new Date())}`,
    });
  }
  return rooms;
}

/**
 * BENCH_DATA_DIR set: the embedded PostgreSQL under it, started here as the server starts it with no
 * DATABASE_URL. Otherwise BENCH_DATABASE_URL, a fresh database on the external server.
 */
async function serve(): Promise<void> {
  const dataDir = process.env.BENCH_DATA_DIR || undefined;
  const embedded = dataDir ? await openEmbeddedPostgres({ dir: dataDir }) : null;
  const databaseUrl = embedded?.url ?? process.env.BENCH_DATABASE_URL ?? "";
  const seed = process.env.BENCH_SEED === "1";
  if (seed) await migrateDatabase(databaseUrl);
  const database = await openDatabase({ databaseUrl, poolSize: 20 });
  // Loaded here, in the server process only: the app's modules cost the clients' process seconds of CPU.
  const [{ buildApp }, { parseEnv }] = await Promise.all([import("../src/server/app.js"), import("../src/server/config/env.js")]);
  const env = parseEnv({ NODE_ENV: "production", LOG_LEVEL: "error", SEED_DEMO: "false", PUBLIC_URL: "http://127.0.0.1:1", DATA_DIR: dataDir ?? tmpdir() });
  const app = await buildApp({ env, database, logger: false });
  const address = await app.listen({ port: 0, host: "127.0.0.1" });
  const rooms = seed ? await seedRooms(database) : [];
  const ready: Ready = { port: Number(new URL(address).port), rooms };
  process.send?.(ready);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void app
      .close()
      .then(() => database.close())
      .then(() => (embedded?.owned ? embedded.stop("fast") : undefined))
      .finally(() => process.exit(0));
  };
  process.on("message", (msg) => {
    if (msg === "stop") stop();
  });
  // The bench died (an error, Ctrl-C): do not outlive it, nor leave its PostgreSQL running.
  process.once("disconnect", stop);
}

// ---- client side (parent) ----

type Target = { databaseUrl: string } | { dataDir: string };

/** Server processes not yet exited: stopped before their database goes, whatever happened. */
const running = new Set<ChildProcess>();

async function stopServers(): Promise<void> {
  await Promise.all(
    [...running].map(async (child) => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.send("stop");
        await exited;
      }
      running.delete(child);
    }),
  );
}

function startServer(target: Target, seed: boolean): Promise<{ child: ChildProcess; ready: Ready }> {
  // The child seeds the rooms: it needs --rooms (without it, it seeded the default 1,000 whatever was asked).
  const child = fork(new URL(import.meta.url).pathname, ["--serve", `--rooms=${ROOMS}`], {
    execArgv: ["--import", "tsx"],
    env: {
      ...process.env,
      BENCH_DATABASE_URL: "databaseUrl" in target ? target.databaseUrl : "",
      BENCH_DATA_DIR: "dataDir" in target ? target.dataDir : "",
      BENCH_SEED: seed ? "1" : "0",
    },
  });
  running.add(child);
  return new Promise((resolve, reject) => {
    child.once("message", (ready) => resolve({ child, ready: ready as Ready }));
    child.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** Error frames the server sent after a socket joined its room, by message: why a message went missing. */
const refusals = new Map<string, number>();

/** The address socket `n` connects from: one per socket, up to 254 × 256 × 256 of them. */
function sourceAddress(n: number): string {
  return `127.${Math.floor(n / (254 * 256))}.${Math.floor(n / 254) % 256}.${1 + (n % 254)}`;
}

async function connect(port: number, from: string, cookie: string, taskId: string, onMessage: (content: string) => void): Promise<WebSocket> {
  const origin = `http://127.0.0.1:${port}`;
  const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: { cookie, origin }, localAddress: from });
  await new Promise<void>((resolve, reject) => {
    socket.once("error", reject);
    // A refused upgrade: say who refused it and why (HAProxy's own 503 has no X-Served-By).
    socket.once("unexpected-response", (_request, response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk.toString()));
      response.on("end", () => reject(new Error(`upgrade refused: ${response.statusCode} from ${String(response.headers["x-served-by"] ?? "HAProxy")}: ${body.slice(0, 300)}`)));
    });
    socket.once("open", () => socket.send(JSON.stringify({ type: "auth", taskId })));
    socket.on("message", (data: WebSocket.RawData) => {
      const frame = JSON.parse(String(data)) as { type: string; content?: string; message?: string };
      if (frame.type === "auth_success") resolve();
      else if (frame.type === "message" && frame.content) onMessage(frame.content);
      else if (frame.type === "error") {
        // Before auth_success it fails the connection; after it, the server refused a message.
        refusals.set(frame.message ?? "?", (refusals.get(frame.message ?? "?") ?? 0) + 1);
        reject(new Error(frame.message));
      }
    });
  });
  return socket;
}

interface Result {
  setup: string;
  sent: number;
  delivered: number;
  /** Arrivals of a message the recipient already had. */
  duplicates: number;
  /** Sent, not arrived within --drain seconds of the last send. */
  missing: number;
  p50: number;
  p99: number;
  max: number;
  throughput: number;
  /** CPU ms each part of the stack used from the first send to the end of the drain (--topology=haproxy). */
  cpu?: Map<string, number>;
  /** Transaction ids PostgreSQL handed out in that time: one per transaction that wrote (--topology=haproxy). */
  writeTransactions?: number;
}

/** A fresh database per scenario: the embedded cluster in a new DATA_DIR, or a new database on the external server. */
async function scenario(setup: string, kind: BenchDatabase, external: ExternalPostgres | null, instances: 1 | 2): Promise<Result> {
  if (kind === "postgres" && !external) throw new Error("no external PostgreSQL");
  const pgDb = kind === "postgres" && external ? await external.createDatabase() : null;
  const dataDir = kind === "embedded" ? mkdtempSync(join(tmpdir(), "errandly-bench-chat-")) : null;
  try {
    return await measure(setup, pgDb ? { databaseUrl: pgDb.url } : { dataDir: dataDir ?? "" }, instances);
  } finally {
    await stopServers();
    await pgDb?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

async function measure(setup: string, target: Target, instances: 1 | 2): Promise<Result> {
  const a = await startServer(target, true);
  // A second instance on the embedded directory joins the server instance A started.
  const b = instances === 2 ? await startServer(target, false) : a;
  const result = await deliver(setup, [a.ready.port], [b.ready.port], a.ready.rooms);
  await stopServers();
  return result;
}

/**
 * Room i's poster connects to posterPorts[i % length], its provider to providerPorts[i % length];
 * RATE messages a second for DURATION_S.
 */
/** What deliver measures between the first send and the end of the drain: CPU ms by part of the stack. */
interface Meter {
  start(): void | Promise<void>;
  stop(): Map<string, number> | Promise<Map<string, number>>;
}

/** --message-length=N: each message padded to about N characters with everyday words (the masking reads every one). */
const MESSAGE_LENGTH = Number(args.get("message-length") ?? 0);
const FILLER = "I can be there by half past five, the parcel is by the blue door next to the garage and the dog is friendly. ";
const padded = (content: string) => (content.length >= MESSAGE_LENGTH ? content : `${content} ${FILLER.repeat(Math.ceil(MESSAGE_LENGTH / FILLER.length)).slice(0, MESSAGE_LENGTH - content.length - 1)}`.trimEnd());

async function deliver(setup: string, posterPorts: number[], providerPorts: number[], rooms: Room[], meter?: Meter): Promise<Result> {
  const port = (ports: number[], i: number) => ports[i % ports.length] ?? NaN;
  const sentAt = new Map<string, number>();
  const arrived = new Set<string>();
  const latencies: number[] = [];
  let duplicates = 0;
  let firstSend = 0;
  let lastDelivery = 0;
  // Each side counts only what the OTHER side sent: a delivery to the recipient.
  const receiver = (side: "c" | "p") => (content: string) => {
    if (!content.startsWith(side === "c" ? "p:" : "c:")) return;
    if (arrived.has(content)) {
      duplicates += 1;
      return;
    }
    const at = sentAt.get(content);
    if (at === undefined) return;
    sentAt.delete(content);
    arrived.add(content);
    const now = performance.now();
    latencies.push(now - at);
    lastDelivery = now;
  };
  const sockets: { poster: WebSocket; provider: WebSocket }[] = [];
  for (let i = 0; i < rooms.length; i += 100) {
    const batch = rooms.slice(i, i + 100);
    sockets.push(
      ...(await Promise.all(
        batch.map(async (room, j) => ({
          poster: await connect(port(posterPorts, i + j), sourceAddress(2 * (i + j)), room.posterCookie, room.taskId, receiver("c")),
          provider: await connect(port(providerPorts, i + j), sourceAddress(2 * (i + j) + 1), room.providerCookie, room.taskId, receiver("p")),
        })),
      )),
    );
  }
  const total = RATE * DURATION_S;
  const tickMs = 10;
  const perTick = RATE / (1000 / tickMs);
  let sent = 0;
  await meter?.start();
  const benchCpu = process.cpuUsage();
  firstSend = performance.now();
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const due = Math.min(total, Math.round(((performance.now() - firstSend) / tickMs + 1) * perTick));
      while (sent < due) {
        const room = sockets[sent % sockets.length];
        if (!room) break;
        const fromPoster = Math.floor(sent / sockets.length) % 2 === 0;
        const content = padded(`${fromPoster ? "c" : "p"}:${sent}`);
        sentAt.set(content, performance.now());
        (fromPoster ? room.poster : room.provider).send(JSON.stringify({ type: "message", content }));
        sent += 1;
      }
      if (sent >= total) {
        clearInterval(timer);
        resolve();
      }
    }, tickMs);
  });
  const drainUntil = performance.now() + DRAIN_S * 1000;
  while (sentAt.size > 0 && performance.now() < drainUntil) await new Promise((r) => setTimeout(r, 50));
  const cpu = await meter?.stop();
  const client = process.cpuUsage(benchCpu);
  cpu?.set("bench client", (client.user + client.system) / 1000);
  for (const s of sockets) {
    s.poster.close();
    s.provider.close();
  }
  latencies.sort((x, y) => x - y);
  return {
    setup,
    sent,
    delivered: latencies.length,
    duplicates,
    missing: sentAt.size,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1) ?? NaN,
    throughput: latencies.length / ((lastDelivery - firstSend) / 1000),
    ...(cpu ? { cpu } : {}),
  };
}

/**
 * --topology=haproxy: one seeded database on a throwaway PostgreSQL behind PgBouncer, and per
 * --instances count HAProxy in front of that many built instances; every socket goes through HAProxy.
 */
async function balanced(): Promise<Result[]> {
  // The test suite's throwaway cluster: PgBouncer needs a password to pass on, Debian's trust cluster has none.
  const handle = await startPostgresCluster();
  const results: Result[] = [];
  try {
    await migrateDatabase(handle.url);
    const database = await openDatabase({ databaseUrl: handle.url, poolSize: 5 });
    const rooms = await seedRooms(database).finally(() => database.close());
    const bouncer = await startPgBouncer(handle.url);
    try {
      for (const instances of instanceCounts(args.get("instances"), [3])) {
        const stack = await startStack({ poolerUrl: bouncer.url, listenUrl: handle.url, instances });
        // Direct: room i's poster on instance i, its provider on the next one, as HAProxy's round
        // robin spreads them, so the share of deliveries that cross instances is the same.
        const ports = stack.servers.map((s) => s.port);
        const routes = {
          haproxy: { setup: `${instances} instance(s) behind HAProxy and PgBouncer`, posters: [stack.port], providers: [stack.port] },
          direct: { setup: `${instances} instance(s) on PgBouncer, sockets straight to the instances`, posters: ports, providers: [...ports.slice(1), ...ports.slice(0, 1)] },
        };
        try {
          for (const via of VIA) {
            const route = via === "direct" ? routes.direct : routes.haproxy;
            const before = loadAverage();
            const meter = new CpuMeter(() => ({
              instances: stack.servers.map((s) => s.pid),
              PostgreSQL: postgresPids(handle.port),
              PgBouncer: [bouncer.pid() ?? 0],
              HAProxy: [stack.balancer.pid() ?? 0],
            }));
            const xidBefore = await currentXid(handle.url);
            const result = await deliver(route.setup, route.posters, route.providers, rooms, meter);
            // Less the one this second call takes for itself.
            result.writeTransactions = (await currentXid(handle.url)) - xidBefore - 1;
            console.log(`${result.setup}: load average ${before} before, ${loadAverage()} after`);
            results.push(result);
          }
        } finally {
          await stack.stop();
        }
      }
    } finally {
      await bouncer.destroy();
    }
  } finally {
    await handle.destroy();
  }
  return results;
}

/** A new transaction id from the server at `url`: ids are handed out only to transactions that write. */
async function currentXid(url: string): Promise<number> {
  const database = await openDatabase({ databaseUrl: url, poolSize: 1 });
  try {
    const [row] = await queryRows<{ xid: string }>(database.db, sql`select pg_current_xact_id()::text as xid`);
    return Number(row?.xid);
  } finally {
    await database.close();
  }
}


// ---- builds side by side (bench/compare.ts) ---------------------------------------------------

interface SeededRooms {
  tokenPrefix: string;
  rooms: { taskId: string; poster: number; provider: number }[];
}

/**
 * ROOMS claimed tasks, each with a poster and a provider and a session for each, in a few statements
 * of SQL that both an old and a new schema take (the tokens are known, only their SHA-256 stored, as
 * bench:load seeds its sessions), so no sign-in is needed.
 */
async function seedRoomsSql(url: string): Promise<SeededRooms> {
  const tokenPrefix = `chat-${randomUUID().slice(0, 12)}-`;
  const database = await openDatabase({ databaseUrl: url, poolSize: 1 });
  try {
    await database.db.execute(sql`insert into users (email, first_name, last_name, role)
      select 'chat-' || k || g || '@example.test', 'Bench', k || g, case when k = 'p' then 'provider'::user_role else 'user'::user_role end
      from generate_series(1, ${ROOMS}::int) g, (values ('c'), ('p')) v(k)`);
    const people = sql`(select id, split_part(split_part(email, '@', 1), '-', 2) as key from users where email like 'chat-%@example.test')`;
    await database.db.execute(sql`insert into sessions (token_hash, user_id, created_at, last_seen_at, idle_expires_at, absolute_expires_at)
      select encode(sha256(convert_to(${tokenPrefix}::text || u.key, 'UTF8')), 'hex'), u.id, now(), now(), now() + interval '7 days', now() + interval '29 days'
      from ${people} u`);
    const rooms = await queryRows<{ task_id: string; n: number }>(
      database.db,
      sql`insert into tasks (user_id, provider_id, title, description, category, budget_cents, urgent_fee_cents, service_fee_cents, total_cents, provider_share_cents, platform_commission_cents, status, claimed_at)
          select c.id, p.id, 'Bench task ' || g, 'Chat benchmark', 'errands', 3000, 0, 290, 3290, 2550, 450, 'claimed', now()
          from generate_series(1, ${ROOMS}::int) g
          join ${people} c on c.key = 'c' || g
          join ${people} p on p.key = 'p' || g
          returning id as task_id, split_part(title, ' ', 3)::int as n`,
    );
    await database.db.execute(sql`analyze`);
    return { tokenPrefix, rooms: rooms.map((r) => ({ taskId: r.task_id, poster: r.n, provider: r.n })) };
  } finally {
    await database.close();
  }
}

const CHAT_FIGURES: Figure[] = [
  { key: "cpuMs", label: "CPU per delivered message, server + PostgreSQL (ms)", digits: 3 },
  { key: "serverMs", label: "CPU per delivered message, server (ms)", digits: 3 },
  { key: "mainThreadMs", label: "of which the server's main thread (ms)", digits: 3 },
  { key: "systemMs", label: "of which in the kernel (ms)", digits: 3 },
  { key: "databaseMs", label: "CPU per delivered message, PostgreSQL (ms)", digits: 3 },
  { key: "statements", label: "statements per message (--statements)", digits: 2 },
  { key: "delivered", label: "delivered", digits: 0 },
  { key: "missing", label: "missing", digits: 0 },
  { key: "duplicates", label: "duplicates", digits: 0 },
  { key: "throughput", label: "delivered msg/s", digits: 0 },
  { key: "p50", label: "p50 (ms)", digits: 1 },
  { key: "p99", label: "p99 (ms)", digits: 1 },
  { key: "rssMb", label: "server RSS after the round (MB)", digits: 0 },
  { key: "peakMb", label: "server peak RSS (MB)", digits: 0 },
];

/**
 * --builds=LABEL:DIR,LABEL:DIR (bench/compare.ts): each build's server alone on its own copy of one
 * seeded embedded database, its 2 x ROOMS sockets connected for each round, RATE messages a second
 * for DURATION_S, the builds in turns for --rounds; CPU per delivered message from /proc (the
 * server, its main thread, its PostgreSQL), statements per message (--statements), a CPU profile of
 * each round (--cpu-prof[=DIR]).
 */
async function compareBuilds(builds: Build[]): Promise<void> {
  const rounds = Math.max(1, Number(args.get("rounds") ?? 2));
  console.log(`bench:chat, builds side by side: ${ROOMS} rooms (${ROOMS * 2} sockets) on one instance each, ${RATE} msg/s for ${DURATION_S} s, ${rounds} rounds; load average ${loadAverageNow()}`);
  const cpuProfDir = args.has("cpu-prof") ? profileDir(args.get("cpu-prof")) : null;
  const seeds = new Map<Build, SeededDirectory<SeededRooms>>();
  for (const group of seedingGroups(builds)) {
    const seeded = await seededDirectory<SeededRooms>({
      key: JSON.stringify({ bench: "chat", rooms: ROOMS, schema: group.tags, recipe: createHash("sha1").update(seedRoomsSql.toString()).digest("hex") }),
      schemaRoot: group.schemaRoot,
      seed: seedRoomsSql,
    });
    console.log(`${seeded.cached ? "reused the seed" : `seeded in ${seeded.seconds.toFixed(1)} s`} at the schema of ${group.schemaRoot}: ${seeded.meta.rooms.length} rooms`);
    for (const build of group.builds) seeds.set(build, seeded);
  }
  const comparison = new Comparison("bench:chat", builds.map((b) => b.label), CHAT_FIGURES);
  const servers: { build: Build; server: AppServer; dataDir: string; rooms: Room[]; inspector: Inspector | null; statements: Map<string, Statement>; messages: number }[] = [];
  try {
    for (const build of builds) {
      const seeded = seeds.get(build);
      if (!seeded) throw new Error(`no seed for ${build.label}`);
      const dataDir = await copyDataDir(seeded.dir, build.label);
      preloadSettings(dataDir, { statements: args.has("statements"), explainRate: null });
      const server = await startAppServer({
        entry: build.entry,
        root: build.root,
        dataDir,
        // Every socket comes from 127.0.0.1 here: the per-address cap (decision 043) would measure one address's share.
        env: { MAX_CONNECTIONS_PER_ADDRESS: String(ROOMS * 2 + 100), ...build.env },
        nodeFlags: [...build.nodeFlags, ...(cpuProfDir ? ["--inspect=127.0.0.1:0"] : [])],
      });
      const url = cpuProfDir ? inspectorUrlOf(server.output()) : null;
      const { tokenPrefix } = seeded.meta;
      const rooms = seeded.meta.rooms.map((r) => ({ taskId: r.taskId, posterCookie: `errandly_session=${tokenPrefix}c${r.poster}`, providerCookie: `errandly_session=${tokenPrefix}p${r.provider}` }));
      servers.push({ build, server, dataDir, rooms, inspector: url ? await Inspector.connect(url) : null, statements: new Map(), messages: 0 });
      console.log(`${build.label}: server up, RSS ${memoryOf(server.child.pid ?? 0).rssMb.toFixed(0)} MB`);
    }
    for (let round = 1; round <= rounds; round++) {
      for (const s of round % 2 === 1 ? servers : [...servers].reverse()) {
        const pid = s.server.child.pid ?? 0;
        const postmaster = embeddedPostmaster(s.dataDir);
        const dbUrl = args.has("statements") ? await embeddedUrl(s.dataDir) : null;
        const load = loadAverageNow();
        let before = { server: 0, main: 0, system: 0, db: 0 };
        let measured: Map<string, Statement> | null = null;
        const meter: Meter = {
          async start() {
            if (dbUrl) await statements(dbUrl, "reset");
            await s.inspector?.startCpuProfile();
            before = { server: cpuSecondsOf(pid), main: threadCpuSeconds(pid), system: systemSecondsOf(pid), db: clusterCpuSeconds(postmaster) };
          },
          async stop() {
            const used = new Map([
              ["server", (cpuSecondsOf(pid) - before.server) * 1000],
              ["main thread", (threadCpuSeconds(pid) - before.main) * 1000],
              ["kernel", (systemSecondsOf(pid) - before.system) * 1000],
              ["PostgreSQL", (clusterCpuSeconds(postmaster) - before.db) * 1000],
            ]);
            if (cpuProfDir && s.inspector) await s.inspector.stopCpuProfile(join(cpuProfDir, `${s.build.label.replace(/\W+/g, "-")}-round${round}.cpuprofile`));
            if (dbUrl) measured = await statements(dbUrl, "read");
            return used;
          },
        };
        const r = await deliver(s.build.label, [s.server.port], [s.server.port], s.rooms, meter);
        const per = (part: string) => (r.cpu?.get(part) ?? 0) / Math.max(1, r.delivered);
        const statementCalls = measured ? [...(measured as Map<string, Statement>).values()].reduce((n, st) => n + st.calls, 0) : Number.NaN;
        if (measured) addStatements(s.statements, measured);
        s.messages += r.sent;
        if (cpuProfDir) {
          const file = join(cpuProfDir, `${s.build.label.replace(/\W+/g, "-")}-round${round}.meta.json`);
          writeFileSync(file, JSON.stringify({ build: s.build.label, round, requests: r.delivered, serverMs: per("server"), mainThreadMs: per("main thread"), databaseMs: per("PostgreSQL") }));
        }
        const memory = memoryOf(pid);
        comparison.add(s.build.label, round, load, {
          cpuMs: per("server") + per("PostgreSQL"),
          serverMs: per("server"),
          mainThreadMs: per("main thread"),
          systemMs: per("kernel"),
          databaseMs: per("PostgreSQL"),
          statements: statementCalls / Math.max(1, r.sent),
          delivered: r.delivered,
          missing: r.missing,
          duplicates: r.duplicates,
          throughput: r.throughput,
          p50: r.p50,
          p99: r.p99,
          rssMb: memory.rssMb,
          peakMb: memory.peakMb,
        });
      }
    }
    comparison.print();
    if (refusals.size > 0) console.log(`error frames: ${[...refusals].map(([m, n]) => `${n}x ${m}`).join("; ")}`);
    if (args.has("statements")) {
      for (const s of servers) console.log(`\n${statementsReport(s.build.label, s.statements, s.messages, "message")}`);
      console.log(`\nStatements side by side\n\n${statementsSideBySide(servers.map((s) => ({ label: s.build.label, statements: s.statements, per: s.messages })), "message")}`);
    }
    if (cpuProfDir) console.log(`\nCPU profiles of each round: ${cpuProfDir} (npx tsx bench/profile-summary.ts ${cpuProfDir}/*.cpuprofile)`);
    const statementsByBuild = Object.fromEntries(servers.map((s) => [s.build.label, { messages: s.messages, statements: [...s.statements.values()] }]));
    console.log(`results: ${comparison.save({ rooms: ROOMS, rate: RATE, duration: DURATION_S, messageLength: MESSAGE_LENGTH, statements: statementsByBuild })}`);
  } finally {
    for (const s of servers) {
      s.inspector?.close();
      await s.server.stop().catch((err: unknown) => console.log(`${s.build.label}: could not stop the server: ${String(err)}`));
      rmSync(s.dataDir, { recursive: true, force: true });
    }
  }
}

/** Where --cpu-prof writes when given no directory: .cache/profiles/<time>/. */
function profileDir(given: string | undefined): string {
  const dir = given && given !== "true" ? resolve(given) : join(import.meta.dirname, "..", ".cache", "profiles", new Date().toISOString().replace(/[:.]/g, "-").slice(0, 19));
  mkdirSync(dir, { recursive: true });
  return dir;
}

async function main(): Promise<void> {
  if (args.has("builds")) return compareBuilds(buildsOption(args.get("builds") ?? ""));
  if (TOPOLOGY === "haproxy") return report(await balanced());
  const external = DATABASES.includes("postgres") ? await externalPostgres() : null;
  const results: Result[] = [];
  try {
    for (const kind of DATABASES) {
      if (kind === "embedded") {
        results.push(await scenario("1 instance, embedded PostgreSQL (default)", "embedded", null, 1));
      } else {
        console.log(`postgres: ${external?.description}`);
        results.push(await scenario("1 instance, external PostgreSQL", "postgres", external, 1));
        results.push(await scenario("2 instances, external PostgreSQL (every delivery crosses instances)", "postgres", external, 2));
      }
    }
  } finally {
    await external?.stop();
  }
  report(results);
}

function report(results: Result[]): void {
  if (refusals.size > 0) console.log(`error frames: ${[...refusals].map(([m, n]) => `${n}x ${m}`).join("; ")}`);
  console.log(`\n${ROOMS} rooms, ${ROOMS * 2} sockets, ${RATE} msg/s for ${DURATION_S} s\n`);
  console.log("| Setup | Sent | Delivered | Duplicates | Missing | p50 ms | p99 ms | max ms | delivered msg/s |");
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const r of results) {
    console.log(
      `| ${r.setup} | ${r.sent} | ${r.delivered} | ${r.duplicates} | ${r.missing} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.max.toFixed(1)} | ${r.throughput.toFixed(0)} |`,
    );
  }
  // What a message costs in CPU, part by part: the rate the machine's cores could deliver with nothing else running.
  const metered = results.filter((r) => r.cpu);
  if (metered.length === 0) return;
  const parts = [...(metered[0]?.cpu?.keys() ?? [])];
  console.log(`\nCPU ms per delivered message (first send to end of drain)\n`);
  console.log(`| Setup | ${parts.join(" | ")} | all | messages/s on 2 idle cores | write transactions per message |`);
  console.log(`|---|${parts.map(() => "---|").join("")}---|---|---|`);
  for (const r of metered) {
    const per = parts.map((p) => (r.cpu?.get(p) ?? 0) / Math.max(1, r.delivered));
    const all = per.reduce((a, b) => a + b, 0);
    const writes = r.writeTransactions === undefined ? "" : (r.writeTransactions / Math.max(1, r.sent)).toFixed(2);
    console.log(`| ${r.setup} | ${per.map((v) => v.toFixed(2)).join(" | ")} | ${all.toFixed(2)} | ${(2000 / all).toFixed(0)} | ${writes} |`);
  }
}

if (process.argv.includes("--serve")) {
  void serve();
} else {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
