import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../src/server/db/client.js";
import { testPostgres, type PostgresDatabase } from "../postgres-cluster.js";
import { checkInvariants, installTransitionLog, ledgerCounts, noticeCounts, transitionCounts } from "./invariants.js";
import { Traffic, claimedTask, completedTask, createActors, idList, need, rowCounts, sleep, taskBody, unpaidTasks, waitFor } from "./load.js";
import { startServer, type ServerProcess } from "./server-process.js";
import { recoverCutOffPayments, startWorkload } from "./workload.js";

// SIGKILL in the middle of claims and payments, then a restart on the same database: no shutdown
// hook runs, transactions are cut wherever they were. Every ledger and task invariant must hold
// afterwards, and the timers that fell due while no process was running (a payment deadline, an
// approval window) must run once the server is back, exactly once.

const DOWN_MS = 2_000;

let postgres: PostgresDatabase | null = null;
let server: ServerProcess | null = null;
let database: Database | null = null;

beforeAll(async () => {
  postgres = await testPostgres();
  server = await startServer({ databaseUrl: postgres.url, env: { SWEEP_INTERVAL_MS: "500" } });
  database = await openDatabase({ databaseUrl: postgres.url, poolSize: 2 });
  await installTransitionLog(database.db);
});

afterAll(async () => {
  await server?.stop();
  server?.cleanup();
  await database?.close();
  await postgres?.destroy();
});


describe("a server process killed under load and restarted", () => {
  it("keeps every invariant, loses no acknowledged write and runs the timers that fell due exactly once", async () => {
    const pg = need(postgres, "PostgreSQL");
    const first = need(server, "the server");
    const db = need(database, "the database").db;
    // posters[0] sets the scene and stays out of the load, so its card attempts stay under the limit.
    const posters = await createActors(db, 9, "poster");
    const providers = await createActors(db, 4, "provider");
    // A provider holds at most three unpaid claims: the scene and the race get providers of their own.
    const sceneProviders = await createActors(db, 3, "provider");
    const racers = await createActors(db, 4, "provider");
    const traffic = new Traffic();
    const [poster, provider] = [posters[0], providers[0]];
    if (!poster || !provider) throw new Error("no actors");

    // Timers that will fall due while the process is dead: unpaid claims whose payment deadline
    // passes, and completed $120 tasks whose 24-hour approval window ends.
    const unpaid: string[] = [];
    for (let i = 0; i < 3; i += 1) unpaid.push((await claimedTask(traffic, first.url, poster, sceneProviders[i] ?? provider, `Kill: unpaid claim ${i}`)).id);
    const held: string[] = [];
    for (let i = 0; i < 2; i += 1) held.push((await completedTask(traffic, first.url, poster, provider, `Kill: held payment ${i}`, 120)).id);

    // Open tasks several providers will race for at the moment of the kill.
    const contested: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const task = await traffic.call(first.url, poster, "POST", "/api/tasks", taskBody(`Kill: contested ${i}`));
      contested.push(String(task.body.id));
    }

    const load = startWorkload({ label: "kill", url: () => first.url, posters: posters.slice(1), providers, traffic, paymentsPerPoster: 6 });
    await load.rounds(2);
    // Kill while a payment confirm and a claim are in flight, so the cut lands inside both paths.
    let raceAnswered = 0;
    const race = contested.flatMap((id) =>
      racers.map((p) =>
        traffic.call(first.url, p, "PATCH", `/api/tasks/${id}/claim`).then((answer) => {
          raceAnswered += 1;
          return answer;
        }),
      ),
    );
    const inFlightNow = () => [...traffic.inFlight.values()];
    // The first claim answer shows the server is working through the race; the rest is cut. A
    // confirm is in flight most of the time; without one by mid-race, the kill still cuts claims.
    await waitFor(
      "claims in flight",
      async () =>
        raceAnswered > 0 &&
        inFlightNow().some((r) => r.endsWith("/claim")) &&
        (inFlightNow().some((r) => r.includes("/payments/confirm")) || raceAnswered >= race.length / 2),
      10_000,
      1,
    );
    const inFlight = inFlightNow();
    traffic.serverDown = true;
    await first.kill();
    const killedAt = Date.now();

    await db.execute(sql`update tasks set payment_deadline = now() - interval '1 minute' where id = any(${idList(unpaid)}::uuid[])`);
    await db.execute(sql`update escrow_holds set release_at = now() - interval '1 minute' where task_id = any(${idList(held)}::uuid[])`);
    await sleep(DOWN_MS);

    const raceAnswers = await Promise.all(race);
    const second = await startServer({ databaseUrl: pg.url, port: first.port, dataDir: first.dataDir, env: { SWEEP_INTERVAL_MS: "500" } });
    server = second;
    traffic.serverDown = false;
    const restartMs = Date.now() - killedAt;
    const timersMs = await waitFor(
      "the timers that fell due to run",
      async () => {
        const expired = await transitionCounts(db, "claimed", "payment_expired", unpaid);
        const released = await ledgerCounts(db, "release", held);
        return [...expired.values(), ...released.values()].every((n) => n >= 1);
      },
      15_000,
    );

    await load.rounds(2);
    await load.stop();
    // More sweeps on a quiet system: a timer that fires twice would show now.
    await sleep(1_500);
    const recovery = await recoverCutOffPayments(db, traffic, second.url, posters);

    const { acked } = load;
    const expired = await transitionCounts(db, "claimed", "payment_expired", unpaid);
    const claimNotices = await noticeCounts(db, "task_claimed", unpaid);
    const releases = await ledgerCounts(db, "release", held);
    const releaseNotices = await noticeCounts(db, "payout_released", held);
    const moneyOnExpired = await ledgerCounts(db, "capture", unpaid);
    const contestedClaims = await transitionCounts(db, "open", "claimed", contested);
    const taskRows = await rowCounts(db, "tasks", [...acked.tasks.keys()]);
    const messageRows = await rowCounts(db, "messages", [...acked.messages.keys()]);
    const unpaidAcked = await unpaidTasks(db, [...acked.payments]);
    const invariants = await checkInvariants(db);

    console.info(
      [
        `[faults] process kill: SIGKILL with ${inFlight.length} requests in flight (${inFlight.filter((r) => r.includes("confirm")).length} payment confirms, ${inFlight.filter((r) => r.endsWith("/claim")).length} claims); restarted and serving ${restartMs} ms after the kill; due timers ran ${timersMs} ms after the restart`,
        `[faults]   requests ${traffic.count(() => true)} (${traffic.summary()}); ${traffic.noAnswerWhileDown} got no answer while no process was running`,
        `[faults]   acknowledged: ${acked.tasks.size} tasks, ${acked.claims.size} claims, ${acked.messages.size} messages, ${acked.payments.size} payments; ${recovery.cutOff} payments cut off mid-confirm, ${recovery.repaid} paid on retry after the sweep`,
        `[faults]   contested claims cut by the kill: ${raceAnswers.filter((a) => a.status === 200).length} answered 200, ${raceAnswers.filter((a) => a.status === 409).length} 409, ${raceAnswers.filter((a) => a.status === 0).length} no answer; ${[...contestedClaims.values()].reduce((a, b) => a + b, 0)} of ${contested.length} tasks claimed`,
        `[faults]   timers: ${unpaid.length} expired once each, ${held.length} approval windows released once each; ${invariants.checked} invariants checked`,
      ].join("\n"),
    );

    expect(second.exited(), second.output()).toBe(false);
    expect(traffic.noAnswer, "requests unanswered while a server was running").toEqual([]);
    expect(traffic.serverErrors, `5xx answers other than 503:\n${second.output().slice(-5000)}`).toEqual([]);
    expect(load.unexpected).toEqual([]);
    // A contested task was claimed at most once, and a 200 means it was.
    expect([...contestedClaims.values()].every((n) => n <= 1)).toBe(true);
    expect(raceAnswers.filter((a) => a.status === 200).length).toBeLessThanOrEqual([...contestedClaims.values()].reduce((a, b) => a + b, 0));
    expect(raceAnswers.filter((a) => a.status !== 0 && a.status !== 200 && a.status !== 409)).toEqual([]);
    expect(acked.payments.size).toBeGreaterThan(0);
    expect(acked.claims.size).toBeGreaterThan(0);
    expect(recovery.failures).toEqual([]);
    expect([...taskRows.values()].every((n) => n === 1)).toBe(true);
    expect([...messageRows.values()].every((n) => n === 1)).toBe(true);
    expect(unpaidAcked).toEqual([]);

    // The deadline timer: each claim expired once, told nobody twice, moved no money.
    expect([...expired.values()]).toEqual(unpaid.map(() => 1));
    expect([...claimNotices.values()]).toEqual(unpaid.map(() => 1));
    expect([...moneyOnExpired.values()]).toEqual(unpaid.map(() => 0));
    // The approval window: released once, one notice each.
    expect([...releases.values()]).toEqual(held.map(() => 1));
    expect([...releaseNotices.values()]).toEqual(held.map(() => 1));

    expect(invariants.violations).toEqual([]);
  });
});
