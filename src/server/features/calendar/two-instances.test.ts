import { randomUUID } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import type { CalendarSettingsBody } from "../../../shared/calendar.js";
import { buildApp } from "../../app.js";
import { parseEnv } from "../../config/env.js";
import { openDatabase, type Database } from "../../db/client.js";
import { notifications } from "../../db/schema/chat.js";
import { providerBookings, taskReminders } from "../../db/schema/calendar.js";
import { emailOutbox } from "../../db/schema/site.js";
import { call, openTestDatabase, TestClock, type TestApp, type TestUser } from "../../../../test/create-test-app.js";
import { createPoster, createProvider, pay, postTask, taskRow } from "../../../../test/fixtures/factory.js";
import { sendDueReminders } from "./reminders.js";

// No double booking and reminders sent once, across instances (issue 45, "Done when";
// docs/decisions/074-time-and-turning-up.md): two apps, each with its own connection pool, on one
// database and one clock. Bookings and claims of overlapping times raced through both have one
// winner, because the database's exclusion constraint refuses the second range, not a check before
// the write; the reminder job run on both at once, and again on an app started afresh (a restart),
// sends each reminder once, because its marker row is the claim.

// Monday 1 June 2026, 08:00 in New York (EDT, UTC-4).
const clock = new TestClock(new Date("2026-06-01T12:00:00.000Z"));
const { database, url, drop } = await openTestDatabase();
const env = parseEnv({ NODE_ENV: "test", LOG_LEVEL: "silent", PUBLIC_URL: "http://localhost:3000", SEED_DEMO: "false", DATA_DIR: `/tmp/errandly-test-${randomUUID()}` });

/** One more instance on the same database: its own pool, the shared clock. */
async function instance(db: Database): Promise<TestApp> {
  const app = await buildApp({ env, database: db, now: clock.now, logger: false });
  await app.ready();
  return { app, clock, database: db, env, close: async () => undefined };
}
const second = await openDatabase({ databaseUrl: url, poolSize: 10 });
const a = await instance(database);
const b = await instance(second);
/** What is still open, closed in order after the file (an instance before its pool). */
const open = new Set<() => Promise<unknown>>();
const closeA = () => a.app.close();
const closeB = () => b.app.close();
const closeSecond = () => second.close();
for (const close of [closeA, closeB, closeSecond]) open.add(close);
afterAll(async () => {
  for (const close of open) await close();
  await database.close();
  await drop();
});

const DAY = [{ from: "09:00", to: "17:00" }];
const CALENDAR: CalendarSettingsBody = {
  timeZone: "America/New_York",
  weeklyHours: { monday: DAY, tuesday: DAY, wednesday: DAY, thursday: DAY, friday: DAY, saturday: [], sunday: [] },
  minNoticeHours: 24,
  maxTasksPerDay: 8,
  instantBooking: true,
};

async function providerWithCalendar(): Promise<TestUser> {
  const provider = await createProvider(a);
  const res = await call(a, provider, { method: "PUT", url: "/api/calendar", payload: CALENDAR });
  expect(res.statusCode, res.body).toBe(200);
  return provider;
}

/** The poster books the provider at `startsAt` through instance `on` (instant booking: claimed). */
function book(on: TestApp, poster: TestUser, provider: TestUser, startsAt: string) {
  return call(on, poster, {
    method: "POST",
    url: "/api/tasks",
    payload: { title: "Hang two shelves", description: "Two shelves in the hall", category: "other", budget: 80, location: "1 Main St", city: "Annapolis", state: "MD", estimatedHours: 1, request: { providerId: provider.id, startsAt } },
  });
}

const bookingsOf = (providerId: string) => database.db.select().from(providerBookings).where(eq(providerBookings.providerId, providerId));
const codes = (answers: { statusCode: number }[]) => answers.map((r) => r.statusCode).sort();

describe("no double booking across two instances", () => {
  // Several rounds, each a fresh provider: a race lost to timing once would still show.
  const ROUNDS = 4;

  it("books an overlapping time once when two posters book it through different instances at once", async () => {
    const providers = await Promise.all(Array.from({ length: ROUNDS }, () => providerWithCalendar()));
    const posters = await Promise.all(Array.from({ length: ROUNDS * 2 }, () => createPoster(a)));
    // Tuesday 2 June, 11:00 and 11:30 EDT: an hour each, so they overlap by half an hour.
    const answers = await Promise.all(
      providers.map((provider, i) =>
        Promise.all([book(a, posters[2 * i] as TestUser, provider, "2026-06-02T15:00:00.000Z"), book(b, posters[2 * i + 1] as TestUser, provider, "2026-06-02T15:30:00.000Z")]),
      ),
    );
    for (const [i, pair] of answers.entries()) {
      expect(codes(pair), pair.map((r) => r.body).join("\n")).toEqual([201, 409]);
      expect(await bookingsOf((providers[i] as TestUser).id)).toHaveLength(1);
    }
  });

  it("claims one of two overlapping tasks when the provider claims both through different instances at once", async () => {
    const providers = await Promise.all(Array.from({ length: ROUNDS }, () => providerWithCalendar()));
    const poster = await createPoster(a);
    for (const provider of providers) {
      const first = await postTask(a, poster, { body: { scheduledDate: "2026-06-03T14:00:00.000Z" } });
      const overlapping = await postTask(a, poster, { body: { scheduledDate: "2026-06-03T14:30:00.000Z" } });
      const answers = await Promise.all([
        call(a, provider, { method: "PATCH", url: `/api/tasks/${first.id}/claim` }),
        call(b, provider, { method: "PATCH", url: `/api/tasks/${overlapping.id}/claim` }),
      ]);
      expect(codes(answers), answers.map((r) => r.body).join("\n")).toEqual([200, 409]);
      const statuses = [(await taskRow(a, first.id)).status, (await taskRow(a, overlapping.id)).status].sort();
      expect(statuses).toEqual(["claimed", "open"]);
      expect(await bookingsOf(provider.id)).toHaveLength(1);
    }
  });

  it("lets one of a booking on one instance and an overlapping claim on the other win", async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const provider = await providerWithCalendar();
      const poster = await createPoster(a);
      const onBoard = await postTask(a, poster, { body: { scheduledDate: "2026-06-04T14:30:00.000Z" } });
      const answers = await Promise.all([
        book(a, poster, provider, "2026-06-04T14:00:00.000Z"),
        call(b, provider, { method: "PATCH", url: `/api/tasks/${onBoard.id}/claim` }),
      ]);
      const won = answers.filter((r) => r.statusCode === 200 || r.statusCode === 201);
      expect(won, answers.map((r) => r.body).join("\n")).toHaveLength(1);
      expect(answers.filter((r) => r.statusCode === 409)).toHaveLength(1);
      expect(await bookingsOf(provider.id)).toHaveLength(1);
    }
  });
});

describe("reminders across two instances and a restart", () => {
  it("are sent once each when both instances run the job at once, and again after a restart", async () => {
    clock.set(new Date("2026-06-01T12:00:00.000Z"));
    const provider = await providerWithCalendar();
    const poster = await createPoster(a);
    // Wednesday 3 June, 10:00 EDT.
    const res = await book(a, poster, provider, "2026-06-03T14:00:00.000Z");
    expect(res.statusCode, res.body).toBe(201);
    const task = await taskRow(a, res.json<{ id: string }>().id);
    await pay(a, poster, task);

    const reminders = () =>
      database.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.taskId, task.id), eq(notifications.kind, "task_reminder"), inArray(notifications.userId, [poster.id, provider.id])));
    const mails = async () => (await database.db.select().from(emailOutbox).where(eq(emailOutbox.kind, "task_reminder"))).filter((m) => m.text.includes(task.id));
    const markers = async () => (await database.db.select().from(taskReminders).where(eq(taskReminders.taskId, task.id))).length;
    const allMarkers = async () => (await database.db.select().from(taskReminders)).length;
    /**
     * The job on every running instance at once, twice each. Earlier tests' booked tasks may be due
     * too: whatever is due, the notices the instances say they sent are the markers made, none twice.
     */
    const runEverywhere = async (apps: TestApp[]) => {
      const before = await allMarkers();
      const sent = (await Promise.all(apps.flatMap((x) => [sendDueReminders(x.app.ctx), sendDueReminders(x.app.ctx)]))).reduce((s, n) => s + n, 0);
      expect(sent).toBe((await allMarkers()) - before);
      return sent;
    };

    // Tuesday 10:30 EDT: the day-before reminders, one to each person, whichever instance sends them.
    clock.set(new Date("2026-06-02T14:30:00.000Z"));
    expect(await runEverywhere([a, b])).toBeGreaterThanOrEqual(2);
    expect(await markers()).toBe(2);
    expect(await reminders()).toHaveLength(2);
    expect(await mails()).toHaveLength(2);

    // Instance B restarts: a fresh app on a fresh pool, no memory of what it sent.
    for (const close of [closeB, closeSecond]) {
      open.delete(close);
      await close();
    }
    const restartedDb = await openDatabase({ databaseUrl: url, poolSize: 10 });
    const restarted = await instance(restartedDb);
    open.add(() => restarted.app.close());
    open.add(() => restartedDb.close());
    clock.advance(60_000);
    expect(await runEverywhere([a, restarted])).toBe(0);
    expect(await reminders()).toHaveLength(2);
    // The restarted instance's whole scheduler too, as it runs every few seconds.
    await restarted.app.ctx.scheduler.runAll();
    expect(await reminders()).toHaveLength(2);

    // Wednesday 09:15 EDT: the hour-before ones, once each, from both instances at once.
    clock.set(new Date("2026-06-03T13:15:00.000Z"));
    expect(await runEverywhere([a, restarted])).toBeGreaterThanOrEqual(2);
    await Promise.all([a.app.ctx.scheduler.runAll(), restarted.app.ctx.scheduler.runAll()]);
    expect(await markers()).toBe(4);
    const sent = await reminders();
    expect(sent.filter((n) => n.userId === poster.id)).toHaveLength(2);
    expect(sent.filter((n) => n.userId === provider.id)).toHaveLength(2);
    expect(await mails()).toHaveLength(4);
  });
});
