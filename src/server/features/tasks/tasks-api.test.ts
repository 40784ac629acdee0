import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { SCHEDULE_MESSAGES, type CreateTaskBody, type TaskPrivate, type TaskPublic } from "../../../shared/tasks.js";
import { HIDDEN } from "../../contact-masking.js";
import { tasks } from "../../db/schema/tasks.js";
import { call, createUser, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import { taskBody } from "../../../../test/fixtures/task-bodies.js";

const t = await useTestApp();

const single = taskBody({ state: "md", lat: 38.97841, lon: -76.49223 });

const route: CreateTaskBody = {
  title: "Deliver a cake",
  description: "Boxed cake from the bakery",
  category: "delivery",
  budget: 40,
  urgency: "urgent",
  startLocation: "401 Light St",
  startCity: "Baltimore",
  startState: "MD",
  startLat: 39.28473,
  startLon: -76.61331,
  stops: [{ address: "8267 Main St", city: "Ellicott City", state: "MD", notes: "Ring twice" }, { address: "9 Hand Added Rd" }],
  endLocation: "1 W Pennsylvania Ave",
  endCity: "Towson",
  endState: "MD",
  endLat: 39.40151,
  endLon: -76.60192,
};

async function post(user: TestUser, body: Partial<CreateTaskBody> & Record<string, unknown>): Promise<TaskPrivate> {
  const res = await call(t, user, { method: "POST", url: "/api/tasks", payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function taskCount(): Promise<number> {
  const [r] = await t.database.db.select({ n: count() }).from(tasks);
  return r?.n ?? 0;
}

describe("POST /api/tasks", () => {
  it("stores a single-location task with server-computed money and a coarse position", async () => {
    const poster = await createUser(t);
    // Client-sent totals are ignored: the server prices the task.
    const task = await post(poster, { ...single, budget: 100, urgency: "urgent", serviceFee: 0, totalAmount: 1 });
    expect(task).toMatchObject({
      budget: 100,
      urgentFee: 15,
      serviceFee: 9.7,
      totalAmount: 124.7,
      location: "58 West St",
      city: "Annapolis",
      state: "MD",
      lat: 38.97841,
      lon: -76.49223,
      approxLat: 38.98,
      approxLon: -76.49,
      isRoute: false,
      stopCount: 0,
      stops: null,
      status: "open",
      userId: poster.id,
      providerId: null,
      poster: { id: poster.id, rating: null, reviewCount: 0 },
      provider: null,
    });
    const [stored] = await t.database.db.select().from(tasks).where(eq(tasks.id, task.id));
    expect(stored).toMatchObject({ budgetCents: 10_000, urgentFeeCents: 1500, serviceFeeCents: 970, totalCents: 12_470 });
  });

  it("stores a route with stops; the first position is the start", async () => {
    const poster = await createUser(t);
    const task = await post(poster, route);
    expect(task).toMatchObject({
      isRoute: true,
      stopCount: 2,
      startLocation: "401 Light St",
      endLocation: "1 W Pennsylvania Ave",
      location: null,
      approxLat: 39.28,
      approxLon: -76.61,
      stops: [
        { address: "8267 Main St", city: "Ellicott City", state: "MD", notes: "Ring twice" },
        { address: "9 Hand Added Rd", city: null, state: null, notes: null },
      ],
    });
  });

  it("accepts today and refuses yesterday", async () => {
    const poster = await createUser(t);
    const today = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
    expect((await post(poster, { ...single, scheduledDate: today })).scheduledDate).toBe(today);
  });

  // The clock reads 2026-06-01T12:00Z: 08:00 in Baltimore (EDT), 12:00 in London.
  it.each([
    ["yesterday in the poster's zone", "2026-05-31T10:00:00-04:00", SCHEDULE_MESSAGES.past],
    ["today at a time already passed", "2026-06-01T09:00:00+00:00", SCHEDULE_MESSAGES.timePassed],
  ])("refuses a date needed that is %s, with 400 under scheduledDate", async (_label, scheduledDate, message) => {
    const poster = await createUser(t);
    const before = await taskCount();
    const res = await call(t, poster, { method: "POST", url: "/api/tasks", payload: { ...single, scheduledDate } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: `scheduledDate: ${message}`, fieldErrors: { scheduledDate: message } });
    expect(await taskCount()).toBe(before);
  });

  // Errands happen early and late: office hours bind appointments only (docs/product.md#dates-and-hours).
  it("keeps a date needed at any time of day in the poster's zone (5:30 AM, 9 PM, 11:59 PM)", async () => {
    const poster = await createUser(t);
    for (const scheduledDate of ["2026-06-02T05:30:00-04:00", "2026-06-01T21:00:00-04:00", "2026-06-01T23:59:00-04:00"]) {
      const task = await post(poster, { ...single, scheduledDate });
      expect(task.scheduledDate).toBe(new Date(scheduledDate).toISOString());
    }
  });

  it("a 400 on several fields names each field in fieldErrors", async () => {
    const poster = await createUser(t);
    const res = await call(t, poster, { method: "POST", url: "/api/tasks", payload: { ...single, title: "ab", description: " " } });
    expect(res.statusCode).toBe(400);
    expect(res.json().fieldErrors).toEqual({ title: "Title must be at least 3 characters", description: "Description is required" });
  });

  const longTitle = "x".repeat(10_000);
  const elevenStops = Array.from({ length: 11 }, (_, i) => ({ address: `${i} Main St` }));
  it.each([
    ["budget 19.99", { budget: 19.99 }, /budget: Minimum budget is \$20/],
    ["negative budget", { budget: -5 }, /budget: must not be negative/],
    ["budget 1e12", { budget: 1e12 }, /budget: Maximum budget/],
    ["budget 'abc'", { budget: "abc" }, /budget: must be a number/],
    ["budget with 3 decimals", { budget: 20.005 }, /budget: must have at most two decimals/],
    ["date in the past", { scheduledDate: "2026-05-29T10:00:00.000Z" }, /scheduledDate: The date needed can't be in the past/],
    ["malformed date", { scheduledDate: "tomorrow" }, /scheduledDate/],
    ["unknown category", { category: "gardening" }, /category: Category must be one of the listed categories/],
    ["10,000-character title", { title: longTitle }, /title: Title must be at most 120 characters/],
    ["missing title", { title: "  " }, /title/],
    ["11 stops", { ...route, stops: elevenStops }, /stops: At most 10 stops/],
    ["route without end", { ...route, endLocation: null }, /endLocation: A route needs a start and an end location/],
    ["no location at all", { location: null }, /location: Location is required/],
    ["bad state", { state: "Maryland" }, /state: State must be two letters/],
    ["latitude out of range", { lat: 91 }, /lat/],
  ])("refuses %s with 400 naming the field and stores nothing", async (_label, patch, message) => {
    const poster = await createUser(t);
    const before = await taskCount();
    const res = await call(t, poster, { method: "POST", url: "/api/tasks", payload: { ...single, ...patch } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
    expect(await taskCount()).toBe(before);
  });

  it("requires sign-in", async () => {
    const before = await taskCount();
    const res = await call(t, null, { method: "POST", url: "/api/tasks", payload: single });
    expect(res.statusCode).toBe(401);
    expect(await taskCount()).toBe(before);
  });

  it("masks contact details in the title and description before storing them", async () => {
    // Everyone reads both before anything is paid (docs/decisions/070-contact-masking.md).
    const poster = await createUser(t);
    const posted = await post(poster, { ...single, title: "Errand: call ４１０５５５１２３４ please", description: "Details: 410  555  1234, sam＠gmail.com or t.me/sammy" });
    const seen = (await call(t, null, { url: `/api/tasks/${posted.id}` })).json<TaskPublic>();
    expect(seen.title).toBe(`Errand: call ${HIDDEN.phone} please`);
    expect(seen.description).toBe(`Details: ${HIDDEN.phone}, ${HIDDEN.email} or ${HIDDEN.link}`);
    const [row] = await t.database.db.select({ title: tasks.title, description: tasks.description }).from(tasks).where(eq(tasks.id, posted.id));
    expect(row).toEqual({ title: seen.title, description: seen.description });
  });
});

describe("privacy: a stranger never gets a street address or an exact position", () => {
  const secretStreets = ["58 West St", "401 Light St", "8267 Main St", "9 Hand Added Rd", "1 W Pennsylvania Ave"];
  const secretNumbers = ["38.97841", "-76.49223", "39.28473", "-76.61331", "39.40151", "-76.60192"];

  function assertNothingSecret(body: string): void {
    for (const s of [...secretStreets, ...secretNumbers]) expect(body).not.toContain(s);
    expect(body).not.toMatch(/"(location|startLocation|endLocation|stops|lat|lon|startLat|startLon|endLat|endLon)"/);
  }

  it("holds on every route, in every state, for the signed-out, strangers and other providers", async () => {
    const poster = await createUser(t);
    const provider = await createUser(t, { verifiedProvider: true });
    const other = await createUser(t, { verifiedProvider: true });
    const stranger = await createUser(t);
    const admin = await createUser(t, { role: "admin" });
    const one = await post(poster, single);
    t.clock.advance(1000);
    const two = await post(poster, route);

    const look = async () => {
      for (const viewer of [null, stranger, other]) {
        for (const url of ["/api/tasks/open", "/api/tasks/open?search=cake", "/api/tasks/open?sort=distance&lat=39&lon=-76.5", `/api/tasks/${one.id}`, `/api/tasks/${two.id}`]) {
          const res = await call(t, viewer, { url });
          expect(res.statusCode).toBe(200);
          assertNothingSecret(res.body);
        }
        if (viewer) {
          for (const url of ["/api/tasks/my-tasks", "/api/tasks/my-jobs"]) {
            const res = await call(t, viewer, { url });
            expect(res.statusCode).toBe(200);
            assertNothingSecret(res.body);
          }
        }
      }
      const detail = await call(t, stranger, { url: `/api/tasks/${two.id}` });
      expect(detail.json()).toMatchObject({ visibility: "public", startCity: "Baltimore", endCity: "Towson", stopCount: 2, approxLat: 39.28 });
    };

    await look();
    // Claimed: the assigned provider sees the addresses, nobody else does.
    expect((await call(t, provider, { method: "PATCH", url: `/api/tasks/${two.id}/claim` })).statusCode).toBe(200);
    await look();
    const forProvider = await call(t, provider, { url: `/api/tasks/${two.id}` });
    expect(forProvider.json()).toMatchObject({ visibility: "private", startLocation: "401 Light St", startLat: 39.28473 });
    const jobs = await call(t, provider, { url: "/api/tasks/my-jobs" });
    expect(jobs.json()).toEqual([expect.objectContaining({ id: two.id, endLocation: "1 W Pennsylvania Ave" })]);

    // The poster and admins see the addresses.
    const mine = await call(t, poster, { url: "/api/tasks/my-tasks" });
    expect((mine.json() as TaskPrivate[]).map((x) => x.id)).toEqual([two.id, one.id]);
    expect((mine.json() as TaskPrivate[])[1]).toMatchObject({ location: "58 West St", lat: 38.97841 });
    const forAdmin = await call(t, admin, { url: `/api/tasks/${one.id}` });
    expect(forAdmin.json()).toMatchObject({ visibility: "private", location: "58 West St" });
  });

  it("answers 404 for an unknown task", async () => {
    const res = await call(t, null, { url: "/api/tasks/00000000-0000-4000-8000-000000000000" });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe("Task not found");
  });

  it("needs sign-in for my-tasks and my-jobs", async () => {
    expect((await call(t, null, { url: "/api/tasks/my-tasks" })).statusCode).toBe(401);
    expect((await call(t, null, { url: "/api/tasks/my-jobs" })).statusCode).toBe(401);
  });
});
