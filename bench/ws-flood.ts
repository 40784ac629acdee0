import { fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { cpus, loadavg, setPriority, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import WebSocket from "ws";
import { migrateDatabase, openDatabase, queryRows } from "../src/server/db/client.js";
import { openEmbeddedPostgres } from "../src/server/db/embedded-postgres.js";
import { createSession } from "../src/server/features/auth/sessions.js";
import { startAppServer, warnIfStale, type AppServer } from "./app-server.js";
import { benchArgs } from "./args.js";

// WebSocket frame flood (docs/benchmarks.md, "WebSocket frame flood (ws-flood)"): one signed-in
// user streams about 1 MB of small frames over /ws to the server on its default database (no
// DATABASE_URL, a fresh DATA_DIR: the embedded PostgreSQL), while another client asks
// GET /api/health and the job board's first page, one request at a time in turns. The question: does one user's flood starve everyone else?
// Target: both under 100 ms during the flood. The server closes a socket that keeps going
// over its frame rate (1008), so the flooder opens a new one and goes on until the bytes are sent.
//
//   npm run build && npx tsx bench/ws-flood.ts
//   npx tsx bench/ws-flood.ts --bytes=1048576 --frame=subscribe --parallel=1 --gap=10 --baseline=3 --timeout=120
//   --frame: subscribe   {"type":"subscribe_notifications"} (the bell: unread count)
//            join        {"type":"auth","taskId":...} for the user's own claimed task (room access check)
//            message     chat messages in that room (each socket joins first; rate limit 30 a minute)
//            junk        "not json"
//   --parallel=N         sockets flooding at once (the server allows a user 10)
//   --reconnect=false    stop at the first socket the server closes instead of opening another
//   --runs=5             floods one after another on the same server (fresh flooding process each)
//   --flooder-nice=19    run the flooding process at a lower priority, so that sending the flood does not
//                        take CPU from the server as it would not from a real server (default 0)
//   --server=path        default dist/server/server/main.js; a .ts entry runs through tsx
//
// Everything goes to 127.0.0.1. The flood is bounded by --bytes and the whole run by --timeout.
// The flooding sockets live in a child process, so their sending does not delay the probes' timers.

const ROOT = resolve(import.meta.dirname, "..");
const args = benchArgs();
const BYTES = Number(args.get("bytes") ?? 1024 * 1024);
const FRAME = args.get("frame") ?? "subscribe";
const GAP_MS = Number(args.get("gap") ?? 10);
const BASELINE_S = Number(args.get("baseline") ?? 3);
const TIMEOUT_S = Number(args.get("timeout") ?? 120);
/** Sockets flooding at once (the server allows a user 10); each reconnects when the server closes it. */
const PARALLEL = Number(args.get("parallel") ?? 1);
const RECONNECT = args.get("reconnect") !== "false";
const RUNS = Number(args.get("runs") ?? 5);
/** Scheduling priority of the flooding process (0: same as the server; 19: yields the CPU to the server). */
const FLOODER_NICE = Number(args.get("flooder-nice") ?? 0);
const SERVER_ENTRY = resolve(ROOT, args.get("server") ?? "dist/server/server/main.js");
const TARGET_MS = 100;

interface FloodSetup {
  port: number;
  cookie: string;
  taskId: string;
  frame: string;
  bytes: number;
  parallel: number;
  reconnect: boolean;
  timeoutMs: number;
}

/** Messages from the flooding child; times are epoch milliseconds (performance.timeOrigin + now()). */
type FloodReport =
  | { type: "ready" }
  | {
      type: "done";
      /** First frame written. */
      startedAt: number;
      /** Last frame written, answer received or close seen: the server had work from this flood until then. */
      endedAt: number;
      frames: number;
      bytes: number;
      connections: number;
      refused: number;
      answers: Record<string, number>;
      closes: Record<string, number>;
      timedOut: boolean;
    };

const epochNow = () => performance.timeOrigin + performance.now();

function frameText(kind: string, taskId: string, i: number): string {
  switch (kind) {
    case "subscribe":
      return JSON.stringify({ type: "subscribe_notifications" });
    case "join":
      return JSON.stringify({ type: "auth", taskId });
    case "message":
      return JSON.stringify({ type: "message", content: `flood ${i}` });
    case "junk":
      return "not json";
    default:
      throw new Error(`--frame: unknown ${kind} (subscribe, join, message, junk)`);
  }
}

/** Message frames go to a room: each socket joins the user's task first (not counted in the flood). */
const FRAME_NEEDS_ROOM = new Set(["message"]);

// ---- child: the flooding sockets --------------------------------------------------------------

async function flooder(): Promise<void> {
  const setup = await new Promise<FloodSetup>((got) => process.once("message", (m) => got(m as FloodSetup)));
  const origin = `http://127.0.0.1:${setup.port}`;
  const answers: Record<string, number> = {};
  const closes: Record<string, number> = {};
  let frames = 0;
  let bytes = 0;
  let connections = 0;
  let refused = 0;
  let lastEvent = 0;
  const touch = () => (lastEvent = epochNow());
  const count = (map: Record<string, number>, key: string) => (map[key] = (map[key] ?? 0) + 1);

  /** One socket: opened, joined if needed; resolves when it is closed (by the server, or by us at the end). */
  const openSocket = async (): Promise<{ socket: WebSocket; closed: Promise<void> } | null> => {
    const socket = new WebSocket(`ws://127.0.0.1:${setup.port}/ws`, { headers: { cookie: setup.cookie, origin } });
    const closed = new Promise<void>((r) => socket.once("close", (code, reason) => {
      count(closes, `${code} ${reason.toString()}`.trim());
      touch();
      r();
    }));
    socket.on("error", () => undefined); // a refused upgrade or a reset: the close (or open failing) says enough
    socket.on("message", (data: WebSocket.RawData) => {
      let type = "unparsable";
      try {
        const frame = JSON.parse(String(data)) as { type?: string; message?: string };
        type = frame.type === "error" ? `error: ${frame.message ?? ""}` : (frame.type ?? "?");
      } catch {
        // counted as unparsable
      }
      count(answers, type);
      touch();
    });
    const opened = await new Promise<boolean>((r) => {
      socket.once("open", () => r(true));
      socket.once("unexpected-response", (_req, res) => {
        count(closes, `upgrade refused ${res.statusCode ?? "?"}`);
        r(false);
      });
      socket.once("close", () => r(false));
    });
    if (!opened) {
      refused += 1;
      socket.terminate();
      return null;
    }
    connections += 1;
    if (FRAME_NEEDS_ROOM.has(setup.frame)) {
      socket.send(JSON.stringify({ type: "auth", taskId: setup.taskId }));
      await new Promise<void>((joined) => socket.once("message", () => joined()));
      delete answers.auth_success;
    }
    return { socket, closed };
  };

  process.send?.({ type: "ready" } satisfies FloodReport);
  await new Promise<void>((go) => process.once("message", () => go()));
  const startedAt = epochNow();
  const deadline = startedAt + setup.timeoutMs;
  let timedOut = false;

  const worker = async () => {
    for (;;) {
      if (bytes >= setup.bytes) return;
      if (epochNow() > deadline) {
        timedOut = true;
        return;
      }
      const opened = await openSocket();
      if (!opened) {
        await new Promise((r) => setTimeout(r, 20));
        continue;
      }
      const { socket, closed } = opened;
      // As fast as the socket takes them, 200 at a time so the close and the answers are seen.
      while (bytes < setup.bytes && socket.readyState === WebSocket.OPEN && epochNow() <= deadline) {
        for (let k = 0; k < 200 && bytes < setup.bytes; k++) {
          const text = frameText(setup.frame, setup.taskId, frames);
          socket.send(text);
          bytes += Buffer.byteLength(text);
          frames += 1;
        }
        touch();
        await new Promise((r) => setImmediate(r));
      }
      if (socket.readyState === WebSocket.OPEN) {
        // Budget spent with the socket still open: give the server a second of quiet to answer, then leave.
        let seen = lastEvent;
        do {
          seen = lastEvent;
          await Promise.race([closed, new Promise((r) => setTimeout(r, 1000))]);
        } while (socket.readyState === WebSocket.OPEN && lastEvent !== seen && epochNow() <= deadline);
        const endedBefore = lastEvent;
        socket.close(1000, "done");
        await Promise.race([closed, new Promise((r) => setTimeout(r, 2000))]);
        lastEvent = endedBefore; // our own close is not the server's work
        return;
      }
      await closed;
      if (!setup.reconnect) return;
    }
  };
  await Promise.all(Array.from({ length: setup.parallel }, () => worker()));
  process.send?.({
    type: "done",
    startedAt,
    endedAt: lastEvent,
    frames,
    bytes,
    connections,
    refused,
    answers,
    closes,
    timedOut,
  } satisfies FloodReport);
  process.disconnect();
}

// ---- parent: seed, server, probes ----------------------------------------------------------------

/** One user with a session and a claimed task (a provider too), written before the server starts. */
async function seed(dataDir: string): Promise<{ cookie: string; taskId: string; version: string }> {
  const cluster = await openEmbeddedPostgres({ dir: dataDir });
  try {
    await migrateDatabase(cluster.url);
    const database = await openDatabase({ databaseUrl: cluster.url, poolSize: 1 });
    try {
      const users = await queryRows<{ id: string; role: string }>(
        database.db,
        sql`insert into users (email, first_name, last_name, role)
            values ('flood-poster@example.test', 'Flo', 'Od', 'user'), ('flood-provider@example.test', 'Pro', 'Vider', 'provider')
            returning id, role`,
      );
      const posterId = users.find((u) => u.role === "user")?.id;
      const providerId = users.find((u) => u.role === "provider")?.id;
      if (!posterId || !providerId) throw new Error("seed: users not inserted");
      const [task] = await queryRows<{ id: string }>(
        database.db,
        sql`insert into tasks (user_id, provider_id, title, description, category, budget_cents, urgent_fee_cents, service_fee_cents, total_cents, provider_share_cents, platform_commission_cents, status)
            values (${posterId}, ${providerId}, 'Flood task', 'WebSocket flood benchmark', 'errands', 3000, 0, 290, 3290, 2550, 450, 'claimed') returning id`,
      );
      if (!task) throw new Error("seed: task not inserted");
      const token = await createSession(database.db, posterId, { idleDays: 7, absoluteDays: 30 }, new Date());
      const [v] = await queryRows<{ server_version: string }>(database.db, sql`show server_version`);
      return { cookie: `errandly_session=${token}`, taskId: task.id, version: v?.server_version ?? "?" };
    } finally {
      await database.close();
    }
  } finally {
    // Handed over stopped: the server starts its embedded PostgreSQL itself, as in production.
    await cluster.stop("fast");
  }
}

interface Probe {
  path: string;
  at: number;
  ms: number;
  ok: boolean;
}

/** What another user asks during the flood, in turns (issue 16: both under 100 ms at p99). */
const PROBE_PATHS = ["/api/health", "/api/tasks/open?pageSize=30"] as const;

/** The probe paths one at a time, in turns, on one keep-alive socket, GAP_MS apart, until `stop()` says so. */
function probeLoop(port: number, stop: () => boolean): Promise<Probe[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const probes: Probe[] = [];
  const once = (path: string) =>
    new Promise<boolean>((done) => {
      const req = http.get({ host: "127.0.0.1", port, path, agent }, (res) => {
        res.resume();
        res.on("end", () => done(res.statusCode === 200));
        res.on("error", () => done(false));
      });
      req.setTimeout(30_000, () => req.destroy(new Error("timeout")));
      req.on("error", () => done(false));
    });
  return (async () => {
    while (!stop()) {
      const path = PROBE_PATHS[probes.length % PROBE_PATHS.length] ?? "/api/health";
      const at = epochNow();
      const started = performance.now();
      const ok = await once(path);
      probes.push({ path, at, ms: performance.now() - started, ok });
      await new Promise((r) => setTimeout(r, GAP_MS));
    }
    agent.destroy();
    return probes;
  })();
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

function describe(label: string, probes: Probe[]): string {
  const ms = probes.map((p) => p.ms).sort((a, b) => a - b);
  const failed = probes.filter((p) => !p.ok).length;
  const over = probes.filter((p) => p.ms >= TARGET_MS).length;
  const f = (v: number) => (Number.isNaN(v) ? "-" : v.toFixed(1));
  return `| ${label} | ${probes.length} | ${f(percentile(ms, 50))} | ${f(percentile(ms, 99))} | ${f(ms.at(-1) ?? Number.NaN)} | ${over} | ${failed} |`;
}

/** One flood from a fresh child process, with probes before, during and after it. */
async function floodOnce(port: number, seeded: { cookie: string; taskId: string }): Promise<{ done: Extract<FloodReport, { type: "done" }>; probes: Probe[] }> {
  const flood = fork(process.argv[1] ?? "", ["--flooder"], { execArgv: process.execArgv, stdio: ["ignore", "inherit", "inherit", "ipc"] });
  // The attacker's CPU is not the server's in real life; here they share two cores.
  if (FLOODER_NICE !== 0 && flood.pid) setPriority(flood.pid, FLOODER_NICE);
  try {
    const exited = new Promise<never>((_, fail) => flood.once("exit", (code) => fail(new Error(`flooder exited with ${code}`))));
    exited.catch(() => undefined); // awaited only while a report is due; a normal exit afterwards is no error
    const reports: FloodReport[] = [];
    const waiters: (() => void)[] = [];
    flood.on("message", (m: FloodReport) => {
      reports.push(m);
      for (const w of waiters.splice(0)) w();
    });
    const next = async <T extends FloodReport["type"]>(type: T): Promise<Extract<FloodReport, { type: T }>> => {
      for (;;) {
        const found = reports.find((r): r is Extract<FloodReport, { type: T }> => r.type === type);
        if (found) return found;
        await Promise.race([new Promise<void>((r) => waiters.push(r)), exited]);
      }
    };
    const setup: FloodSetup = {
      port,
      cookie: seeded.cookie,
      taskId: seeded.taskId,
      frame: FRAME,
      bytes: BYTES,
      parallel: PARALLEL,
      reconnect: RECONNECT,
      timeoutMs: TIMEOUT_S * 1000,
    };
    flood.send(setup);
    await next("ready");
    // Baseline, flood, and two quiet seconds after it, all in one probe loop.
    let quietUntil = Number.POSITIVE_INFINITY;
    const hardStop = epochNow() + (BASELINE_S + TIMEOUT_S + 15) * 1000;
    const probing = probeLoop(port, () => epochNow() > Math.min(quietUntil, hardStop));
    await new Promise((r) => setTimeout(r, BASELINE_S * 1000));
    flood.send("go");
    const done = await next("done");
    quietUntil = epochNow() + 2000;
    return { done, probes: await probing };
  } finally {
    if (flood.exitCode === null) flood.kill();
  }
}

const median = (values: number[]) => {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

async function main(): Promise<void> {
  frameText(FRAME, "", 0); // an unknown --frame fails here, before anything starts
  console.log(
    `ws-flood: ${cpus().length} cores, Node ${process.version}, ${RUNS} run(s) of ${BYTES} bytes of "${FRAME}" frames, ${PARALLEL} socket(s) at a time, flooder nice ${FLOODER_NICE}` +
      `${RECONNECT ? ", reopened when closed" : ""}, ${PROBE_PATHS.join(" and ")} in turns every ${GAP_MS} ms after the previous answer, server ${SERVER_ENTRY}`,
  );
  warnIfStale(SERVER_ENTRY);
  const dataDir = mkdtempSync(join(tmpdir(), "errandly-ws-flood-"));
  let server: AppServer | null = null;
  try {
    const seeded = await seed(dataDir);
    console.log(`embedded PostgreSQL ${seeded.version} in ${dataDir}/postgres`);
    server = await startAppServer({ entry: SERVER_ENTRY, dataDir });
    const rows: string[] = [];
    const perRun: { p50: number; p99: number; max: number }[] = [];
    const pooled: Probe[] = [];
    let failedRuns = 0;
    for (let run = 1; run <= RUNS; run++) {
      const { done, probes } = await floodOnce(server.port, seeded);
      // A probe is "during" the flood if any part of it overlapped the flood's window.
      const before = probes.filter((p) => p.at + p.ms < done.startedAt);
      const during = probes.filter((p) => p.at + p.ms >= done.startedAt && p.at <= done.endedAt);
      const after = probes.filter((p) => p.at > done.endedAt);
      pooled.push(...during);
      const seconds = (done.endedAt - done.startedAt) / 1000;
      const answered = Object.values(done.answers).reduce((a, b) => a + b, 0);
      console.log(
        `\nrun ${run}: ${done.frames} frames, ${done.bytes} bytes over ${done.connections} connections (${done.refused} upgrades refused), ` +
          `in ${seconds.toFixed(2)} s (${(done.bytes / 1024 / seconds).toFixed(0)} KB/s)${done.timedOut ? `, TIMED OUT after ${TIMEOUT_S} s` : ""}; ` +
          `load average ${loadavg().map((l) => l.toFixed(1)).join(" ")}`,
      );
      console.log(`  answers (${answered}): ${Object.entries(done.answers).map(([k, v]) => `${k} x${v}`).join(", ") || "none"}`);
      console.log(`  closes: ${Object.entries(done.closes).map(([k, v]) => `${k} x${v}`).join(", ") || "none"}`);
      const slow = during.filter((p) => p.ms >= TARGET_MS);
      if (slow.length > 0) {
        console.log(`  slow probes (start, after the flood's first frame): ${slow.map((p) => `${((p.at - done.startedAt) / 1000).toFixed(2)} s: ${p.ms.toFixed(0)} ms`).join(", ")}`);
      }
      for (const path of PROBE_PATHS) {
        const on = (list: Probe[]) => list.filter((p) => p.path === path);
        rows.push(describe(`${path} run ${run} before`, on(before)), describe(`${path} run ${run} during`, on(during)), describe(`${path} run ${run} after`, on(after)));
      }
      const ms = during.map((p) => p.ms).sort((a, b) => a - b);
      perRun.push({ p50: percentile(ms, 50), p99: percentile(ms, 99), max: ms.at(-1) ?? Number.NaN });
      if (during.length === 0 || (ms.at(-1) ?? 0) >= TARGET_MS || during.some((p) => !p.ok)) failedRuns += 1;
    }
    console.log(`\n| probe | probes | p50 ms | p99 ms | max ms | >= ${TARGET_MS} ms | failed |\n|---|---|---|---|---|---|---|`);
    for (const row of rows) console.log(row);
    for (const path of PROBE_PATHS) console.log(describe(`${path} all runs, during (pooled)`, pooled.filter((p) => p.path === path)));
    const f = (v: number) => v.toFixed(1);
    console.log(
      `\nduring the flood, median over ${RUNS} run(s): p50 ${f(median(perRun.map((r) => r.p50)))} ms, p99 ${f(median(perRun.map((r) => r.p99)))} ms, ` +
        `max ${f(median(perRun.map((r) => r.max)))} ms (worst run's max ${f(Math.max(...perRun.map((r) => r.max)))} ms)`,
    );
    console.log(`target: ${PROBE_PATHS.join(" and ")} under ${TARGET_MS} ms during the flood: ${failedRuns === 0 ? "met" : `NOT met in ${failedRuns} of ${RUNS} run(s)`}`);
    if (failedRuns > 0) process.exitCode = 1;
  } finally {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (args.has("flooder")) {
  await flooder();
} else {
  await main();
}
