import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { PublicProvider } from "../../../shared/providers.js";
import { providerProfiles } from "../../db/schema/providers.js";
import { reviews } from "../../db/schema/reviews.js";
import { tasks } from "../../db/schema/tasks.js";
import { call, createUser, useTestApp, type TestUser } from "../../../../test/create-test-app.js";

// The provider directory's filters (docs/product.md#verification, "Directory filters"): place
// (distance from `near` to the centre of the provider's ZIP code), service type, lowest rating, and
// the sort by name, rating or completed tasks. The database holds exactly the providers made here.

const t = await useTestApp();
const poster = await createUser(t);

/** An approved provider in a ZIP code, with service types, revealed ratings and completed tasks. */
async function provider(firstName: string, zipCode: string, serviceTypes: string[], ratings: number[], completed: number): Promise<TestUser> {
  const user = await createUser(t, { verifiedProvider: true, firstName, lastName: "Tester" });
  await t.database.db.update(providerProfiles).set({ zipCode, serviceTypes }).where(eq(providerProfiles.userId, user.id));
  // Completed long ago, and its reviews revealed since, so they count.
  const completedAt = new Date(t.clock.now().getTime() - 30 * 86_400_000);
  for (let i = 0; i < Math.max(completed, ratings.length); i++) {
    const [task] = await t.database.db
      .insert(tasks)
      .values({
        userId: poster.id,
        providerId: user.id,
        title: `Done by ${firstName} ${i}`,
        description: "d",
        category: "errands",
        budgetCents: 2500,
        urgentFeeCents: 0,
        serviceFeeCents: 250,
        totalCents: 2750,
        providerShareCents: 2125,
        platformCommissionCents: 375,
        // Reviews need a task; only `completed` of them count as completed tasks.
        status: i < completed ? "completed" : "cancelled",
        completedAt,
      })
      .returning();
    const rating = ratings[i];
    if (task && rating !== undefined) await t.database.db.insert(reviews).values({ taskId: task.id, reviewerId: poster.id, reviewedId: user.id, rating, revealedAt: completedAt });
  }
  return user;
}

// From ZIP 21401 (Annapolis): 21403 is next door, 21201 (Baltimore) about 23 miles, 21701 (Frederick) about 55.
const ann = await provider("Ann", "21401", ["errands", "pet"], [5, 4], 3);
const bea = await provider("Bea", "21403", ["cleaning"], [3], 1);
const cal = await provider("Cal", "21201-1234", ["pet", "moving"], [5, 5], 5);
const dee = await provider("Dee", "21701", ["pet"], [], 0);

const directory = async (query: string) => {
  const res = await call(t, null, { url: `/api/providers${query ? `?${query}` : ""}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as PublicProvider[];
};
const names = async (query: string) => (await directory(query)).map((p) => p.displayName);

describe("GET /api/providers with filters", () => {
  it("lists every approved provider by name, with completed tasks and no distance", async () => {
    const all = await directory("");
    expect(all.map((p) => p.userId)).toEqual([ann.id, bea.id, cal.id, dee.id]);
    expect(all.map((p) => p.completedTasks)).toEqual([3, 1, 5, 0]);
    expect(all.every((p) => p.distanceMiles === null)).toBe(true);
  });

  it("filters by place: miles to the centre of the provider's ZIP code", async () => {
    expect(await names("near=21401&radiusMiles=5")).toEqual(["Ann T.", "Bea T."]);
    expect(await names("near=21401&radiusMiles=25")).toEqual(["Ann T.", "Bea T.", "Cal T."]);
    expect(await names("near=21401&radiusMiles=50")).toEqual(["Ann T.", "Bea T.", "Cal T."]);
    const near = await directory("near=21401");
    expect(near.map((p) => p.distanceMiles)).toEqual([0, expect.any(Number), expect.any(Number), expect.any(Number)]);
    expect(near[2]?.distanceMiles).toBeGreaterThan(20);
    expect(near[3]?.distanceMiles).toBeGreaterThan(50);
    expect(await names("near=39.29,-76.61&radiusMiles=5")).toEqual(["Cal T."]);
  });

  it("filters by service type and lowest rating", async () => {
    expect(await names("serviceType=pet")).toEqual(["Ann T.", "Cal T.", "Dee T."]);
    expect(await names("minRating=4.5")).toEqual(["Ann T.", "Cal T."]);
    expect(await names("minRating=5")).toEqual(["Cal T."]);
    expect(await names("serviceType=pet&minRating=4&near=21401&radiusMiles=10")).toEqual(["Ann T."]);
  });

  it("sorts by rating (unrated last) or by completed tasks", async () => {
    expect(await names("sort=rating")).toEqual(["Cal T.", "Ann T.", "Bea T.", "Dee T."]);
    expect(await names("sort=completed")).toEqual(["Cal T.", "Ann T.", "Bea T.", "Dee T."]);
    expect(await names("sort=completed&serviceType=pet&near=21401&radiusMiles=50")).toEqual(["Cal T.", "Ann T."]);
  });

  it("never shows the ZIP code itself", async () => {
    const res = await call(t, null, { url: "/api/providers?near=21401&radiusMiles=50" });
    expect(res.body).not.toContain("21403");
    expect(res.body).not.toContain("21201");
  });

  it.each([
    ["near=00000", "near", /ZIP code 00000/],
    ["near=abc", "near", /5-digit ZIP code/],
    ["near=21401&radiusMiles=7", "radiusMiles", /5, 10, 25 or 50/],
    ["radiusMiles=10", "radiusMiles", /needs a place/],
    ["serviceType=gardening", "serviceType", /service types/],
    ["minRating=0", "minRating", /1 to 5/],
    ["minRating=abc", "minRating", /1 to 5/],
    ["sort=price", "sort", /name, rating or completed/],
  ])("refuses %s with 400 naming %s", async (query, field, message) => {
    const res = await call(t, null, { url: `/api/providers?${query}` });
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json() as { message: string; fieldErrors?: Record<string, string> };
    expect(body.message).toMatch(message);
    expect(Object.keys(body.fieldErrors ?? {})).toContain(field);
  });
});
