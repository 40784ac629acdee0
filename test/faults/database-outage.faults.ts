import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../src/server/db/client.js";
import { startPostgresCluster, type PostgresCluster } from "../postgres-cluster.js";
import { checkInvariants, installTransitionLog } from "./invariants.js";
import { Traffic, createActors, joinRoom, need, rowCounts, sleep, taskBody, unpaidTasks, waitFor, type Actor } from "./load.js";
import { startServer, type ServerProcess } from "./server-process.js";
import { recoverCutOffPayments, startWorkload } from "./workload.js";

// PostgreSQL goes away for 10 seconds under load and comes back on the same port. The server must
// answer 503 (never 500, never a refused connection) meanwhile, serve again by itself without a
// restart, keep pushing chat through a LISTEN connection it had to reopen, and every write it
// acknowledged must be in the database once.

const OUTAGE_MS = 10_000;
const RECOVERY_BOUND_MS = 15_000;

let cluster: PostgresCluster | null = null;
let server: ServerProcess | null = null;
let database: Database | null = null;

beforeAll(async () => {
  cluster = await startPostgresCluster();
  server = await startServer({ databaseUrl: cluster.url, env: { SWEEP_INTERVAL_MS: "500" } });
  database = await openDatabase({ databaseUrl: cluster.url, poolSize: 2 });
  await installTransitionLog(database.db);
});

afterAll(async () => {
  await server?.stop();
  server?.cleanup();
  await database?.close();
  await cluster?.destroy();
});

describe("a 10-second PostgreSQL outage under load", () => {
  it("answers 503 meanwhile, recovers by itself and loses no acknowledged task, message or payment", async () => {
    const pg = need(cluster, "PostgreSQL");
    const app = need(server, "the server");
    const db = need(database, "the database").db;
    const posters = await createActors(db, 6, "poster");
    const providers = await createActors(db, 3, "provider");
    const traffic = new Traffic();

    // A provider's chat socket, open across the outage: the hub must notice its LISTEN connection came back.
    // A pair of its own, outside the load, so the load's messages do not spend its chat rate limit.
    const [poster, provider] = [(await createActors(db, 1, "poster"))[0], (await createActors(db, 1, "provider"))[0]] as [Actor, Actor];
    const chatTask = await traffic.call(app.url, poster, "POST", "/api/tasks", taskBody("Outage chat errand"));
    const chatTaskId = String(chatTask.body.id);
    expect((await traffic.call(app.url, provider, "PATCH", `/api/tasks/${chatTaskId}/claim`)).status).toBe(200);
    const socket = await joinRoom(app.url, provider, chatTaskId);

    const health = { ok: 0, unavailable: 0, other: [] as number[] };
    let probing = true;
    const prober = (async () => {
      while (probing) {
        const res = await traffic.call(app.url, null, "GET", "/api/health/ready");
        if (res.status === 200) health.ok += 1;
        else if (res.status === 503) health.unavailable += 1;
        else health.other.push(res.status);
        await sleep(250);
      }
    })();

    const load = startWorkload({ label: "outage", url: () => app.url, posters, providers, traffic, paymentsPerPoster: 6 });
    await load.rounds(2);
    const before = { requests: traffic.count(() => true), unavailable: traffic.count((s) => s === 503) };

    await pg.stop("immediate");
    const stoppedAt = Date.now();
    await sleep(OUTAGE_MS);
    const down = { requests: traffic.count(() => true) - before.requests, unavailable: traffic.count((s) => s === 503) - before.unavailable };
    await pg.start();
    const restartedAt = Date.now();
    let lastHealth = "";
    const recoveryMs = await waitFor(
      "the server to answer 200 again",
      async () => {
        const res = await traffic.call(app.url, null, "GET", "/api/health/ready");
        lastHealth = `${res.status} ${res.error ?? JSON.stringify(res.body)}`;
        return res.status === 200;
      },
      RECOVERY_BOUND_MS,
      100,
    ).catch((err: unknown) => {
      throw new Error(`${String(err)}; last health answer ${lastHealth}; server exited: ${app.exited()}\n${app.output().slice(-4000)}`);
    });
    const outageMs = Date.now() - stoppedAt;
    // Posted the moment the server answers again: its push needs the LISTEN connection back too.
    const early = await traffic.call(app.url, poster, "POST", "/api/messages", { taskId: chatTaskId, content: "right after the outage" });

    // Load on a healthy database again: every worker finishes what it retried through the outage.
    await load.rounds(2);
    await load.stop();
    probing = false;
    await prober;

    // The hub lost its LISTEN connection, so it asks its sockets to reconnect (1012); the client
    // then refetches, as the web app does after every reconnect, and pushes flow again.
    await waitFor("the server to ask the chat socket to reconnect", async () => socket.closed()?.code === 1012, 10_000, 50);
    const resyncMs = (socket.closed()?.at ?? 0) - restartedAt;
    expect(early.status).toBe(201);
    const rejoined = await joinRoom(app.url, provider, chatTaskId);
    const history = await traffic.call(app.url, provider, "GET", `/api/messages/${chatTaskId}`);
    const contents = Array.isArray(history.body) ? history.body.map((m: { content?: unknown }) => m.content) : [];
    expect(contents).toContain("right after the outage");
    const sent = await traffic.call(app.url, poster, "POST", "/api/messages", { taskId: chatTaskId, content: "after the outage" });
    expect(sent.status).toBe(201);
    const pushMs = await waitFor("the chat push after the outage", async () => rejoined.received.includes("after the outage"), 10_000, 50);
    rejoined.close();

    const { acked } = load;
    const recovery = await recoverCutOffPayments(db, traffic, app.url, posters);
    const taskRows = await rowCounts(db, "tasks", [...acked.tasks.keys()]);
    const messageRows = await rowCounts(db, "messages", [...acked.messages.keys()]);
    const lostTasks = [...taskRows].filter(([, n]) => n !== 1).map(([id]) => id);
    const lostMessages = [...messageRows].filter(([, n]) => n !== 1).map(([id]) => id);
    const unpaid = await unpaidTasks(db, [...acked.payments]);
    const invariants = await checkInvariants(db);

    console.info(
      [
        `[faults] database outage: PostgreSQL down ${outageMs} ms (stop -m immediate), server back to 200 ${recoveryMs} ms after PostgreSQL restarted (bound ${RECOVERY_BOUND_MS} ms); chat sockets asked to reconnect (1012) ${resyncMs} ms after the restart, chat pushed again in ${pushMs} ms`,
        `[faults]   requests ${traffic.count(() => true)} (${traffic.summary()}); during the outage ${down.requests} requests, ${down.unavailable} answered 503; health probes 200:${health.ok} 503:${health.unavailable}`,
        `[faults]   acknowledged: ${acked.tasks.size} tasks, ${acked.claims.size} claims, ${acked.messages.size} messages, ${acked.payments.size} payments; ${recovery.cutOff} payments cut off mid-confirm, ${recovery.repaid} paid on retry after the sweep; all found once; ${invariants.checked} invariants checked`,
      ].join("\n"),
    );

    expect(app.exited(), app.output()).toBe(false);
    expect(traffic.noAnswer, "requests the server did not answer").toEqual([]);
    expect(traffic.serverErrors, "5xx answers other than 503").toEqual([]);
    expect(load.unexpected).toEqual([]);
    expect(health.other).toEqual([]);
    expect(down.unavailable).toBeGreaterThan(0);
    expect(health.unavailable).toBeGreaterThan(0);
    expect(acked.tasks.size).toBeGreaterThan(0);
    expect(acked.messages.size).toBeGreaterThan(0);
    expect(acked.payments.size).toBeGreaterThan(0);
    expect(recovery.failures).toEqual([]);
    expect(lostTasks).toEqual([]);
    expect(lostMessages).toEqual([]);
    expect(unpaid).toEqual([]);
    expect(invariants.violations).toEqual([]);
  });
});
