import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, queryRows, type Database } from "../../src/server/db/client.js";
import { testPostgres, type PostgresDatabase } from "../postgres-cluster.js";
import { checkInvariants, installTransitionLog, ledgerCounts, noticeCounts, transitionCounts } from "./invariants.js";
import { Traffic, claimedTask, completedTask, createActors, idList, joinRoom, sleep, taskBody, waitFor, type Actor } from "./load.js";
import { startServer, type ServerProcess } from "./server-process.js";
import { startWorkload } from "./workload.js";

// Two server processes on one PostgreSQL under a mixed load. Claims made through both at once stay
// exclusive; timers both run (each sweeps every 200 ms) fire once; a chat message posted on one
// reaches a socket held by the other, in both directions.

const SWEEP = { SWEEP_INTERVAL_MS: "200" };

let postgres: PostgresDatabase | null = null;
const servers: ServerProcess[] = [];
let database: Database | null = null;

beforeAll(async () => {
  postgres = await testPostgres();
  // One after the other: the first one migrates the empty database.
  servers.push(await startServer({ databaseUrl: postgres.url, env: SWEEP }));
  servers.push(await startServer({ databaseUrl: postgres.url, env: SWEEP }));
  database = await openDatabase({ databaseUrl: postgres.url, poolSize: 2 });
  await installTransitionLog(database.db);
});

afterAll(async () => {
  for (const s of servers) {
    await s.stop();
    s.cleanup();
  }
  await database?.close();
  await postgres?.destroy();
});

const sum = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);
const allOnes = (counts: Map<string, number>) => [...counts.values()].every((n) => n === 1);

describe("two server instances on one PostgreSQL", () => {
  it("keep claims exclusive, fire each timer once and carry chat across instances under a mixed load", async () => {
    const [a, b] = servers;
    if (!a || !b || !database) throw new Error("not set up");
    const db = database.db;
    const on = (n: number) => (n % 2 === 0 ? a : b).url;
    const posters = await createActors(db, 6, "poster");
    const providers = await createActors(db, 6, "provider");
    // A provider holds at most three unpaid claims: the race has providers of its own (6 x 3 places for 12 tasks).
    const racers = await createActors(db, 6, "provider");
    const traffic = new Traffic();
    const [poster, provider] = [posters[0], providers[0]] as [Actor, Actor];

    const contested: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      const task = await traffic.call(on(i), posters[i % posters.length] ?? poster, "POST", "/api/tasks", taskBody(`Two: contested ${i}`));
      expect(task.status).toBe(201);
      contested.push(String(task.body.id));
    }
    const held: string[] = [];
    for (let i = 0; i < 3; i += 1) held.push((await completedTask(traffic, on(i), poster, provider, `Two: held payment ${i}`, 120)).id);
    const chatty: string[] = [];
    for (let i = 0; i < 3; i += 1) chatty.push((await claimedTask(traffic, on(i), poster, providers[i + 1] ?? provider, `Two: unread chat ${i}`)).id);
    const chatTask = (await claimedTask(traffic, a.url, poster, provider, "Two: cross-instance chat")).id;

    const load = startWorkload({ label: "two", url: on, posters: posters.slice(1), providers, traffic, paymentsPerPoster: 4 });
    await load.rounds(1);

    // Every provider claims every contested task at once, odd ones through A, even ones through B.
    const race = await Promise.all(
      contested.map(async (taskId) => {
        const answers = await Promise.all(
          racers.map(async (p, k) => ({ providerId: p.id, status: (await traffic.call(on(k + 1), p, "PATCH", `/api/tasks/${taskId}/claim`)).status })),
        );
        return { taskId, answers };
      }),
    );
    const owners = await queryRows<{ id: string; provider_id: string | null }>(
      db,
      sql`select id::text, provider_id::text from tasks where id = any(${idList(contested)}::uuid[])`,
    );
    const wrongWinners = race.filter(({ taskId, answers }) => {
      const winners = answers.filter((x) => x.status === 200);
      const losers = answers.filter((x) => x.status === 409);
      const owner = owners.find((o) => o.id === taskId)?.provider_id;
      return winners.length !== 1 || losers.length !== answers.length - 1 || winners[0]?.providerId !== owner;
    });
    const claimsLogged = await transitionCounts(db, "open", "claimed", contested);

    // Chat through both instances, in both directions.
    const providerOnB = await joinRoom(b.url, provider, chatTask);
    const posterOnA = await joinRoom(a.url, poster, chatTask);
    expect((await traffic.call(a.url, poster, "POST", "/api/messages", { taskId: chatTask, content: "posted on A" })).status).toBe(201);
    expect((await traffic.call(b.url, provider, "POST", "/api/messages", { taskId: chatTask, content: "posted on B" })).status).toBe(201);
    const chatMs = await waitFor(
      "messages to cross instances",
      async () => providerOnB.received.includes("posted on A") && posterOnA.received.includes("posted on B"),
      10_000,
      20,
    );
    providerOnB.close();
    posterOnA.close();

    // Timers both instances race for: the contested claims' payment deadlines pass, the approval
    // windows end, and messages nobody read go unseen past the notice delay.
    for (const [i, taskId] of chatty.entries()) {
      expect((await traffic.call(on(i), poster, "POST", "/api/messages", { taskId, content: `unread ${i}` })).status).toBe(201);
    }
    await db.execute(sql`update messages set created_at = now() - interval '3 minutes' where task_id = any(${idList(chatty)}::uuid[])`);
    await db.execute(sql`update tasks set payment_deadline = now() - interval '1 minute' where id = any(${idList(contested)}::uuid[])`);
    await db.execute(sql`update escrow_holds set release_at = now() - interval '1 minute' where task_id = any(${idList(held)}::uuid[])`);
    const timersMs = await waitFor(
      "the due timers to run",
      async () => {
        const expired = await transitionCounts(db, "claimed", "payment_expired", contested);
        const released = await ledgerCounts(db, "release", held);
        const unseen = await noticeCounts(db, "chat_message", chatty);
        return [...expired.values(), ...released.values(), ...unseen.values()].every((n) => n >= 1);
      },
      15_000,
    );
    // Ten more sweeps of each instance: a timer that fires twice would show now.
    await sleep(2_000);
    await load.stop();

    const expired = await transitionCounts(db, "claimed", "payment_expired", contested);
    const releases = await ledgerCounts(db, "release", held);
    const releaseNotices = await noticeCounts(db, "payout_released", held);
    const unseenNotices = await noticeCounts(db, "chat_message", chatty);
    const claimNotices = await noticeCounts(db, "task_claimed", contested);
    const invariants = await checkInvariants(db);
    const { acked } = load;

    console.info(
      [
        `[faults] two instances: ${contested.length} tasks x ${racers.length} providers claimed at once through both instances: ${race.flatMap((r) => r.answers).filter((x) => x.status === 200).length} answered 200, ${race.flatMap((r) => r.answers).filter((x) => x.status === 409).length} answered 409, ${sum(claimsLogged)} claims committed`,
        `[faults]   timers due on both instances (200 ms sweeps) ran within ${timersMs} ms: ${sum(expired)} expiries for ${contested.length} deadlines, ${sum(releases)} releases for ${held.length} windows, ${sum(unseenNotices)} unread-chat notices for ${chatty.length} tasks`,
        `[faults]   chat crossed A->B and B->A in ${chatMs} ms; mixed load ${traffic.count(() => true)} requests (${traffic.summary()}), acknowledged ${acked.tasks.size} tasks, ${acked.claims.size} claims, ${acked.messages.size} messages, ${acked.payments.size} payments; ${invariants.checked} invariants checked`,
      ].join("\n"),
    );

    expect(a.exited() || b.exited()).toBe(false);
    expect(traffic.noAnswer).toEqual([]);
    expect(traffic.serverErrors).toEqual([]);
    expect(load.unexpected).toEqual([]);
    expect(acked.payments.size).toBeGreaterThan(0);
    expect(wrongWinners).toEqual([]);
    expect(allOnes(claimsLogged)).toBe(true);
    expect(allOnes(claimNotices)).toBe(true);
    expect(allOnes(expired)).toBe(true);
    expect(allOnes(releases)).toBe(true);
    expect(allOnes(releaseNotices)).toBe(true);
    expect(allOnes(unseenNotices)).toBe(true);
    expect(invariants.violations).toEqual([]);
  });

  // Runs last: it corrupts the database on purpose, to show the checks above are not vacuous.
  it("has invariant checks that catch an unbalanced ledger and a half-changed task", async () => {
    if (!database) throw new Error("not set up");
    const db = database.db;
    const [task] = await queryRows<{ id: string }>(
      db,
      sql`insert into tasks (user_id, title, description, category, budget_cents, urgent_fee_cents, service_fee_cents, total_cents, provider_share_cents, platform_commission_cents)
        select id, 'Forged', 'Forged', 'errands', 2500, 0, 250, 2750, 2125, 375 from users limit 1 returning id::text`,
    );
    if (!task) throw new Error("task not inserted");
    const [transaction] = await queryRows<{ id: string }>(
      db,
      sql`insert into ledger_transactions (kind, idempotency_key, task_id) values ('capture', 'forged', ${task.id}) returning id::text`,
    );
    await db.execute(sql`insert into ledger_entries (transaction_id, account, amount_cents) values (${transaction?.id}, ${`escrow:task:${task.id}`}, 100)`);
    await db.execute(sql`update tasks set status = 'claimed', claimed_at = now() where id = ${task.id}`);
    const names = (await checkInvariants(db)).violations.map((v) => v.slice(0, v.indexOf(":")));
    expect(names).toEqual([
      "every ledger transaction sums to zero",
      "every ledger transaction has at least two entries",
      "all accounts together sum to zero",
      "escrow holds a paid, unsettled task's total and nothing otherwise",
      "a claimed task has its provider, claim time and payment deadline",
      "the poster got one 'task claimed' notice per claim",
    ]);
  });
});
