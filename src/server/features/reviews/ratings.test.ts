import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { call, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import { createPoster, createProvider, taskAt } from "../../../../test/fixtures/factory.js";
import { queryRows } from "../../db/client.js";
import { reviews } from "../../db/schema/reviews.js";
import { tasks } from "../../db/schema/tasks.js";
import { users } from "../../db/schema/users.js";
import { HttpError } from "../../http-errors.js";
import { parseTaskUpdate, TASK_UPDATES_CHANNEL, type TaskUpdate } from "../../task-updates.js";
import { createReview, revealDueReviews } from "./repository.js";

// Ratings kept on the user row (docs/decisions/037-ratings-on-the-user-row.md): a review is revealed
// when revealed_at is set (by the second review of a pair, or by the reveal job after the blind
// window), and the trigger on reviews keeps users.rating_count and rating_sum equal to the count and
// sum of the person's revealed reviews, whatever writes or deletes them.

const t = await useTestApp();
const DAY = 86_400_000;

const review = (user: TestUser, body: { taskId: string; reviewedId: string; rating: number }) =>
  call(t, user, { method: "POST", url: "/api/reviews", payload: body });

async function totals(userId: string): Promise<{ count: number; sum: number }> {
  const [row] = await t.database.db.select({ count: users.ratingCount, sum: users.ratingSum }).from(users).where(eq(users.id, userId));
  if (!row) throw new Error(`user ${userId} missing`);
  return row;
}

/** Every user whose kept totals differ from the count and sum of their revealed reviews. */
const drifted = () =>
  queryRows<{ id: string }>(
    t.database.db,
    sql`select u.id from users u
        left join (select reviewed_id, count(*)::int as count, sum(rating)::int as sum from reviews
                   where revealed_at is not null group by reviewed_id) a on a.reviewed_id = u.id
        where u.rating_count <> coalesce(a.count, 0) or u.rating_sum <> coalesce(a.sum, 0)`,
  );

/** Until `n` sessions of this test's database wait for a row lock (the work being raced has got there). */
async function waitForLockWaiters(n: number): Promise<void> {
  for (let tries = 0; tries < 500; tries++) {
    const [row] = await queryRows<{ waiting: number }>(
      t.database.db,
      sql`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    );
    if (Number(row?.waiting) >= n) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`fewer than ${n} sessions ever waited for a lock`);
}

/**
 * A completed task written by hand, with no money. A task paid through the app keeps its escrow
 * record, so it can never be deleted (the money records stay); the cascade from a deleted task to
 * its reviews is exercised on tasks like this one.
 */
async function unpaidCompletedTask(poster: TestUser, provider: TestUser): Promise<string> {
  const [task] = await t.database.db
    .insert(tasks)
    .values({
      userId: poster.id,
      providerId: provider.id,
      title: "Water the plants",
      description: "Twice a week",
      category: "errands",
      budgetCents: 2500,
      urgentFeeCents: 0,
      serviceFeeCents: 250,
      totalCents: 2750,
      providerShareCents: 2125,
      platformCommissionCents: 375,
      status: "completed",
      completedAt: t.clock.now(),
    })
    .returning({ id: tasks.id });
  if (!task) throw new Error("task not stored");
  return task.id;
}

/** task_updates notices heard while `during` runs (each is delivered on its commit). */
async function noticesDuring(during: () => Promise<unknown>): Promise<TaskUpdate[]> {
  const heard: TaskUpdate[] = [];
  const markers = new Map<string, () => void>();
  const stop = await t.database.listen(TASK_UPDATES_CHANNEL, (payload) => {
    markers.get(payload)?.();
    const update = parseTaskUpdate(payload);
    if (update) heard.push(update);
  });
  // A payload that is not a notice (every listener ignores it), sent and heard: every notice
  // committed before it has been heard too.
  const flush = async () => {
    const marker = `marker-${Math.random()}`;
    const arrived = new Promise<void>((resolve) => markers.set(marker, resolve));
    await t.database.notify(TASK_UPDATES_CHANNEL, marker);
    await arrived;
  };
  try {
    // The app's own connection already listens on the channel: earlier changes' notices may still be on their way.
    await flush();
    heard.length = 0;
    await during();
    await flush();
  } finally {
    await stop();
  }
  return heard;
}

describe("ratings on the user row", () => {
  it("counts a review once it is revealed, and takes it back when its task is deleted", async () => {
    const poster = await createPoster(t);
    const provider = await createProvider(t);
    const { task } = await taskAt(t, "completed", { poster, provider });
    expect((await review(poster, { taskId: task.id, reviewedId: provider.id, rating: 4 })).statusCode).toBe(201);
    // Blind: written, not counted.
    expect(await totals(provider.id)).toEqual({ count: 0, sum: 0 });
    expect((await review(provider, { taskId: task.id, reviewedId: poster.id, rating: 2 })).statusCode).toBe(201);
    expect(await totals(provider.id)).toEqual({ count: 1, sum: 4 });
    expect(await totals(poster.id)).toEqual({ count: 1, sum: 2 });
    const stored = await t.database.db.select({ revealedAt: reviews.revealedAt }).from(reviews).where(eq(reviews.taskId, task.id));
    expect(stored.map((r) => r.revealedAt?.toISOString())).toEqual([t.clock.now().toISOString(), t.clock.now().toISOString()]);

    // Deleting a task deletes its reviews (cascade); the trigger takes their ratings back.
    const unpaid = await unpaidCompletedTask(poster, provider);
    expect((await review(poster, { taskId: unpaid, reviewedId: provider.id, rating: 1 })).statusCode).toBe(201);
    expect((await review(provider, { taskId: unpaid, reviewedId: poster.id, rating: 3 })).statusCode).toBe(201);
    expect([await totals(provider.id), await totals(poster.id)]).toEqual([
      { count: 2, sum: 5 },
      { count: 2, sum: 5 },
    ]);
    await t.database.db.delete(tasks).where(eq(tasks.id, unpaid));
    expect([await totals(provider.id), await totals(poster.id)]).toEqual([
      { count: 1, sum: 4 },
      { count: 1, sum: 2 },
    ]);

    // A second task between the same two, reviewed by one side only: counted after the window.
    const { task: second } = await taskAt(t, "completed", { poster, provider });
    expect((await review(poster, { taskId: second.id, reviewedId: provider.id, rating: 5 })).statusCode).toBe(201);
    t.clock.advance(14 * DAY);
    await t.app.ctx.scheduler.runAll();
    expect(await totals(provider.id)).toEqual({ count: 2, sum: 9 });
    expect(await drifted()).toEqual([]);
  });

  it("keeps the other person's rating when an account is deleted", async () => {
    const poster = await createPoster(t);
    const provider = await createProvider(t);
    const { task } = await taskAt(t, "completed", { poster, provider });
    expect((await review(poster, { taskId: task.id, reviewedId: provider.id, rating: 3 })).statusCode).toBe(201);
    expect((await review(provider, { taskId: task.id, reviewedId: poster.id, rating: 5 })).statusCode).toBe(201);
    // A blind one of the deleted person too: it is revealed and counted like any other.
    const { task: blind } = await taskAt(t, "completed", { poster, provider });
    expect((await review(poster, { taskId: blind.id, reviewedId: provider.id, rating: 1 })).statusCode).toBe(201);

    // Single sign-on style account: typing the e-mail confirms (docs/product.md#your-account).
    const removed = await call(t, poster, { method: "DELETE", url: "/api/account", payload: { email: poster.email } });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await totals(provider.id)).toEqual({ count: 1, sum: 3 });
    expect(await totals(poster.id)).toEqual({ count: 1, sum: 5 });
    t.clock.advance(14 * DAY);
    await t.app.ctx.scheduler.runAll();
    expect(await totals(provider.id)).toEqual({ count: 2, sum: 4 });
    const listed = await call(t, null, { url: `/api/reviews/user/${provider.id}` });
    expect(listed.json()).toMatchObject({ count: 2, average: 2 });
    expect(await drifted()).toEqual([]);
  });

  it("reveals both reviews when the two sides submit at the same moment", async () => {
    for (let i = 0; i < 5; i++) {
      const poster = await createPoster(t);
      const provider = await createProvider(t);
      const { task } = await taskAt(t, "completed", { poster, provider });
      const answers = await Promise.all([
        review(poster, { taskId: task.id, reviewedId: provider.id, rating: 5 }),
        review(provider, { taskId: task.id, reviewedId: poster.id, rating: 3 }),
      ]);
      expect(answers.map((a) => a.statusCode)).toEqual([201, 201]);
      const stored = await t.database.db.select({ revealedAt: reviews.revealedAt }).from(reviews).where(eq(reviews.taskId, task.id));
      expect(stored.every((r) => r.revealedAt !== null), `pair ${i}`).toBe(true);
      expect([await totals(provider.id), await totals(poster.id)]).toEqual([
        { count: 1, sum: 5 },
        { count: 1, sum: 3 },
      ]);
    }
  });

  it("the reveal job run by two instances at once reveals each review once, and announces each task once", async () => {
    const provider = await createProvider(t);
    const posters = await Promise.all([createPoster(t), createPoster(t), createPoster(t)]);
    const done: string[] = [];
    for (const poster of posters) {
      const { task } = await taskAt(t, "completed", { poster, provider });
      expect((await review(poster, { taskId: task.id, reviewedId: provider.id, rating: 4 })).statusCode).toBe(201);
      done.push(task.id);
    }
    t.clock.advance(14 * DAY);
    let counts: number[] = [];
    const heard = await noticesDuring(async () => {
      // Two "instances": two transactions on two connections of the pool. The provider's row is
      // held until both have picked the same reviews and wait for it, so they truly overlap.
      let runs: Promise<number[]> = Promise.resolve([]);
      await t.database.db.transaction(async (blocker) => {
        await blocker.execute(sql`select id from users where id = ${provider.id}::uuid for no key update`);
        runs = Promise.all([revealDueReviews(t.app.ctx, t.clock.now()), revealDueReviews(t.app.ctx, t.clock.now())]);
        await waitForLockWaiters(2);
      });
      counts = await runs;
    });
    expect(counts.reduce((a, b) => a + b, 0)).toBe(3);
    expect(await totals(provider.id)).toEqual({ count: 3, sum: 12 });
    const reviewNotices = heard.filter((n) => n.event === "review" && done.includes(n.taskId));
    expect(reviewNotices.map((n) => n.taskId).sort()).toEqual([...done].sort());
    // Nothing left: a third run reveals nothing.
    expect(await revealDueReviews(t.app.ctx, t.clock.now())).toBe(0);
  });

  it("pushes the 14-day reveal live to both sides, as a submitted review is", async () => {
    const poster = await createPoster(t);
    const provider = await createProvider(t);
    const { task } = await taskAt(t, "completed", { poster, provider });
    expect((await review(provider, { taskId: task.id, reviewedId: poster.id, rating: 4 })).statusCode).toBe(201);
    t.clock.advance(14 * DAY - 1000);
    const ofReview = (notices: TaskUpdate[]) => notices.filter((n) => n.taskId === task.id && n.event === "review");
    expect(ofReview(await noticesDuring(() => t.app.ctx.scheduler.runAll()))).toEqual([]);
    t.clock.advance(1000);
    const heard = ofReview(await noticesDuring(() => t.app.ctx.scheduler.runAll()));
    expect(heard).toEqual([expect.objectContaining({ event: "review", status: "completed", board: null })]);
    expect(heard[0]?.userIds).toEqual(expect.arrayContaining([poster.id, provider.id]));
  });

  it("finds a pair a second review left unrevealed (written before revealed_at existed)", async () => {
    const poster = await createPoster(t);
    const provider = await createProvider(t);
    const { task } = await taskAt(t, "completed", { poster, provider });
    await t.database.db.insert(reviews).values([
      { taskId: task.id, reviewerId: poster.id, reviewedId: provider.id, rating: 2 },
      { taskId: task.id, reviewerId: provider.id, reviewedId: poster.id, rating: 4 },
    ]);
    expect(await totals(provider.id)).toEqual({ count: 0, sum: 0 });
    expect(await revealDueReviews(t.app.ctx, t.clock.now())).toBe(2);
    expect([await totals(provider.id), await totals(poster.id)]).toEqual([
      { count: 1, sum: 2 },
      { count: 1, sum: 4 },
    ]);
  });
});

// Model-based: any sequence of review submissions, clock moves with the reveal job (run by two
// "instances" at once) and task deletions leaves every user's kept totals equal to the aggregate
// of their revealed reviews, and the revealed reviews exactly those the rule reveals.

type Side = "poster" | "provider";

interface ModelReview {
  rating: number;
  revealed: boolean;
}

interface ModelTask {
  id: string;
  completedAtMs: number;
  deleted: boolean;
  poster: TestUser;
  provider: TestUser;
  reviews: Partial<Record<Side, ModelReview>>;
}

interface Model {
  tasks: ModelTask[];
}

type Cmd = fc.AsyncCommand<Model, Model>;

const otherSide = (side: Side): Side => (side === "poster" ? "provider" : "poster");

async function checkAgainstModel(m: Model): Promise<void> {
  expect(await drifted()).toEqual([]);
  const ids = m.tasks.map((task) => task.id);
  const rows = await queryRows<{ task_id: string; reviewer_id: string; revealed: boolean }>(
    t.database.db,
    sql`select task_id, reviewer_id, revealed_at is not null as revealed from reviews where task_id = any(${sql.param(ids)}::uuid[])`,
  );
  const expected = m.tasks.flatMap((task) =>
    task.deleted
      ? []
      : (["poster", "provider"] as const).flatMap((side) => {
          const r = task.reviews[side];
          return r ? [`${task.id}/${task[side].id}/${r.revealed}`] : [];
        }),
  );
  expect(rows.map((r) => `${r.task_id}/${r.reviewer_id}/${r.revealed}`).sort()).toEqual(expected.sort());
}

const submit = (index: number, side: Side, rating: number): Cmd => ({
  check: () => true,
  async run(m) {
    const task = m.tasks[index % m.tasks.length];
    if (!task) throw new Error("no task");
    const reviewer = task[side];
    const reviewed = task[otherSide(side)];
    try {
      await createReview(t.app.ctx, { taskId: task.id, reviewerId: reviewer.id, reviewedId: reviewed.id, rating, comment: null, now: t.clock.now() });
      expect(task.deleted || task.reviews[side] !== undefined, "accepted only a first review of a live task").toBe(false);
      task.reviews[side] = { rating, revealed: false };
      const other = task.reviews[otherSide(side)];
      if (other) {
        other.revealed = true;
        task.reviews[side] = { rating, revealed: true };
      }
    } catch (error) {
      // Refused with the usual answers: the task is gone (404) or this side has reviewed (409).
      expect(error).toBeInstanceOf(HttpError);
      expect(task.deleted || task.reviews[side] !== undefined).toBe(true);
    }
    await checkAgainstModel(m);
  },
  toString: () => `submit(${index}, ${side}, ${rating})`,
});

const advance = (days: number): Cmd => ({
  check: () => true,
  async run(m) {
    t.clock.advance(days * DAY);
    await Promise.all([revealDueReviews(t.app.ctx, t.clock.now()), revealDueReviews(t.app.ctx, t.clock.now())]);
    const now = t.clock.now().getTime();
    for (const task of m.tasks) {
      if (task.completedAtMs + 14 * DAY > now) continue;
      for (const r of Object.values(task.reviews)) r.revealed = true;
    }
    await checkAgainstModel(m);
  },
  toString: () => `advance(${days} days)`,
});

const deleteTask = (index: number): Cmd => ({
  check: (m) => m.tasks.some((task) => !task.deleted),
  async run(m) {
    const live = m.tasks.filter((task) => !task.deleted);
    const task = live[index % live.length];
    if (!task) throw new Error("no live task");
    await t.database.db.delete(tasks).where(eq(tasks.id, task.id));
    task.deleted = true;
    await checkAgainstModel(m);
  },
  toString: () => `deleteTask(${index})`,
});

it("keeps users.rating_count and rating_sum equal to the aggregate of revealed reviews after any sequence", async () => {
  const commands = [
    fc.tuple(fc.nat(7), fc.constantFrom<Side>("poster", "provider"), fc.integer({ min: 1, max: 5 })).map(([i, side, rating]) => submit(i, side, rating)),
    fc.constantFrom(1, 6, 13, 15).map((days) => advance(days)),
    fc.nat(7).map((i) => deleteTask(i)),
  ];
  await fc.assert(
    fc.asyncProperty(fc.commands(commands, { maxCommands: 16 }), async (cmds) => {
      // Three people, each poster of one task and provider of another, so ratings add up across
      // tasks; tasks without money, so they can be deleted.
      const people = await Promise.all([createProvider(t), createProvider(t), createProvider(t)]);
      const model: Model = { tasks: [] };
      for (let i = 0; i < 5; i++) {
        const poster = people[i % 3] as TestUser;
        const provider = people[(i + 1) % 3] as TestUser;
        const id = await unpaidCompletedTask(poster, provider);
        model.tasks.push({ id, completedAtMs: t.clock.now().getTime(), deleted: false, poster, provider, reviews: {} });
      }
      await fc.asyncModelRun(() => ({ model, real: model }), cmds);
    }),
    { numRuns: 40 },
  );
});
