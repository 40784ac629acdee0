import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { CDPSession } from "playwright-core";
import WebSocket from "ws";
import { launchBrowser } from "../../e2e/harness.js";
import { sql } from "drizzle-orm";
import { createStorage } from "../../src/server/adapters/storage/create-storage.js";
import { keyFromIdentityFile, newBackupKey } from "../../src/server/backup/archive-crypto.js";
import { writeBackup } from "../../src/server/backup/dump.js";
import { openArchive, restoreBackup } from "../../src/server/backup/restore.js";
import { parseEnv } from "../../src/server/config/env.js";
import { SERVICE_UNAVAILABLE } from "../../src/server/plugins/errors.js";
import { SecretBox } from "../../src/server/secrets/secret-box.js";
import { openDatabase, queryRows, type Database } from "../../src/server/db/client.js";
import { freePort } from "../../src/server/free-port.js";
import { SERVICE_RESTART_CLOSE } from "../../src/shared/server-frames.js";
import { freshDatabase, testPostgres, type PostgresDatabase } from "../postgres-cluster.js";
import { checkInvariants, installTransitionLog, transitionCounts } from "./invariants.js";
import { SANDBOX_CARD, Traffic, claimedTask, createActors, need, rowCounts, sleep, taskBody, waitFor, type Actor } from "./load.js";
import { INSTANCE_SECRETS_KEY, startServer, type ServerProcess } from "./server-process.js";
import { checkTiming, startHaproxy, startPgBouncer, type Balancer, type Daemon } from "./topology-processes.js";
import { recoverCutOffPayments, startWorkload } from "./workload.js";

// The topology an operator runs past one machine (docs/deploy.md), for real: Debian's HAProxy
// (deploy/haproxy.cfg) → three built server instances → Debian's PgBouncer in transaction mode
// (deploy/pgbouncer.ini) → PostgreSQL, with one shared upload directory. Each fault runs under
// load: an instance killed, a rolling restart, PgBouncer restarted; then the claim race across the
// instances and every ledger invariant after all of it (docs/decisions/051-pooler-and-topology.md).

const NAMES = ["app1", "app2", "app3"];
const timing = checkTiming();
/** Worst case from a failing instance to HAProxy marking it down: one interval, then fall - 1 fast ones. */
const TAKE_OUT_MS = timing.inter + (timing.fall - 1) * timing.fastinter;
/** DRAIN_DELAY_MS as docs/deploy.md sizes it: twice the time HAProxy needs to take an instance out. */
const DRAIN_MS = 2 * TAKE_OUT_MS;

let postgres: PostgresDatabase | null = null;
let bouncer: (Daemon & { url: string }) | null = null;
let balancer: Balancer | null = null;
let database: Database | null = null;
let storageDir = "";
const ports = new Map<string, number>();
const instances = new Map<string, ServerProcess>();

function instanceEnv(): Record<string, string> {
  return {
    DATABASE_POOL_MODE: "transaction",
    DATABASE_LISTEN_URL: need(postgres, "PostgreSQL").url,
    DRAIN_DELAY_MS: String(DRAIN_MS),
    TRUST_PROXY: "true",
    PUBLIC_URL: need(balancer, "HAProxy").url,
    STORAGE_DIR: storageDir,
    // Payments cut off by a kill are handed back within a second (recoverCutOffPayments).
    SWEEP_INTERVAL_MS: "500",
  };
}

async function startInstance(name: string, dataDir?: string): Promise<ServerProcess> {
  const port = ports.get(name);
  const instance = await startServer({ databaseUrl: need(bouncer, "PgBouncer").url, port, ...(dataDir ? { dataDir } : {}), env: instanceEnv() });
  instances.set(name, instance);
  return instance;
}

async function waitForStates(what: string, check: (states: Map<string, string>) => boolean, timeoutMs: number): Promise<number> {
  const lb = need(balancer, "HAProxy");
  return waitFor(what, async () => check(await lb.states()), timeoutMs, 25);
}


/** Why instances answered 503: the causes their logs name, counted. */
function unavailableCauses(): string {
  const causes = new Map<string, number>();
  for (const instance of instances.values()) {
    for (const line of instance.output().split("\n")) {
      if (!line.includes("service unavailable")) continue;
      const cause = /"message":"([^"]{0,100})/.exec(line)?.[1] ?? "?";
      causes.set(cause, (causes.get(cause) ?? 0) + 1);
    }
  }
  return [...causes].map(([c, n]) => `${n}× ${c}`).join("; ") || "none logged";
}

const allUp = (states: Map<string, string>) => NAMES.every((n) => states.get(n) === "UP");

beforeAll(async () => {
  postgres = await testPostgres();
  bouncer = await startPgBouncer(postgres.url);
  storageDir = mkdtempSync(join(tmpdir(), "errandly-shared-objects-"));
  for (const name of NAMES) ports.set(name, await freePort());
  // HAProxy first: the instances' PUBLIC_URL is its address; it finds them as they come up.
  balancer = await startHaproxy(ports);
  // One after the other: the first migrates the empty database through its direct URL.
  for (const name of NAMES) await startInstance(name);
  database = await openDatabase({ databaseUrl: postgres.url, poolSize: 2 });
  await installTransitionLog(database.db);
  await waitForStates("HAProxy to see every instance up", allUp, 15_000);
}, 180_000);

afterAll(async () => {
  for (const instance of instances.values()) {
    await instance.stop();
    instance.cleanup();
  }
  await balancer?.destroy();
  await bouncer?.destroy();
  await database?.close();
  await postgres?.destroy();
  rmSync(storageDir, { recursive: true, force: true });
}, 60_000);

/**
 * A chat client through the balancer as the web app behaves (src/web/lib/realtime.ts and the chat
 * conversation): it reconnects whenever the socket drops, joins the room again and reads the
 * message list, merging by id; pushes and the list together must hold each message exactly once.
 */
class ChatClient {
  /** Message id → times it was pushed. */
  readonly pushes = new Map<string, number>();
  /** What the conversation shows: message id → content. */
  readonly view = new Map<string, string>();
  /** The instance behind each connection, in order, and how each ended. */
  readonly servedBy: string[] = [];
  readonly closes: number[] = [];
  private socket: WebSocket | null = null;
  private stopped = false;

  constructor(
    private readonly url: string,
    private readonly actor: Actor,
    private readonly taskId: string,
  ) {}

  async connect(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const joined = await this.open().then(
        () => true,
        () => false,
      );
      if (joined) break;
      // The web client waits 1 s and more with jitter; the test retries sooner to keep CI short.
      await sleep(100);
    }
    // Whatever was sent while it was away: the list, merged by id (again after a 503, as the web app's query retries).
    for (;;) {
      if (this.stopped) return;
      const res = await fetch(`${this.url}/api/messages/${this.taskId}`, { headers: { cookie: this.actor.cookie, origin: this.url } });
      if (res.status === 200) {
        for (const m of (await res.json()) as { id: string; content: string }[]) this.view.set(m.id, m.content);
        return;
      }
      if (res.status !== 503) throw new Error(`message list: ${res.status} ${await res.text()}`);
      await sleep(100);
    }
  }

  private open(): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`${this.url.replace("http", "ws")}/ws`, { headers: { cookie: this.actor.cookie, origin: this.url } });
      this.socket = socket;
      socket.once("upgrade", (res) => this.servedBy.push(String(res.headers["x-served-by"])));
      socket.once("error", reject);
      socket.once("open", () => socket.send(JSON.stringify({ type: "auth", taskId: this.taskId })));
      socket.on("message", (data: WebSocket.RawData) => {
        const frame = JSON.parse(String(data)) as { type: string; id?: string; content?: string };
        if (frame.type === "auth_success") resolve();
        if (frame.type === "message" && frame.id && frame.content) {
          this.pushes.set(frame.id, (this.pushes.get(frame.id) ?? 0) + 1);
          this.view.set(frame.id, frame.content);
        }
      });
      socket.once("close", (code: number) => {
        if (this.socket !== socket) return;
        this.closes.push(code);
        reject(new Error(`closed ${code} before joining`));
        if (!this.stopped) void this.connect();
      });
    });
  }

  /** The instance holding the current connection. */
  get instance(): string {
    return this.servedBy.at(-1) ?? "";
  }

  stop(): void {
    this.stopped = true;
    this.socket?.close();
  }
}

/** Every chat client a test opened; stopped after it, so none keeps reconnecting into the next fault. */
const openClients: ChatClient[] = [];
afterEach(() => {
  for (const client of openClients.splice(0)) client.stop();
});

/** Chat pairs (a claimed task each) with the provider's client connected through the balancer. */
async function chatPairs(db: Database["db"], traffic: Traffic, url: string, count: number) {
  const posters = await createActors(db, count, "poster");
  const providers = await createActors(db, count, "provider");
  const pairs: { poster: Actor; taskId: string; client: ChatClient }[] = [];
  for (let i = 0; i < count; i += 1) {
    const poster = need(posters[i] ?? null, "a poster");
    const provider = need(providers[i] ?? null, "a provider");
    const { id } = await claimedTask(traffic, url, poster, provider, `Topology chat ${i}`);
    const client = new ChatClient(url, provider, id);
    openClients.push(client);
    await client.connect();
    pairs.push({ poster, taskId: id, client });
  }
  return pairs;
}

/** Posters send a message each on every tick until stopped; returns the acknowledged ids by task. */
function chatter(traffic: Traffic, url: string, pairs: { poster: Actor; taskId: string }[]) {
  const acked = new Map<string, Set<string>>(pairs.map((p) => [p.taskId, new Set()]));
  let stopped = false;
  const loops = pairs.map(async ({ poster, taskId }, i) => {
    for (let n = 0; !stopped; n += 1) {
      const res = await traffic.call(url, poster, "POST", "/api/messages", { taskId, content: `pair ${i} message ${n}` });
      if (res.status === 201) acked.get(taskId)?.add(String(res.body.id));
      // Under the chat rate limit (30 a minute per user) for the length of a fault.
      await sleep(2_500);
    }
  });
  return {
    acked,
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

/** Every acknowledged message is in its client's view, none pushed twice, nothing extra. */
async function expectEveryMessageOnce(pairs: { taskId: string; client: ChatClient }[], acked: Map<string, Set<string>>) {
  for (const { taskId, client } of pairs) {
    const ids = acked.get(taskId) ?? new Set<string>();
    await waitFor(`client of ${taskId} to hold all ${ids.size} messages`, async () => [...ids].every((id) => client.view.has(id)), 10_000, 50);
    expect([...client.view.keys()].sort()).toEqual([...ids].sort());
    expect([...client.pushes.values()].filter((n) => n > 1)).toEqual([]);
  }
}

/** A page's WebSockets as Chromium's network layer sees them: which instance answered each, and when. */
interface PageSocket {
  servedBy: string;
  createdAt: number;
  /** The server answered the bell's subscription: the app refetches what it shows from here. */
  subscribedAt: number | null;
  closedAt: number | null;
}

async function watchSockets(cdp: CDPSession): Promise<Map<string, PageSocket>> {
  const sockets = new Map<string, PageSocket>();
  cdp.on("Network.webSocketCreated", ({ requestId }) => sockets.set(requestId, { servedBy: "", createdAt: Date.now(), subscribedAt: null, closedAt: null }));
  cdp.on("Network.webSocketHandshakeResponseReceived", ({ requestId, response }) => {
    const header = Object.entries(response.headers).find(([name]) => name.toLowerCase() === "x-served-by");
    const socket = sockets.get(requestId);
    if (socket) socket.servedBy = header?.[1] ?? "";
  });
  cdp.on("Network.webSocketFrameReceived", ({ requestId, response }) => {
    const socket = sockets.get(requestId);
    if (socket && socket.subscribedAt === null && response.payloadData.includes('"type":"notification"')) socket.subscribedAt = Date.now();
  });
  cdp.on("Network.webSocketClosed", ({ requestId }) => {
    const socket = sockets.get(requestId);
    if (socket) socket.closedAt = Date.now();
  });
  await cdp.send("Network.enable");
  return sockets;
}

describe("HAProxy → 3 instances → PgBouncer (transaction mode) → PostgreSQL", () => {
  it("keeps serving when one instance is killed: only its in-flight requests fail, HAProxy takes it out, its sockets catch up elsewhere", async () => {
    const db = need(database, "the database").db;
    const lb = need(balancer, "HAProxy");
    const traffic = new Traffic();
    const pairs = await chatPairs(db, traffic, lb.url, 6);
    const victim = need(pairs[0]?.client.instance ?? null, "a socket's instance");
    const onVictim = pairs.filter((p) => p.client.instance === victim);
    const talk = chatter(traffic, lb.url, pairs);
    const posters = await createActors(db, 4, "poster");
    const load = startWorkload({
      label: "topology kill",
      url: () => lb.url,
      posters,
      providers: await createActors(db, 3, "provider"),
      traffic,
      paymentsPerPoster: 2,
    });
    await load.rounds(1);
    expect(traffic.failures).toEqual([]);
    // The requests in flight at the kill, whichever instance held them: the most that may fail
    // besides those HAProxy sends to the victim before it notices (below).
    const inFlight = new Set(traffic.inFlight.keys());
    const killedAt = Date.now();
    await need(instances.get(victim) ?? null, victim).kill();
    const takenOutMs = await waitForStates(`HAProxy to take ${victim} out`, (s) => (s.get(victim) ?? "").startsWith("DOWN"), 10_000);
    const takenOutAt = Date.now();
    await load.rounds(1);
    await talk.stop();
    await load.stop();
    // A request HAProxy sent on a kept-alive connection to the victim in the moment before it saw
    // that connection close gets its client connection closed unanswered, so that the browser sends
    // it again (HAProxy's default `http-reuse safe`; Chromium resends on a reused connection). That
    // can only happen between the kill and HAProxy taking the victim out.
    const cutInFlight = traffic.failures.filter((f) => inFlight.has(f.id));
    const resendable = traffic.failures.filter((f) => !inFlight.has(f.id) && !f.answered && f.startedAt >= killedAt && f.startedAt <= takenOutAt);
    const otherFailures = traffic.failures.filter((f) => !cutInFlight.includes(f) && !resendable.includes(f));
    // A confirm cut off on the killed instance is handed back by the sweep and paid on retry.
    const recovery = await recoverCutOffPayments(db, traffic, lb.url, posters);

    console.info(
      [
        `[faults] topology kill: ${victim} SIGKILLed with ${inFlight.size} requests in flight through HAProxy; ${cutInFlight.length} of them failed, ${resendable.length} sent to ${victim} before it was taken out were closed unanswered for the client to resend; taken out ${takenOutMs} ms after the kill (bound ${TAKE_OUT_MS} ms + one check)`,
        `[faults]   requests ${traffic.count(() => true)} (${traffic.summary()}); ${recovery.cutOff} payments cut off, ${recovery.repaid} repaid; ${onVictim.length} of ${pairs.length} sockets were on ${victim} and reconnected to ${onVictim.map((p) => p.client.instance).join(", ")}`,
      ].join("\n"),
    );
    expect(otherFailures.map((f) => f.what)).toEqual([]);
    // A request its instance died holding gets 502 from HAProxy, or its connection is cut when the
    // answer had begun; no other 5xx, and nothing else the load did went wrong.
    expect(traffic.serverErrors.filter((f) => !/: 502 /.test(f))).toEqual([]);
    expect(load.unexpected.filter((u) => !/: 502 /.test(u))).toEqual([]);
    expect(recovery.failures).toEqual([]);
    expect(takenOutMs).toBeLessThanOrEqual(TAKE_OUT_MS + timing.inter);
    expect(onVictim.length).toBeGreaterThan(0);
    for (const { client } of onVictim) expect(client.instance).not.toBe(victim);
    await expectEveryMessageOnce(pairs, talk.acked);

    // Back for the next fault.
    const dataDir = need(instances.get(victim) ?? null, victim).dataDir;
    await startInstance(victim, dataDir);
    await waitForStates("every instance up again", allUp, 15_000);
  });

  it("shows a browser what changed on its task while its socket's instance was dead, once it reconnects, without a reload", async () => {
    const db = need(database, "the database").db;
    const lb = need(balancer, "HAProxy");
    const traffic = new Traffic();
    const poster = need((await createActors(db, 1, "poster"))[0] ?? null, "a poster");
    const provider = need((await createActors(db, 1, "provider"))[0] ?? null, "a provider");
    const posted = await traffic.call(lb.url, poster, "POST", "/api/tasks", taskBody("Topology watched task"));
    expect(posted.status).toBe(201);
    const taskId = String(posted.body.id);
    const browser = await launchBrowser();
    let victim: string | null = null;
    try {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      await context.addCookies([{ name: "errandly_session", value: poster.cookie.slice(poster.cookie.indexOf("=") + 1), url: lb.url }]);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      const sockets = await watchSockets(cdp);
      let loads = 0;
      page.on("load", () => (loads += 1));
      await page.goto(`${lb.url}/task/${taskId}`);
      await page.getByRole("heading", { name: "Topology watched task" }).waitFor();
      await waitFor("the page's socket to subscribe", async () => [...sockets.values()].some((s) => s.subscribedAt !== null && s.closedAt === null), 15_000, 25);
      const first = need([...sockets.values()].find((s) => s.subscribedAt !== null && s.closedAt === null) ?? null, "the page's socket");
      victim = first.servedBy;
      const unreadBefore = await page.getByRole("button", { name: /^Notifications, \d+ unread$/ }).getAttribute("aria-label");

      // The page's scripts are held from before the kill until the task has changed, so its
      // reconnect cannot come before the change and hear it pushed: what it shows after can only
      // come from the catch-up on reconnecting (a laptop waking up does the same).
      await cdp.send("Debugger.enable");
      await cdp.send("Debugger.pause");
      // A paused page hears of its socket's end only once it runs again (the browser's close event
      // is the page's own), so the kill is judged where it happens: the process is gone, and
      // HAProxy has taken it out, so the change below cannot reach it.
      const killed = need(victim, "the page's instance");
      await need(instances.get(killed) ?? null, killed).kill();
      await waitForStates(`HAProxy to take ${killed} out`, (states) => states.get(killed) !== "UP", 10_000);
      const claim = await traffic.call(lb.url, provider, "PATCH", `/api/tasks/${taskId}/claim`);
      const intent = await traffic.call(lb.url, poster, "POST", "/api/create-payment-intent", { taskId, amount: Number(posted.body.totalAmount) });
      const paid = await traffic.call(lb.url, poster, "POST", "/api/sandbox/payments/confirm", { clientSecret: intent.body.clientSecret, ...SANDBOX_CARD });
      const notices = await traffic.call(lb.url, poster, "GET", "/api/notifications");
      const changedAt = Date.now();
      await cdp.send("Debugger.resume");
      await cdp.send("Debugger.disable");
      expect([claim.status, intent.status, paid.status, notices.status]).toEqual([200, 200, 200, 200]);

      const badge = page.getByText("Paid · held in escrow").first();
      await badge.waitFor({ timeout: 20_000 });
      const bell = page.getByRole("button", { name: `Notifications, ${String(notices.body.unreadCount)} unread` });
      await bell.waitFor({ timeout: 10_000 });
      const again = [...sockets.values()].filter((s) => s.subscribedAt !== null && s.createdAt >= changedAt);
      console.info(
        `[faults] topology catch-up: the page's socket was on ${victim}, killed; claimed and paid meanwhile; reconnected to ${again.map((s) => s.servedBy).join(", ")} ${again.map((s) => (s.subscribedAt ?? 0) - changedAt).join(", ")} ms after; bell ${unreadBefore} → ${String(notices.body.unreadCount)} unread`,
      );
      expect(Number(notices.body.unreadCount)).toBeGreaterThan(0);
      expect(await page.getByText("Claimed", { exact: true }).first().isVisible()).toBe(true);
      // Caught up by a socket opened after the change, on another instance, in the same page load.
      expect(again.length).toBeGreaterThan(0);
      expect(again.every((s) => s.servedBy !== victim && s.servedBy !== "")).toBe(true);
      expect(loads).toBe(1);
    } finally {
      await browser.close();
      // Back for the next fault.
      const killed = victim ? instances.get(victim) : undefined;
      if (victim && killed?.exited()) await startInstance(victim, killed.dataDir);
      await waitForStates("every instance up again", allUp, 15_000);
    }
  });

  it("loses no request and no message in a rolling restart (SIGTERM each instance in turn)", async () => {
    const db = need(database, "the database").db;
    const lb = need(balancer, "HAProxy");
    const traffic = new Traffic();
    const pairs = await chatPairs(db, traffic, lb.url, 6);
    const talk = chatter(traffic, lb.url, pairs);
    const load = startWorkload({
      label: "topology rolling",
      url: () => lb.url,
      posters: await createActors(db, 4, "poster"),
      providers: await createActors(db, 3, "provider"),
      traffic,
      paymentsPerPoster: 2,
    });
    const restartMs: string[] = [];
    const sockets = new Map(NAMES.map((n) => [n, pairs.filter((p) => p.client.instance === n).map((p) => p.client)]));
    for (const name of NAMES) {
      const instance = need(instances.get(name) ?? null, name);
      const started = Date.now();
      await instance.stop();
      const stopped = Date.now();
      await startInstance(name, instance.dataDir);
      const booted = Date.now();
      await waitForStates(`${name} up again`, (s) => s.get(name) === "UP", 15_000);
      restartMs.push(`${stopped - started}+${booted - stopped}+${Date.now() - booted}`);
    }
    await load.rounds(1);
    await talk.stop();
    await load.stop();

    console.info(
      `[faults] topology rolling restart: ${NAMES.length} instances in turn, ${restartMs.join(", ")} ms (stop+boot+until UP; drain ${DRAIN_MS} ms); requests ${traffic.count(() => true)} (${traffic.summary()}); sockets per instance ${NAMES.map((n) => sockets.get(n)?.length ?? 0).join("/")}; 503s: ${traffic.unavailable.join(" | ")}; their causes in the instances' logs: ${unavailableCauses()}`,
    );
    // No request lost: every one was answered, none with a 5xx but the database's "try again"
    // 503 (a busy machine's pool wait; the load retries it, as clients do), and every
    // acknowledged write is there once.
    expect(traffic.noAnswer).toEqual([]);
    expect(traffic.serverErrors).toEqual([]);
    expect(traffic.unavailable.filter((u) => !u.includes(SERVICE_UNAVAILABLE))).toEqual([]);
    expect(load.unexpected).toEqual([]);
    expect([...(await rowCounts(db, "tasks", [...load.acked.tasks.keys()])).values()].every((n) => n === 1)).toBe(true);
    expect([...(await rowCounts(db, "messages", [...load.acked.messages.keys()])).values()].every((n) => n === 1)).toBe(true);
    // Each socket was told to reconnect (1012) when its instance stopped, and caught up.
    for (const { client } of pairs) expect(client.closes.every((code) => code === SERVICE_RESTART_CLOSE.code)).toBe(true);
    expect(pairs.every((p) => p.client.closes.length >= 1)).toBe(true);
    await expectEveryMessageOnce(pairs, talk.acked);
  });

  it("answers 503, never 500, while PgBouncer restarts, and recovers without restarting the instances", async () => {
    const db = need(database, "the database").db;
    const lb = need(balancer, "HAProxy");
    const pool = need(bouncer, "PgBouncer");
    const pids = NAMES.map((n) => instances.get(n)?.pid);
    const traffic = new Traffic();
    const posters = await createActors(db, 4, "poster");
    const load = startWorkload({
      label: "topology pgbouncer",
      url: () => lb.url,
      posters,
      providers: await createActors(db, 3, "provider"),
      traffic,
      paymentsPerPoster: 2,
    });
    await load.rounds(1);
    const before = traffic.count((s) => s === 503);
    await pool.stop("SIGTERM");
    const stoppedAt = Date.now();
    await waitFor("a 503 while PgBouncer is down", async () => traffic.count((s) => s === 503) > before, 10_000, 25);
    await pool.start();
    const recoveryMs = await waitForStates("every instance ready again", allUp, 20_000);
    const afterRecovery = await traffic.call(lb.url, null, "GET", "/api/tasks/open");
    await load.rounds(1);
    await load.stop();
    // A confirm cut off when PgBouncer went away is handed back by the sweep and paid on retry.
    const recovery = await recoverCutOffPayments(db, traffic, lb.url, posters);

    console.info(
      `[faults] topology pgbouncer restart: down ${Date.now() - stoppedAt - recoveryMs} ms; instances ready ${recoveryMs} ms after it was back; requests ${traffic.count(() => true)} (${traffic.summary()})`,
    );
    expect(afterRecovery.status).toBe(200);
    expect(recovery.failures).toEqual([]);
    expect(traffic.serverErrors).toEqual([]);
    expect(traffic.noAnswer).toEqual([]);
    expect(traffic.count((s) => s === 503)).toBeGreaterThan(before);
    expect(load.unexpected).toEqual([]);
    expect(NAMES.map((n) => instances.get(n)?.pid)).toEqual(pids);
    for (const name of NAMES) expect(instances.get(name)?.exited()).toBe(false);
  });

  it("backs up through PgBouncer while the instances take writes, and the archive restores whole", async () => {
    const db = need(database, "the database").db;
    const lb = need(balancer, "HAProxy");
    const traffic = new Traffic();
    const load = startWorkload({
      label: "topology backup",
      url: () => lb.url,
      posters: await createActors(db, 3, "poster"),
      providers: await createActors(db, 2, "provider"),
      traffic,
      paymentsPerPoster: 2,
    });
    await load.rounds(1);
    // As an operator runs it past one machine: DATABASE_URL is the pooler's, in transaction mode
    // (the dump is one repeatable-read transaction and its cursor lives inside it).
    const work = mkdtempSync(join(tmpdir(), "errandly-topology-backup-"));
    const archive = join(work, "backup.tar.gz");
    const storageEnv = (dir: string) => parseEnv({ NODE_ENV: "test", LOG_LEVEL: "silent", DATA_DIR: join(work, "data"), STORAGE_DIR: dir });
    const backupKey = await newBackupKey(new Date());
    const manifest = await writeBackup({
      databaseUrl: need(bouncer, "PgBouncer").url,
      storage: await createStorage(storageEnv(storageDir)),
      archive,
      recipient: backupKey.recipient,
      secrets: new SecretBox([INSTANCE_SECRETS_KEY], "the instances' SECRETS_KEY"),
    });
    await load.rounds(1);
    await load.stop();
    const target = await freshDatabase(need(postgres, "PostgreSQL").url);
    const opened = await openArchive(archive, async () => keyFromIdentityFile(backupKey.file) ?? "");
    try {
      const targetEnv = storageEnv(join(work, "objects"));
      const restored = await restoreBackup({ ...opened, databaseUrl: target.url, storage: await createStorage(targetEnv), env: targetEnv });
      console.info(`[faults] topology backup through PgBouncer: ${manifest.tables.tasks?.rows} tasks, ${manifest.ledger.entries} ledger entries, ${manifest.files.length} files; writes during it: ${traffic.summary()}`);
      // The fault suite's own transition log (installTransitionLog) is in the archive and stays there.
      expect(restored.notRestored).toEqual(["fault_task_transitions"]);
      const ours = Object.entries(manifest.tables).filter(([name]) => name !== "fault_task_transitions");
      expect(restored.rows).toEqual(Object.fromEntries(ours.map(([name, table]) => [name, table.rows])));
      expect(restored.ledger).toEqual(manifest.ledger);
      expect(manifest.ledger.totalCents).toBe(0);
      expect(manifest.tables.tasks?.rows).toBeGreaterThan(0);
      expect(manifest.missingFiles).toEqual([]);
      // The archive is one moment: the writes after it are in the live database only.
      const [live] = await queryRows<{ count: number }>(db, sql`select count(*)::int as count from tasks`);
      expect(live?.count).toBeGreaterThan(manifest.tables.tasks?.rows ?? 0);
    } finally {
      await opened.close();
      await target.destroy();
      rmSync(work, { recursive: true, force: true });
    }
    expect(traffic.serverErrors).toEqual([]);
    expect(load.unexpected).toEqual([]);
  });

  it("has exactly one winner per claim race across the instances, and every invariant holds after all of it", async () => {
    const db = need(database, "the database").db;
    const lb = need(balancer, "HAProxy");
    const traffic = new Traffic();
    const [poster] = await createActors(db, 1, "poster");
    const racers = await createActors(db, 6, "provider");
    const contested: string[] = [];
    for (let i = 0; i < 8; i += 1) {
      const task = await traffic.call(lb.url, need(poster ?? null, "a poster"), "POST", "/api/tasks", taskBody(`Topology race ${i}`));
      contested.push(String(task.body.id));
    }
    const answers = await Promise.all(contested.flatMap((id) => racers.map((p) => traffic.call(lb.url, p, "PATCH", `/api/tasks/${id}/claim`))));
    const claims = await transitionCounts(db, "open", "claimed", contested);
    const invariants = await checkInvariants(db);

    console.info(`[faults] topology claim race: ${answers.length} claims on ${contested.length} tasks (${traffic.summary()}); ${invariants.checked} invariants checked`);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(contested.length);
    expect(answers.filter((a) => a.status !== 200 && a.status !== 409)).toEqual([]);
    expect([...claims.values()]).toEqual(contested.map(() => 1));
    expect(invariants.violations).toEqual([]);
  });
});
