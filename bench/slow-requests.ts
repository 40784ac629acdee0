import { fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { cpus, loadavg, setPriority, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { startAppServer, warnIfStale, type AppServer } from "./app-server.js";
import { benchArgs } from "./args.js";
import { median, percentile, rssMb } from "./stats.js";

// Slow requests (issue 27, item 3; docs/benchmarks.md, "Slow requests"; decision 043). The built
// server on its default database, seeded with the demo data, measured from outside:
//
// (a) stalled bodies: --stalled connections (1,000) from 127.0.0.1 each announce a sign-in body of
//     just under 1 MB, send all of it but the last KB, and stall; meanwhile --stalled-headers
//     connections (64) from 127.0.0.3 each leave their header block incomplete (nothing at all,
//     half a request line, no blank line, one header line a second). The server's RSS before, at
//     its peak and after the server has closed them all; and the longest any of them stayed open,
//     against REQUEST_TIMEOUT_MS for the bodies and HEADERS_TIMEOUT_MS for the headers (decision
//     071). Target: peak less than 150 MB over before, and every connection closed (its memory
//     given back) within its timeout + 2 s.
// (b) flood: a child process keeps --flood requests (3,000) for a server-rendered task page in
//     flight from 127.0.0.1 for --flood-seconds, each on a new connection and sent again as soon
//     as it is answered or refused; meanwhile a visitor at 127.0.0.2 asks for the job board (the
//     server-rendered /jobs page and GET /api/tasks/open, in turns, one at a time, 10 ms apart).
//     Target: the visitor's p99 under 250 ms during the flood.
//
//   npm run build && npm run bench:slow
//   npm run bench:slow -- --runs=3 --stalled=1000 --flood=3000 --flood-seconds=10 --baseline=3 --later=10
//                         the defaults; --baseline: seconds of the visitor alone before each flood;
//                         --later: seconds after the last stalled connection closed for the second RSS
//                         reading (the first is at 1 s)
//   --request-timeout=MS  the server's REQUEST_TIMEOUT_MS (its default otherwise)
//   --headers-timeout=MS  the server's HEADERS_TIMEOUT_MS (its default otherwise: 20 s, or the request's if shorter)
//   --only=stalled|flood  one of the two
//   --flooder-nice=19     run the flooding process at a lower priority, so that sending the flood does
//                         not take CPU from the server as it would not from a real server (default 0)
//   --server=path         default dist/server/server/main.js; a .ts entry runs through tsx
//
// Every connection goes to 127.0.0.x; each phase is bounded by its count and a deadline.

const ROOT = resolve(import.meta.dirname, "..");
const args = benchArgs();
const RUNS = Number(args.get("runs") ?? 3);
const STALLED = Number(args.get("stalled") ?? 1000);
const STALLED_HEADERS = Number(args.get("stalled-headers") ?? 64);
/** Announced by each stalled body: just under the server's 1 MiB body limit. */
const ANNOUNCED_BYTES = 1_048_000;
/** Sent by each: all but the last KB, so the body never completes. */
const SENT_BYTES = ANNOUNCED_BYTES - 1024;
const FLOOD = Number(args.get("flood") ?? 3000);
const FLOOD_SECONDS = Number(args.get("flood-seconds") ?? 10);
const BASELINE_SECONDS = Number(args.get("baseline") ?? 3);
const LATER_SECONDS = Number(args.get("later") ?? 10);
const PROBE_GAP_MS = 10;
const REQUEST_TIMEOUT = args.get("request-timeout");
const HEADERS_TIMEOUT = args.get("headers-timeout");
const ONLY = args.get("only");
const FLOODER_NICE = Number(args.get("flooder-nice") ?? 0);
const SERVER_ENTRY = resolve(ROOT, args.get("server") ?? "dist/server/server/main.js");
const RSS_TARGET_MB = 150;
const P99_TARGET_MS = 250;
/** The server's REQUEST_TIMEOUT_MS and HEADERS_TIMEOUT_MS when the bench does not set them (src/server/config/env.ts). */
const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
const DEFAULT_HEADERS_TIMEOUT_MS = 20_000;
/** How long past its timeout a stalled connection may stay open: the server looks every 250 ms (app.ts), on a loaded event loop. */
const LATE_S = 2;
const FLOODER = "127.0.0.1";
const VISITOR = "127.0.0.2";
const HEADER_STALLER = "127.0.0.3";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const count = (map: Record<string, number>, key: string) => (map[key] = (map[key] ?? 0) + 1);
const f = (v: number) => v.toFixed(1);

// ---- (a) stalled bodies ------------------------------------------------------------------------

interface StalledRun {
  beforeMb: number;
  peakMb: number;
  /** RSS 1 s and --later s after the server closed the last connection. */
  afterMb: number;
  laterMb: number;
  /** The longest a stalled body's connection stayed open after it opened (the timeout runs from there). */
  longestOpenS: number;
  /** The same for the incomplete header blocks. */
  longestHeadersOpenS: number;
  outcomes: Record<string, number>;
}

/** A connection opened from `localAddress` that writes `send` on opening: when it closed and what it was answered. */
function stallOne(port: number, localAddress: string, send: (socket: net.Socket) => void): { socket: net.Socket; closed: Promise<{ openMs: number; outcome: string }> } {
  const socket = net.connect({ host: "127.0.0.1", port, localAddress });
  let answer = "";
  let openedAt = Number.NaN;
  socket.on("data", (chunk: Buffer) => (answer ||= chunk.toString("latin1", 0, 12)));
  socket.on("error", () => undefined);
  socket.once("connect", () => {
    openedAt = performance.now();
    send(socket);
  });
  const closed = new Promise<{ openMs: number; outcome: string }>((done) =>
    socket.once("close", () => done({ openMs: performance.now() - openedAt, outcome: answer ? `answered ${answer.slice(9, 12)}` : "closed unanswered" })),
  );
  return { socket, closed };
}

/** Ways a header block stays incomplete; the last sends one more header line a second, never the blank line. */
const INCOMPLETE_HEADERS: ((socket: net.Socket, port: number) => void)[] = [
  () => undefined,
  (socket) => socket.write("GET /robots.t"),
  (socket, port) => socket.write(`GET /robots.txt HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`),
  (socket, port) => {
    socket.write(`GET /robots.txt HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
    const trickle = setInterval(() => socket.write("X-Trickle: 1\r\n"), 1000);
    socket.once("close", () => clearInterval(trickle));
  },
];

async function stalledRun(server: AppServer, timeoutMs: number): Promise<StalledRun> {
  const pid = server.child.pid ?? 0;
  const beforeMb = rssMb(pid);
  let peakMb = beforeMb;
  const sampler = setInterval(() => (peakMb = Math.max(peakMb, rssMb(pid))), 50);
  // One buffer for every socket: the bench's own memory stays small.
  const body = Buffer.alloc(SENT_BYTES, "a");
  body.write('{"email":"');
  const head = Buffer.from(
    `POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: application/json\r\nContent-Length: ${ANNOUNCED_BYTES}\r\n\r\n`,
  );
  const outcomes: Record<string, number> = {};
  const bodies = Array.from({ length: STALLED }, () =>
    stallOne(server.port, FLOODER, (socket) => {
      socket.write(head);
      socket.write(body);
    }),
  );
  const headers = Array.from({ length: STALLED_HEADERS }, (_, i) =>
    stallOne(server.port, HEADER_STALLER, (socket) => INCOMPLETE_HEADERS[i % INCOMPLETE_HEADERS.length]?.(socket, server.port)),
  );
  const sockets = [...bodies, ...headers].map((stall) => stall.socket);
  const longest = async (kind: string, stalls: { closed: Promise<{ openMs: number; outcome: string }> }[]) => {
    let ms = 0;
    for (const { openMs, outcome } of await Promise.all(stalls.map((stall) => stall.closed))) {
      // A connection refused as it opened never opened: it has no time to count.
      if (!Number.isNaN(openMs)) ms = Math.max(ms, openMs);
      count(outcomes, `${kind} ${outcome}`);
    }
    return ms;
  };
  // Bounded: whatever is still open well after the timeout is counted and closed by us.
  const deadline = sleep(timeoutMs + 15_000).then(() => "deadline" as const);
  const all = Promise.all([longest("bodies", bodies), longest("headers", headers)]);
  const ended = await Promise.race([all, deadline]);
  let longestOpenMs = Number.NaN;
  let longestHeadersOpenMs = Number.NaN;
  if (ended === "deadline") {
    outcomes["still open at the deadline"] = sockets.filter((s) => !s.destroyed).length;
    for (const s of sockets) s.destroy();
  } else {
    [longestOpenMs, longestHeadersOpenMs] = ended;
  }
  // RSS once the server has let go: V8 gives freed pages back after a collection, which an idle
  // server runs on its own time, so it is read twice.
  await sleep(1_000);
  clearInterval(sampler);
  const afterMb = rssMb(pid);
  await sleep(Math.max(0, LATER_SECONDS - 1) * 1000);
  const laterMb = rssMb(pid);
  return { beforeMb, peakMb, afterMb, laterMb, longestOpenS: longestOpenMs / 1000, longestHeadersOpenS: longestHeadersOpenMs / 1000, outcomes };
}

// ---- (b) flood ---------------------------------------------------------------------------------

interface FloodSetup {
  port: number;
  path: string;
  concurrency: number;
  seconds: number;
}

type FloodReport = { type: "ready" } | { type: "done"; requests: number; outcomes: Record<string, number> };

/** The child: `concurrency` loops, each sending the page again as soon as the last one ended. */
async function flooder(): Promise<void> {
  const setup = await new Promise<FloodSetup>((got) => process.once("message", (m) => got(m as FloodSetup)));
  const send = (report: FloodReport) => process.send?.(report);
  send({ type: "ready" });
  await new Promise((go) => process.once("message", go));
  const outcomes: Record<string, number> = {};
  let requests = 0;
  const until = performance.now() + setup.seconds * 1000;
  const once = () =>
    new Promise<void>((done) => {
      requests++;
      const request = http.get({ host: "127.0.0.1", port: setup.port, path: setup.path, localAddress: FLOODER, agent: false }, (response) => {
        response.resume();
        response.once("end", () => {
          count(outcomes, String(response.statusCode));
          done();
        });
        response.once("error", () => done());
      });
      request.once("error", (error: NodeJS.ErrnoException) => {
        count(outcomes, error.code ?? "error");
        done();
      });
    });
  await Promise.all(
    Array.from({ length: setup.concurrency }, async () => {
      while (performance.now() < until) await once();
    }),
  );
  send({ type: "done", requests, outcomes });
  process.exit(0);
}

interface Probe {
  path: string;
  ms: number;
  ok: boolean;
}

/** The visitor: the job board's page and its API in turns, one at a time, until `stop()`. */
async function probeLoop(port: number, stop: () => boolean): Promise<Probe[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1, localAddress: VISITOR });
  const paths = ["/jobs", "/api/tasks/open?pageSize=30"];
  const probes: Probe[] = [];
  for (let i = 0; !stop(); i++) {
    const path = paths[i % paths.length] ?? "/jobs";
    const start = performance.now();
    const ok = await new Promise<boolean>((done) => {
      const request = http.get({ host: "127.0.0.1", port, path, agent }, (response) => {
        response.resume();
        response.once("end", () => done(response.statusCode === 200));
      });
      request.setTimeout(30_000, () => request.destroy());
      request.once("error", () => done(false));
    });
    probes.push({ path, ms: performance.now() - start, ok });
    await sleep(PROBE_GAP_MS);
  }
  agent.destroy();
  return probes;
}

interface FloodRun {
  baselineP99: number;
  p50: number;
  p99: number;
  max: number;
  failedProbes: number;
  probes: number;
  requests: number;
  outcomes: Record<string, number>;
}

function p99Of(probes: Probe[]): { p50: number; p99: number; max: number } {
  const ms = probes.map((p) => p.ms).sort((a, b) => a - b);
  return { p50: percentile(ms, 50), p99: percentile(ms, 99), max: ms[ms.length - 1] ?? Number.NaN };
}

async function floodRun(server: AppServer, taskPath: string): Promise<FloodRun> {
  let baselineDone = false;
  const baseline = probeLoop(server.port, () => baselineDone);
  await sleep(BASELINE_SECONDS * 1000);
  baselineDone = true;
  const baselineProbes = await baseline;

  const child = fork(process.argv[1] ?? "", ["--flooder"], { execArgv: process.execArgv, stdio: ["ignore", "inherit", "inherit", "ipc"] });
  if (FLOODER_NICE !== 0 && child.pid) setPriority(child.pid, FLOODER_NICE);
  const reports: FloodReport[] = [];
  const next = () => new Promise<FloodReport>((got) => child.once("message", (m) => got(m as FloodReport)));
  const ready = next();
  child.send({ port: server.port, path: taskPath, concurrency: FLOOD, seconds: FLOOD_SECONDS } satisfies FloodSetup);
  reports.push(await ready);
  const done = next();
  child.send("go");
  let flooding = true;
  const during = probeLoop(server.port, () => !flooding);
  const report = await Promise.race([done, sleep((FLOOD_SECONDS + 60) * 1000).then(() => null)]);
  flooding = false;
  const probes = await during;
  if (!report || report.type !== "done") {
    child.kill("SIGKILL");
    throw new Error("the flooder did not finish within its time and a minute");
  }
  return {
    baselineP99: p99Of(baselineProbes).p99,
    ...p99Of(probes),
    failedProbes: probes.filter((p) => !p.ok).length,
    probes: probes.length,
    requests: report.requests,
    outcomes: report.outcomes,
  };
}

// ---- main --------------------------------------------------------------------------------------

async function main(): Promise<void> {
  warnIfStale(SERVER_ENTRY);
  const timeoutMs = REQUEST_TIMEOUT ? Number(REQUEST_TIMEOUT) : DEFAULT_REQUEST_TIMEOUT_MS;
  const headersTimeoutMs = HEADERS_TIMEOUT ? Number(HEADERS_TIMEOUT) : Math.min(DEFAULT_HEADERS_TIMEOUT_MS, timeoutMs);
  console.log(
    `bench:slow: ${cpus().length} cores, Node ${process.version}, ${RUNS} run(s), REQUEST_TIMEOUT_MS ${timeoutMs}, HEADERS_TIMEOUT_MS ${headersTimeoutMs}, flooder nice ${FLOODER_NICE} ` +
      `(load average ${loadavg().map((l) => l.toFixed(1)).join(" ")})`,
  );
  const dataDir = mkdtempSync(join(tmpdir(), "errandly-bench-slow-"));
  let server: AppServer | null = null;
  try {
    server = await startAppServer({
      entry: SERVER_ENTRY,
      dataDir,
      demoTasks: true,
      env: {
        ...(REQUEST_TIMEOUT ? { REQUEST_TIMEOUT_MS: REQUEST_TIMEOUT } : {}),
        ...(HEADERS_TIMEOUT ? { HEADERS_TIMEOUT_MS: HEADERS_TIMEOUT } : {}),
      },
    });
    const board = (await (await fetch(`http://127.0.0.1:${server.port}/api/tasks/open?pageSize=1`)).json()) as { id: string }[];
    const taskId = board[0]?.id;
    if (!taskId) throw new Error("the demo data has no open task to flood");
    const failures: string[] = [];

    if (ONLY !== "flood") {
      const runs: StalledRun[] = [];
      for (let run = 1; run <= RUNS; run++) {
        const r = await stalledRun(server, timeoutMs);
        runs.push(r);
        console.log(
          `stalled ${run}: RSS ${f(r.beforeMb)} MB before, ${f(r.peakMb)} peak (+${f(r.peakMb - r.beforeMb)}), ${f(r.afterMb)} 1 s after ` +
            `(+${f(r.afterMb - r.beforeMb)}), ${f(r.laterMb)} ${LATER_SECONDS} s after (+${f(r.laterMb - r.beforeMb)}); the longest a connection stayed open: ` +
            `a stalled body ${f(r.longestOpenS)} s, an incomplete header block ${f(r.longestHeadersOpenS)} s; ${JSON.stringify(r.outcomes)}`,
        );
      }
      const rises = runs.map((r) => r.peakMb - r.beforeMb);
      // How long past its own timeout each run's slowest-closed connection stayed open (NaN: one was still open at the deadline).
      const pastTimeout = (r: StalledRun) => Math.max(r.longestOpenS - timeoutMs / 1000, r.longestHeadersOpenS - headersTimeoutMs / 1000);
      console.log(
        `\nstalled, median of ${RUNS}: RSS ${f(median(runs.map((r) => r.beforeMb)))} MB before, ${f(median(runs.map((r) => r.peakMb)))} peak ` +
          `(+${f(median(rises))}; the largest rise +${f(Math.max(...rises))}), ${f(median(runs.map((r) => r.afterMb)))} 1 s after, ` +
          `${f(median(runs.map((r) => r.laterMb)))} ${LATER_SECONDS} s after; the longest a connection stayed open: a stalled body ${f(median(runs.map((r) => r.longestOpenS)))} s ` +
          `(timeout ${timeoutMs / 1000} s), an incomplete header block ${f(median(runs.map((r) => r.longestHeadersOpenS)))} s (timeout ${headersTimeoutMs / 1000} s); ` +
          `in all runs, the most any stayed past its timeout ${f(Math.max(...runs.map(pastTimeout)))} s`,
      );
      const late = runs.filter((r) => !(pastTimeout(r) <= LATE_S)).length;
      const over = runs.filter((r) => r.peakMb - r.beforeMb >= RSS_TARGET_MB).length;
      console.log(
        `target: RSS rise under ${RSS_TARGET_MB} MB (${over === 0 ? "met" : `NOT met in ${over} run(s)`}), ` +
          `every connection closed within its timeout + ${LATE_S} s (${late === 0 ? "met" : `NOT met in ${late} run(s)`})\n`,
      );
      if (over + late > 0) failures.push("stalled");
    }

    if (ONLY !== "stalled") {
      const runs: FloodRun[] = [];
      for (let run = 1; run <= RUNS; run++) {
        const r = await floodRun(server, `/tasks/${taskId}`);
        runs.push(r);
        console.log(
          `flood ${run}: ${r.requests} requests from ${FLOODER} (${JSON.stringify(r.outcomes)}); visitor ${r.probes} requests, ` +
            `p50 ${f(r.p50)} ms, p99 ${f(r.p99)} ms, max ${f(r.max)} ms, ${r.failedProbes} failed (p99 before the flood ${f(r.baselineP99)} ms)`,
        );
      }
      const p99 = median(runs.map((r) => r.p99));
      console.log(
        `\nflood, median of ${RUNS}: visitor p50 ${f(median(runs.map((r) => r.p50)))} ms, p99 ${f(p99)} ms, max ${f(median(runs.map((r) => r.max)))} ms; ` +
          `p99 before the flood ${f(median(runs.map((r) => r.baselineP99)))} ms`,
      );
      const over = runs.filter((r) => r.p99 >= P99_TARGET_MS || r.failedProbes > 0).length;
      console.log(`target: the visitor's p99 under ${P99_TARGET_MS} ms, none failed: ${over === 0 ? "met" : `NOT met in ${over} of ${RUNS} run(s)`}`);
      if (over > 0) failures.push("flood");
    }
    if (failures.length > 0) process.exitCode = 1;
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
