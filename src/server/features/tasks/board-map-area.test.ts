import { describe, expect, it } from "vitest";
import type { CreateTaskBody, RadiusCounts, TaskPublic } from "../../../shared/tasks.js";
import { call, createUser, useTestApp } from "../../../../test/create-test-app.js";
import { postTask } from "../../../../test/fixtures/factory.js";

// The job board's map (docs/decisions/031-job-board-map.md): `bbox=west,south,east,north` keeps the
// open tasks whose approximate position lies in the map's view, with every other filter; each item
// carries that approximate position and never the exact one.

const t = await useTestApp();
const poster = await createUser(t);
// Each a minute newer than the last, so the board's newest-first order is known.
const mk = async (body: Partial<CreateTaskBody>) => {
  t.clock.advance(60_000);
  return postTask(t, poster, { body });
};
const annapolis = await mk({ title: "Grocery run", category: "shopping", budget: 30, lat: 38.978412, lon: -76.492187 });
const baltimore = await mk({ title: "Dog walk", category: "pet", budget: 80, lat: 39.290385, lon: -76.612189 });
const frederick = await mk({ title: "Office errand", category: "business", budget: 20, lat: 39.414269, lon: -77.410541 });
// A place the gazetteer does not know: no position.
await mk({ title: "Move a couch", category: "moving", budget: 55, location: "The barn past the creek", city: "Nowheresville", lat: null, lon: null });

const board = async (query: string) => {
  const res = await call(t, null, { url: `/api/tasks/open?${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TaskPublic[];
};
const ids = async (query: string) => (await board(query)).map((x) => x.id);
// Around Annapolis and Baltimore, not Frederick.
const BAY = "-76.8,38.8,-76.3,39.4";

describe("GET /api/tasks/open?bbox", () => {
  it("keeps the tasks inside the area, with the other filters and sorts", async () => {
    expect(await ids(`bbox=${BAY}`)).toEqual([baltimore.id, annapolis.id]);
    expect(await ids("bbox=-77.6,38.5,-76.0,39.6")).toEqual([frederick.id, baltimore.id, annapolis.id]);
    expect(await ids("bbox=-80,40,-79,41")).toEqual([]);
    expect(await ids(`bbox=${BAY}&maxBudget=50`)).toEqual([annapolis.id]);
    expect(await ids(`bbox=${BAY}&sort=budget_asc`)).toEqual([annapolis.id, baltimore.id]);
    expect(await ids(`bbox=${BAY}&category=pet`)).toEqual([baltimore.id]);
    // With a place, the distance is measured from it and both the circle and the area apply.
    const near = await board(`bbox=${BAY}&near=21401&radiusMiles=10&sort=distance`);
    expect(near.map((x) => x.id)).toEqual([annapolis.id]);
    expect(near[0]?.distanceMiles).toBeGreaterThan(0);
  });

  it("gives each task's approximate position (0.01°), never its exact one", async () => {
    const [task] = await board(`bbox=${BAY}&maxBudget=50`);
    expect(task).toMatchObject({ approxLat: 38.98, approxLon: -76.49 });
    const body = JSON.stringify(await board(`bbox=${BAY}`));
    for (const exact of ["38.978412", "76.492187", "39.290385", "76.612189"]) expect(body).not.toContain(exact);
    expect(body).not.toContain("58 West St");
  });

  it("applies to the radius counts too", async () => {
    const res = await call(t, null, { url: `/api/tasks/open/radius-counts?near=21401&bbox=-76.6,38.9,-76.4,39.1` });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as RadiusCounts).counts.map((c) => c.count)).toEqual([1, 1, 1, 1]);
  });

  it.each([
    ["bbox=", /west,south,east,north/],
    ["bbox=-76.8,38.8,-76.3", /west,south,east,north/],
    ["bbox=a,b,c,d", /west,south,east,north/],
    ["bbox=-76.8,38.8,-76.3,39.4,1", /west,south,east,north/],
    ["bbox=1e3,38,2,39", /west,south,east,north/],
    ["bbox=-76.8,39.4,-76.3,38.8", /South must be below north/],
    ["bbox=-76.3,38.8,-76.8,39.4", /West must be less than east/],
    ["bbox=-76.8,-91,-76.3,39.4", /Latitudes must be between -90 and 90/],
    ["bbox=-181,38.8,-76.3,39.4", /Longitudes must be between -180 and 180/],
  ])("refuses %s with 400 naming bbox", async (query, message) => {
    const res = await call(t, null, { url: `/api/tasks/open?${query}` });
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json() as { message: string; fieldErrors?: Record<string, string> };
    expect(body.message).toMatch(message);
    expect(Object.keys(body.fieldErrors ?? {})).toEqual(["bbox"]);
  });
});
