import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { reviews } from "../../db/schema/reviews.js";
import { call, createUser, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import { taskAt } from "../../../../test/fixtures/factory.js";

const t = await useTestApp();
const DAY = 86_400_000;

const assembleDesk = { budgetCents: 6000, body: { title: "Assemble a desk", description: "IKEA desk", category: "other" } } as const;

async function pair() {
  const poster = await createUser(t, { firstName: "Pat", lastName: "Poster" });
  const provider = await createUser(t, { verifiedProvider: true, firstName: "Val", lastName: "Provider" });
  return taskAt(t, "completed", { ...assembleDesk, poster, provider });
}

const review = (user: TestUser | null, body: Record<string, unknown>) => call(t, user, { method: "POST", url: "/api/reviews", payload: body });
const taskReviews = (user: TestUser | null, taskId: string) => call(t, user, { url: `/api/reviews/task/${taskId}` });

describe("reviews", () => {
  it("keeps a blind review out of the ratings on task cards and in the directory", async () => {
    const { poster, provider, task } = await pair();
    const ratingOnTask = async () => (await call(t, provider, { url: `/api/tasks/${task.id}` })).json().provider;
    const ratingInDirectory = async () =>
      ((await call(t, null, { url: "/api/providers" })).json() as { userId: string; rating: string | null; reviewCount: number }[]).find(
        (p) => p.userId === provider.id && p.reviewCount > 0,
      );
    await review(poster, { taskId: task.id, reviewedId: provider.id, rating: 1 });
    expect(await ratingOnTask()).toMatchObject({ rating: null, reviewCount: 0 });
    expect(await ratingInDirectory()).toBeUndefined();

    await review(provider, { taskId: task.id, reviewedId: poster.id, rating: 5 });
    expect(await ratingOnTask()).toMatchObject({ rating: 1, reviewCount: 1 });
    expect(await ratingInDirectory()).toMatchObject({ rating: "1.0", reviewCount: 1 });
  });

  it("stays blind until both have reviewed", async () => {
    const { poster, provider, task } = await pair();
    const first = await review(poster, { taskId: task.id, reviewedId: provider.id, rating: 5, comment: "Great work" });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ rating: 5, comment: "Great work", reviewerName: "Pat P." });

    expect((await taskReviews(poster, task.id)).json()).toMatchObject({ reviewedByMe: true, reviews: [{ reviewerId: poster.id }] });
    const providerView = (await taskReviews(provider, task.id)).json();
    expect(providerView.reviews).toEqual([]);
    expect(providerView.reviewedByMe).toBe(false);
    expect(providerView.revealsAt).toBe(new Date(t.clock.now().getTime() + 14 * DAY).toISOString());
    expect((await call(t, null, { url: `/api/reviews/user/${provider.id}` })).json()).toMatchObject({ count: 0, average: null });

    await review(provider, { taskId: task.id, reviewedId: poster.id, rating: 4 });
    for (const viewer of [poster, provider]) {
      const both = (await taskReviews(viewer, task.id)).json();
      expect(both.reviews).toHaveLength(2);
      expect(both.revealsAt).toBeNull();
    }
    expect((await call(t, null, { url: `/api/reviews/user/${provider.id}` })).json()).toMatchObject({ count: 1, average: 5 });
  });

  it("reveals a lone review 14 days after completion, at the reveal job's next run", async () => {
    const { poster, provider, task } = await pair();
    await review(provider, { taskId: task.id, reviewedId: poster.id, rating: 3, comment: "Late to answer" });
    // In steps shorter than the 7-day idle session limit, so the poster stays signed in.
    for (const days of [6, 6]) {
      t.clock.advance(days * DAY);
      await t.app.ctx.scheduler.runAll();
      expect((await taskReviews(poster, task.id)).json().reviews).toEqual([]);
    }
    t.clock.advance(2 * DAY - 60_000);
    await t.app.ctx.scheduler.runAll();
    expect((await taskReviews(poster, task.id)).json().reviews).toEqual([]);
    expect((await call(t, null, { url: `/api/reviews/user/${poster.id}` })).json().count).toBe(0);
    t.clock.advance(60_000);
    // The window has passed, but nothing reveals a review until the job runs.
    expect((await taskReviews(poster, task.id)).json().reviews).toEqual([]);
    await t.app.ctx.scheduler.runAll();
    expect((await taskReviews(poster, task.id)).json().reviews).toHaveLength(1);
    expect((await call(t, null, { url: `/api/reviews/user/${poster.id}` })).json()).toMatchObject({ count: 1, average: 3 });
  });

  it("refuses duplicates, the wrong person, unfinished tasks and outsiders", async () => {
    const { poster, provider, task } = await pair();
    expect((await review(poster, { taskId: task.id, reviewedId: provider.id, rating: 4 })).statusCode).toBe(201);
    const dup = await review(poster, { taskId: task.id, reviewedId: provider.id, rating: 1 });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe("You have already reviewed this task");

    const self = await review(provider, { taskId: task.id, reviewedId: provider.id, rating: 4 });
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toBe("reviewedId must be the other participant of this task");

    const stranger = await createUser(t);
    expect((await review(stranger, { taskId: task.id, reviewedId: poster.id, rating: 4 })).statusCode).toBe(403);
    expect((await taskReviews(stranger, task.id)).statusCode).toBe(403);
    expect((await review(null, { taskId: task.id, reviewedId: poster.id, rating: 4 })).statusCode).toBe(401);

    const { task: running } = await taskAt(t, "in_progress", { ...assembleDesk, poster, provider });
    const early = await review(poster, { taskId: running.id, reviewedId: provider.id, rating: 5 });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe("Reviews open once the task is completed");

    const rows = await t.database.db.select().from(reviews).where(eq(reviews.taskId, task.id));
    expect(rows).toHaveLength(1);
  });

  it("validates rating and comment with 400 and stores nothing", async () => {
    const { poster, provider, task } = await pair();
    const base = { taskId: task.id, reviewedId: provider.id };
    for (const [body, message] of [
      [{ ...base, rating: 0 }, /rating must be a whole number from 1 to 5/],
      [{ ...base, rating: 6 }, /rating must be a whole number from 1 to 5/],
      [{ ...base, rating: 4.5 }, /rating must be a whole number from 1 to 5/],
      [{ ...base, rating: "5" }, /rating/],
      [{ ...base, rating: 5, comment: "c".repeat(1001) }, /comment must be at most 1000/],
      [{ ...base, taskId: "x", rating: 5 }, /taskId must be a UUID/],
    ] as const) {
      const res = await review(poster, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect(await t.database.db.select().from(reviews).where(eq(reviews.taskId, task.id))).toHaveLength(0);
    const ok = await review(poster, { ...base, rating: 5, comment: "c".repeat(1000) });
    expect(ok.statusCode).toBe(201);
  });

  it("lets admins read every review of a task for moderation", async () => {
    const { poster, provider, task } = await pair();
    await review(poster, { taskId: task.id, reviewedId: provider.id, rating: 2, comment: "Meh" });
    const admin = await createUser(t, { role: "admin" });
    const res = await taskReviews(admin, task.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().reviews).toHaveLength(1);
  });
});
