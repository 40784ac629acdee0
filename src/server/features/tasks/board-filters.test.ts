import { describe, expect, it } from "vitest";
import type { CreateTaskBody, RadiusCounts, TaskPublic } from "../../../shared/tasks.js";
import { NEAR_MESSAGE } from "../../../shared/task-filters.js";
import { call, createUser, useTestApp } from "../../../../test/create-test-app.js";
import { postTaskForm } from "../../../../test/fixtures/factory.js";
import { taskBody } from "../../../../test/fixtures/task-bodies.js";

// The job board's filters (docs/product.md#job-board-filters): near + radius, budget, when, each
// alone, combined with each other and with category, search, sort and paging, and their bad values.
// The database holds exactly the tasks made here. The clock starts at 2026-06-01 12:00 UTC, which is
// Monday 8:00 AM in the board's time zone (America/New_York).

const t = await useTestApp();
const poster = await createUser(t);
const mk = async (body: Partial<CreateTaskBody>) => {
  t.clock.advance(60_000);
  return postTaskForm(t, poster, taskBody(body));
};
// Miles from ZIP 21401's centroid (38.9898, -76.5501): a 3.3, e 2.8, b 21.0, d 54.4, c has no position (a place
// the gazetteer does not know).
const a = await mk({ title: "Grocery run", category: "shopping", budget: 30, lat: 38.98, lon: -76.49 });
const b = await mk({ title: "Dog walk", category: "pet", budget: 80, lat: 39.29, lon: -76.61, scheduledDate: "2026-06-01T17:00:00-04:00" });
const c = await mk({ title: "Move a couch", category: "moving", budget: 55, location: "The barn past the creek", city: "Nowheresville", lat: null, lon: null, scheduledDate: "2026-06-05T10:00:00-04:00" });
const d = await mk({ title: "Office errand", category: "business", budget: 20, lat: 39.41, lon: -77.41, scheduledDate: "2026-06-08T10:00:00-04:00" });
const e = await mk({ title: "Grocery pickup", category: "shopping", budget: 45, lat: 39.0, lon: -76.5, scheduledDate: "2026-06-07T17:00:00-04:00" });
// Claimed tasks never show, even when every filter matches.
const claimed = await mk({ title: "Grocery claimed", budget: 40, lat: 38.99, lon: -76.55 });
const provider = await createUser(t, { verifiedProvider: true });
expect((await call(t, provider, { method: "PATCH", url: `/api/tasks/${claimed.id}/claim` })).statusCode).toBe(200);

const board = async (query: string) => {
  const res = await call(t, null, { url: `/api/tasks/open?${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TaskPublic[];
};
const ids = async (query: string) => (await board(query)).map((x) => x.id);

describe("GET /api/tasks/open with filters", () => {
  it("keeps the unfiltered board as it was: every open task, newest first, no distance", async () => {
    const all = await board("");
    expect(all.map((x) => x.id)).toEqual([e.id, d.id, c.id, b.id, a.id]);
    expect(all.every((x) => x.distanceMiles === null)).toBe(true);
  });

  it("filters by radius around a ZIP code and carries rounded miles from the approximate position", async () => {
    const near = await board("near=21401&radiusMiles=5");
    expect(near.map((x) => x.id)).toEqual([e.id, a.id]);
    expect(near.map((x) => x.distanceMiles)).toEqual([2.8, 3.3]);
    expect(await ids("near=21401&radiusMiles=10")).toEqual([e.id, a.id]);
    expect(await ids("near=21401&radiusMiles=25")).toEqual([e.id, b.id, a.id]);
    // Whole miles from 10 up: 21.0 → 21.
    expect((await board("near=21401&radiusMiles=25")).find((x) => x.id === b.id)?.distanceMiles).toBe(21);
    // d is 54 miles away and c has no position: neither is within 50.
    expect(await ids("near=21401&radiusMiles=50")).toEqual([e.id, b.id, a.id]);
  });

  it("takes a point as lat,lon, spaces allowed", async () => {
    expect(await ids("near=39.29,-76.61&radiusMiles=5")).toEqual([b.id]);
    expect(await ids(`near=${encodeURIComponent("39.29, -76.61")}&radiusMiles=25`)).toEqual([e.id, b.id, a.id]);
  });

  it("without a radius, near only adds the distance (tasks without a position stay, with null)", async () => {
    const all = await board("near=21401");
    expect(all.map((x) => x.id)).toEqual([e.id, d.id, c.id, b.id, a.id]);
    expect(all.find((x) => x.id === c.id)?.distanceMiles).toBeNull();
    expect(all.find((x) => x.id === d.id)?.distanceMiles).toBe(54);
  });

  it("sorts by distance from near", async () => {
    expect(await ids("near=21401&sort=distance")).toEqual([e.id, a.id, b.id, d.id, c.id]);
    expect(await ids("near=21401&radiusMiles=25&sort=distance")).toEqual([e.id, a.id, b.id]);
  });

  it("filters by budget in dollars, both bounds included", async () => {
    expect(await ids("minBudget=45")).toEqual([e.id, c.id, b.id]);
    expect(await ids("maxBudget=30")).toEqual([d.id, a.id]);
    expect(await ids("minBudget=30&maxBudget=55")).toEqual([e.id, c.id, a.id]);
    expect(await ids("minBudget=45&maxBudget=45")).toEqual([e.id]);
    expect(await ids("minBudget=29.99&maxBudget=30.01")).toEqual([a.id]);
    expect(await ids("minBudget=1000")).toEqual([]);
  });

  it("filters by when: today, the seven days from today, or no date", async () => {
    expect(await ids("when=today")).toEqual([b.id]);
    // Jun 1 to Jun 7 included; d (Jun 8) is next week.
    expect(await ids("when=this_week")).toEqual([e.id, c.id, b.id]);
    expect(await ids("when=flexible")).toEqual([a.id]);
  });

  it("reads today on the board's clock: at 11:30 PM in New York, b (5 PM) is still today; after midnight it is not", async () => {
    const before = t.clock.now();
    try {
      t.clock.set(new Date("2026-06-02T03:30:00Z"));
      expect(await ids("when=today")).toEqual([b.id]);
      t.clock.set(new Date("2026-06-02T04:00:00Z"));
      expect(await ids("when=today")).toEqual([]);
      // The week moves with the day: Jun 2 to Jun 8 now holds d.
      expect(await ids("when=this_week")).toEqual([e.id, d.id, c.id]);
    } finally {
      t.clock.set(before);
    }
  });

  it("combines every filter with category, search, sort and paging", async () => {
    expect(await ids("near=21401&radiusMiles=25&category=shopping")).toEqual([e.id, a.id]);
    expect(await ids("near=21401&radiusMiles=25&search=grocery&minBudget=40")).toEqual([e.id]);
    expect(await ids("near=21401&radiusMiles=50&when=this_week")).toEqual([e.id, b.id]);
    expect(await ids("near=21401&radiusMiles=50&when=flexible&maxBudget=30")).toEqual([a.id]);
    expect(await ids("near=21401&radiusMiles=50&sort=budget_desc")).toEqual([b.id, e.id, a.id]);
    expect(await ids("near=21401&radiusMiles=50&sort=budget_asc&pageSize=2")).toEqual([a.id, e.id]);
    expect(await ids("near=21401&radiusMiles=50&sort=budget_asc&pageSize=2&page=2")).toEqual([b.id]);
    expect(await ids("when=this_week&minBudget=50&category=pet")).toEqual([b.id]);
    expect(await ids("near=21401&radiusMiles=5&when=today")).toEqual([]);
  });

  // Each refusal is one whole sentence that says what to do, also under its field (issue 27).
  it.each([
    ["near=00000", "near", "We don't know the ZIP code 00000. Check it, or use a nearby one."],
    ["near=2140", "near", NEAR_MESSAGE],
    ["near=Annapolis", "near", NEAR_MESSAGE],
    ["near=91,10", "near", "Latitude must be between -90 and 90. Check the position, or enter a ZIP code instead."],
    ["near=10,181", "near", "Longitude must be between -180 and 180. Check the position, or enter a ZIP code instead."],
    ["near=", "near", NEAR_MESSAGE],
    ["near=21401&radiusMiles=7", "radiusMiles", "Choose a radius of 5, 10, 25 or 50 miles."],
    ["near=21401&radiusMiles=abc", "radiusMiles", "Choose a radius of 5, 10, 25 or 50 miles."],
    ["near=21401&radiusMiles=", "radiusMiles", "Choose a radius of 5, 10, 25 or 50 miles."],
    ["radiusMiles=10", "radiusMiles", "A radius needs a place. Enter a ZIP code, or remove the radius."],
    ["minBudget=50&maxBudget=20", "minBudget", "Budget from must not be above Budget to. Lower it, or raise Budget to."],
    ["minBudget=-1", "minBudget", "Budget from must be 0 or more. Enter 0 or a higher amount."],
    ["maxBudget=abc", "maxBudget", "Budget to must be a number of dollars. Enter a number such as 20."],
    ["maxBudget=1e400", "maxBudget", "Budget to must be a number of dollars. Enter a number such as 20."],
    ["minBudget=100001", "minBudget", "Budget from must be at most $100,000. Enter a smaller amount."],
    ["when=tomorrow", "when", "Choose when as today, this_week or flexible."],
    ["near=21401&lat=1&lon=2", "near", "Give near, or lat and lon, not both. Remove one of them."],
    ["sort=distance", "lat", "Sorting by distance needs a place. Give near, or lat and lon."],
  ])("refuses %s with 400: a sentence, under %s", async (query, field, message) => {
    const res = await call(t, null, { url: `/api/tasks/open?${query}` });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ message, fieldErrors: { [field]: message } });
  });
});

describe("GET /api/tasks/open/radius-counts", () => {
  const counts = async (query: string) => {
    const res = await call(t, null, { url: `/api/tasks/open/radius-counts?${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return Object.fromEntries((res.json() as RadiusCounts).counts.map((x) => [x.radiusMiles, x.count]));
  };

  it("counts the matching open tasks at every radius, with the other filters applied", async () => {
    expect(await counts("near=21401&radiusMiles=5")).toEqual({ 5: 2, 10: 2, 25: 3, 50: 3 });
    expect(await counts("near=21401&radiusMiles=5&when=today")).toEqual({ 5: 0, 10: 0, 25: 1, 50: 1 });
    expect(await counts("near=21401&category=cleaning")).toEqual({ 5: 0, 10: 0, 25: 0, 50: 0 });
  });

  it.each([
    ["", "near", "Give near: a ZIP code or lat,lon to count tasks around."],
    ["near=00000", "near", "We don't know the ZIP code 00000. Check it, or use a nearby one."],
    ["near=21401&radiusMiles=7", "radiusMiles", "Choose a radius of 5, 10, 25 or 50 miles."],
  ])("refuses ?%s with 400: a sentence, under %s", async (query, field, message) => {
    const res = await call(t, null, { url: `/api/tasks/open/radius-counts?${query}` });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ message, fieldErrors: { [field]: message } });
  });
});
