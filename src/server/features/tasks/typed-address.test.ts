import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { JobAlertInput } from "../../../shared/job-alerts.js";
import type { BoardTask, CreateTaskBody, TaskDetail, TaskPrivate } from "../../../shared/tasks.js";
import { call, createUser, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import type { Geocoder } from "../../adapters/geocoding/geocoder.js";
import { notifications } from "../../db/schema/chat.js";
import { tasks } from "../../db/schema/tasks.js";
import { createPositionBackfill } from "./positions.js";

// A place typed instead of picked (docs/product.md#tasks, "Where a task is"): posting places the
// task through the geocoder port (the offline gazetteer here), the scheduled job places tasks
// stored without a position, and a task nothing can place keeps none.

const t = await useTestApp();
const poster = await createUser(t);

/** The example: a street, town and state typed, no suggestion picked, no lat/lon. */
const typed: CreateTaskBody = {
  title: "Carry boxes to the attic",
  description: "Six boxes up two flights of stairs",
  category: "moving",
  budget: 60,
  urgency: "standard",
  location: "12 Duke of Gloucester St",
  city: "Annapolis",
  state: "MD",
};

const post = async (body: Partial<CreateTaskBody> = {}) => {
  t.clock.advance(1000);
  const res = await call(t, poster, { method: "POST", url: "/api/tasks", payload: { ...typed, ...body } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as TaskPrivate;
};

const nearAnnapolis = async (radiusMiles = 10) => {
  const res = await call(t, null, { url: `/api/tasks/open?near=21401&radiusMiles=${radiusMiles}&pageSize=100` });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as BoardTask[]).map((task) => task.id);
};

const forget = (id: string) => t.database.db.update(tasks).set({ approxLat: null, approxLon: null }).where(eq(tasks.id, id));
const positionOf = async (id: string) => {
  const [row] = await t.database.db.select({ lat: tasks.approxLat, lon: tasks.approxLon }).from(tasks).where(eq(tasks.id, id));
  return row;
};

const alertFor = async (): Promise<TestUser> => {
  const provider = await createUser(t, { verifiedProvider: true });
  const alert: JobAlertInput = { categories: ["moving"], near: "21401", radiusMiles: 25, minBudget: null };
  const saved = await call(t, provider, { method: "PUT", url: "/api/alerts", payload: { alerts: [alert] } });
  expect(saved.statusCode, saved.body).toBe(200);
  return provider;
};

describe("posting a typed address", () => {
  it("places the task in its town: listed within 10 miles of 21401 and alerting a 25-mile alert", async () => {
    const provider = await alertFor();
    const task = await post();
    // Annapolis's centroid, rounded to 0.01 degree.
    expect(task.approxLat).toBeCloseTo(38.98, 1);
    expect(task.approxLon).toBeCloseTo(-76.52, 1);
    expect(task.lat).toBeNull();
    expect(await nearAnnapolis()).toContain(task.id);
    const alerts = await t.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, provider.id), eq(notifications.kind, "task_alert"), eq(notifications.taskId, task.id)));
    expect(alerts).toHaveLength(1);
  });

  it("places a route by its typed start, and a whole address typed in the location box", async () => {
    const route = await post({ location: null, city: null, state: null, startLocation: "5 Main St", startCity: "Annapolis", startState: "MD", endLocation: "1 Bay Rd", endCity: "Baltimore", endState: "MD" });
    expect(route.approxLat).toBeCloseTo(38.98, 1);
    const oneBox = await post({ location: "12 Duke of Gloucester St, Annapolis, MD 21401", city: null, state: null });
    expect(oneBox.approxLat).toBeCloseTo(38.98, 1);
    expect(await nearAnnapolis()).toEqual(expect.arrayContaining([route.id, oneBox.id]));
  });

  it("keeps a picked suggestion's position", async () => {
    const task = await post({ lat: 39.29, lon: -76.61 });
    expect([task.approxLat, task.approxLon]).toEqual([39.29, -76.61]);
  });

  it("posts without a position a place nothing can find, and the poster reads that it has none", async () => {
    const task = await post({ location: "The blue barn past the creek", city: "Nowheresville", state: "MD" });
    expect([task.approxLat, task.approxLon]).toEqual([null, null]);
    expect(await nearAnnapolis(50)).not.toContain(task.id);
    const detail = (await call(t, poster, { url: `/api/tasks/${task.id}` })).json() as TaskDetail;
    expect(detail).toMatchObject({ visibility: "private", approxLat: null, approxLon: null });
  });

  it("posts without a position while the geocoder is down, and the job places it later", async () => {
    const geocoder = t.app.ctx.geocoder;
    const down: Geocoder = { search: () => Promise.reject(new Error("geocoder down")) };
    t.app.ctx.geocoder = down;
    let task: TaskPrivate;
    try {
      task = await post();
      expect(task.approxLat).toBeNull();
      // A run while it is still down places nothing and keeps the task for the next run.
      await t.app.ctx.scheduler.runAll();
      expect(await positionOf(task.id)).toEqual({ lat: null, lon: null });
    } finally {
      t.app.ctx.geocoder = geocoder;
    }
    await t.app.ctx.scheduler.runAll();
    expect((await positionOf(task.id))?.lat).toBeCloseTo(38.98, 1);
  });
});

describe("the job that places stored tasks", () => {
  it("places an open task stored without a position, and the board lists it at once", async () => {
    const task = await post();
    const unplaceable = await post({ location: "The blue barn past the creek", city: "Nowheresville", state: "MD" });
    // As it was stored before posting placed typed addresses.
    await forget(task.id);
    expect(await nearAnnapolis()).not.toContain(task.id);
    await t.app.ctx.scheduler.runAll();
    expect((await positionOf(task.id))?.lat).toBeCloseTo(38.98, 1);
    expect(await positionOf(unplaceable.id)).toEqual({ lat: null, lon: null });
    // The board answer kept from before the job is not served after it.
    expect(await nearAnnapolis()).toContain(task.id);
  });

  it("writes each position once when several instances run it together", async () => {
    const [first, second] = [await post(), await post({ location: "7 Church Cir" })];
    await forget(first.id);
    await forget(second.id);
    const instances = [createPositionBackfill(t.app.ctx), createPositionBackfill(t.app.ctx)];
    const placed = await Promise.all(instances.map((run) => run()));
    expect(placed.reduce((sum, n) => sum + n, 0)).toBe(2);
    expect((await positionOf(first.id))?.lat).toBeCloseTo(38.98, 1);
    expect((await positionOf(second.id))?.lat).toBeCloseTo(38.98, 1);
    // A second run has nothing left to place.
    expect(await Promise.all(instances.map((run) => run()))).toEqual([0, 0]);
  });
});
