import { describe, expect, it } from "vitest";
import type { CreateTaskBody, TaskPublic } from "../../../shared/tasks.js";
import { eq } from "drizzle-orm";
import { reviews } from "../../db/schema/reviews.js";
import { tasks } from "../../db/schema/tasks.js";
import { call, createUser, useTestApp } from "../../../../test/create-test-app.js";
import { postTaskForm } from "../../../../test/fixtures/factory.js";
import { taskBody } from "../../../../test/fixtures/task-bodies.js";

// The job board's query: only open tasks, search, category, paging and sorts, on a database
// that holds exactly the tasks made here (the order assertions depend on it).

const t = await useTestApp();
const poster = await createUser(t);
const mk = async (body: Partial<CreateTaskBody>, minutesLater: number) => {
  t.clock.advance(minutesLater * 60_000);
  return postTaskForm(t, poster, taskBody(body));
};
const a = await mk({ title: "Grocery run", description: "Milk and eggs", category: "shopping", budget: 30, lat: 38.98, lon: -76.49 }, 1);
const b = await mk({ title: "Dog walk", description: "Friendly GROCERY-store dog", category: "pet", budget: 80, lat: 39.29, lon: -76.61 }, 1);
// A place the gazetteer does not know: no position.
const c = await mk({ title: "Move a couch", description: "100% heavy_lifting", category: "moving", budget: 55, location: "The barn past the creek", city: "Nowheresville", lat: null, lon: null }, 1);
const d = await mk({ title: "Office errand", description: "Printer toner", category: "business", budget: 20, lat: 39.41, lon: -77.41 }, 1);
const claimedTask = await mk({ title: "Grocery pickup", description: "already claimed" }, 1);
const provider = await createUser(t, { verifiedProvider: true });
expect((await call(t, provider, { method: "PATCH", url: `/api/tasks/${claimedTask.id}/claim` })).statusCode).toBe(200);

const list = async (query: string) => {
  const res = await call(t, null, { url: `/api/tasks/open${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as TaskPublic[]).map((x) => x.id);
};

describe("GET /api/tasks/open", () => {
  it("lists only open tasks, newest first", async () => {
    expect(await list("")).toEqual([d.id, c.id, b.id, a.id]);
  });

  it("searches title and description case-insensitively", async () => {
    expect(await list("?search=grocery")).toEqual([b.id, a.id]);
    expect(await list("?search=GROCERY%20RUN")).toEqual([a.id]);
  });

  it("treats % and _ in the search as literal characters", async () => {
    expect(await list("?search=100%25")).toEqual([c.id]);
    expect(await list("?search=%25")).toEqual([c.id]);
    expect(await list("?search=y_l")).toEqual([c.id]);
    expect(await list("?search=_")).toEqual([c.id]);
  });

  it("filters by category, combined with search", async () => {
    expect(await list("?category=pet")).toEqual([b.id]);
    expect(await list("?category=shopping&search=grocery")).toEqual([a.id]);
    expect(await list("?category=cleaning")).toEqual([]);
  });

  it("pages", async () => {
    expect(await list("?pageSize=2")).toEqual([d.id, c.id]);
    expect(await list("?pageSize=2&page=2")).toEqual([b.id, a.id]);
    expect(await list("?pageSize=2&page=3")).toEqual([]);
  });

  it("sorts by budget both ways", async () => {
    expect(await list("?sort=budget_desc")).toEqual([b.id, c.id, a.id, d.id]);
    expect(await list("?sort=budget_asc")).toEqual([d.id, a.id, c.id, b.id]);
  });

  it("sorts by distance from a point, tasks without a position last", async () => {
    // From Baltimore: b (Baltimore), a (Annapolis, ~26 mi), d (Frederick, ~44 mi), c (no position).
    const res = await call(t, null, { url: "/api/tasks/open?sort=distance&lat=39.29&lon=-76.61" });
    const body = res.json() as TaskPublic[];
    expect(body.map((x) => x.id)).toEqual([b.id, a.id, d.id, c.id]);
    expect(body[0]?.distanceMiles).toBe(0);
    expect(body[1]?.distanceMiles).toBeGreaterThan(20);
    expect(body[1]?.distanceMiles).toBeLessThan(30);
    expect(body[3]?.distanceMiles).toBeNull();
  });

  it.each([
    ["?sort=distance", /^Sorting by distance needs a place\. Give near, or lat and lon\.$/],
    ["?sort=cheapest", /sort/],
    ["?category=gardening", /category/],
    ["?page=0", /page/],
    ["?pageSize=1000", /pageSize/],
    ["?lat=abc&lon=1", /lat/],
    [`?search=${"x".repeat(201)}`, /search/],
  ])("refuses %s with 400", async (query, message) => {
    const res = await call(t, null, { url: `/api/tasks/open${query}` });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
  });

  it("shows each party's review average with one decimal", async () => {
    // Revealed reviews count (their task completed over 14 days ago, past the blind window).
    const [done] = await t.database.db
      .update(tasks)
      .set({ status: "completed", completedAt: new Date(t.clock.now().getTime() - 15 * 86_400_000) })
      .where(eq(tasks.id, claimedTask.id))
      .returning();
    expect(done).toBeDefined();
    for (const rating of [5, 4, 4]) {
      const reviewer = await createUser(t);
      await t.database.db.insert(reviews).values({ taskId: claimedTask.id, reviewerId: reviewer.id, reviewedId: poster.id, rating, revealedAt: t.clock.now() });
    }
    const res = await call(t, null, { url: "/api/tasks/open?pageSize=1" });
    expect((res.json() as TaskPublic[])[0]?.poster).toMatchObject({ id: poster.id, rating: 4.3, reviewCount: 3 });
  });
});

