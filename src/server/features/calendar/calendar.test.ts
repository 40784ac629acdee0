import { eq, sql } from "drizzle-orm";
import ical from "node-ical";
import { describe, expect, it } from "vitest";
import { SLOT_TAKEN_MESSAGE, type CalendarSettingsBody, type SlotsAnswer } from "../../../shared/calendar.js";
import { providerBookings } from "../../db/schema/calendar.js";
import { call, TestClock, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import { createPoster, createProvider, postTask, taskRow, transition } from "../../../../test/fixtures/factory.js";

// Time and turning up (docs/decisions/074-time-and-turning-up.md): the provider's calendar settings,
// their free slots, booking one, the database's refusal of a second booking of the same time, the
// job board's claim refused on an overlap, and the private calendar feed.

// Monday 1 June 2026, 08:00 in New York (EDT, UTC-4).
const clock = new TestClock(new Date("2026-06-01T12:00:00.000Z"));
const t = await useTestApp({}, clock);

const WEEKDAY_HOURS = [{ from: "09:00", to: "17:00" }];
const CALENDAR: CalendarSettingsBody = {
  timeZone: "America/New_York",
  weeklyHours: { monday: WEEKDAY_HOURS, tuesday: WEEKDAY_HOURS, wednesday: WEEKDAY_HOURS, thursday: WEEKDAY_HOURS, friday: WEEKDAY_HOURS, saturday: [], sunday: [] },
  daysOff: ["2026-06-04"],
  minNoticeHours: 24,
  maxTasksPerDay: 3,
  instantBooking: true,
};

async function providerWithCalendar(settings: Partial<CalendarSettingsBody> = {}): Promise<TestUser> {
  const provider = await createProvider(t);
  const res = await call(t, provider, { method: "PUT", url: "/api/calendar", payload: { ...CALENDAR, ...settings } });
  expect(res.statusCode, res.body).toBe(200);
  return provider;
}

async function slotsOf(provider: TestUser, viewer: TestUser, durationMinutes = 60): Promise<SlotsAnswer> {
  const res = await call(t, viewer, { url: `/api/providers/${provider.id}/slots?durationMinutes=${durationMinutes}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<SlotsAnswer>();
}

function book(poster: TestUser, provider: TestUser, startsAt: string, body: Record<string, unknown> = {}) {
  return call(t, poster, {
    method: "POST",
    url: "/api/tasks",
    payload: { title: "Hang two shelves", description: "Two shelves in the hall", category: "other", budget: 80, location: "1 Main St", city: "Annapolis", state: "MD", estimatedHours: 1, ...body, request: { providerId: provider.id, startsAt } },
  });
}

describe("a provider's calendar settings", () => {
  it("hold the defaults until saved, then what was saved", async () => {
    const provider = await createProvider(t);
    const before = await call(t, provider, { url: "/api/calendar" });
    expect(before.statusCode).toBe(200);
    expect(before.json()).toMatchObject({ updatedAt: null, instantBooking: false, weeklyHours: { monday: [] } });

    const saved = await call(t, provider, { method: "PUT", url: "/api/calendar", payload: { ...CALENDAR, weeklyHours: { ...CALENDAR.weeklyHours, saturday: [{ from: "13:30", to: "24:00" }, { from: "08:00", to: "10:00" }] } } });
    expect(saved.statusCode, saved.body).toBe(200);
    const again = await call(t, provider, { url: "/api/calendar" });
    expect(again.json()).toMatchObject({
      timeZone: "America/New_York",
      daysOff: ["2026-06-04"],
      minNoticeHours: 24,
      maxTasksPerDay: 3,
      instantBooking: true,
      weeklyHours: { monday: WEEKDAY_HOURS, saturday: [{ from: "08:00", to: "10:00" }, { from: "13:30", to: "24:00" }], sunday: [] },
      updatedAt: clock.now().toISOString(),
    });
  });

  it("refuse a bad form with a sentence under each field", async () => {
    const provider = await createProvider(t);
    const res = await call(t, provider, {
      method: "PUT",
      url: "/api/calendar",
      payload: { ...CALENDAR, timeZone: "Mars/Olympus_Mons", weeklyHours: { ...CALENDAR.weeklyHours, monday: [{ from: "09:00", to: "12:00" }, { from: "11:00", to: "13:00" }], tuesday: [{ from: "17:00", to: "09:00" }] }, minNoticeHours: -1 },
    });
    expect(res.statusCode).toBe(400);
    const { fieldErrors } = res.json<{ fieldErrors: Record<string, string> }>();
    expect(fieldErrors).toMatchObject({
      timeZone: "Choose your time zone from the list, such as America/New_York",
      "weeklyHours.monday.1.from": "This window overlaps another one of the same day. Join them into one.",
      "weeklyHours.tuesday.0.to": "The end must be after the start",
      minNoticeHours: "Notice cannot be negative",
    });
  });

  it("belong to approved providers only", async () => {
    const poster = await createPoster(t);
    expect((await call(t, poster, { url: "/api/calendar" })).statusCode).toBe(403);
    expect((await call(t, poster, { method: "PUT", url: "/api/calendar", payload: CALENDAR })).statusCode).toBe(403);
    expect((await call(t, null, { url: "/api/calendar" })).statusCode).toBe(401);
  });
});

describe("free slots", () => {
  it("are the weekly hours of the next two weeks after the notice, not on days off, on the provider's clock", async () => {
    const provider = await providerWithCalendar();
    const answer = await slotsOf(provider, await createPoster(t));
    expect(answer).toMatchObject({ timeZone: "America/New_York", durationMinutes: 60, instantBooking: true });
    // Tomorrow (Tue 2 June) 09:00 EDT is the first after 24 hours' notice; the last start of a day is 16:00.
    expect(answer.slots[0]).toEqual({ startsAt: "2026-06-02T13:00:00.000Z", endsAt: "2026-06-02T14:00:00.000Z" });
    expect(answer.slots.filter((s) => s.startsAt.startsWith("2026-06-02")).at(-1)?.startsAt).toBe("2026-06-02T20:00:00.000Z");
    // Thursday 4 June is a day off; weekends are not worked.
    expect(answer.slots.some((s) => s.startsAt.startsWith("2026-06-04"))).toBe(false);
    expect(answer.slots.some((s) => s.startsAt.startsWith("2026-06-06"))).toBe(false);
    // Tue, Wed, Fri of this week and Mon–Fri of the next, 15 starts a day, within 14 days of today.
    expect(answer.slots).toHaveLength(8 * 15);
    expect(answer.slots.at(-1)?.startsAt).toBe("2026-06-12T20:00:00.000Z");
  });

  it("follow the clock across the night it goes back (a task at 01:30 on 1 November)", async () => {
    const autumn = new TestClock(new Date("2026-10-30T12:00:00.000Z"));
    clock.set(autumn.now());
    try {
      const night = [{ from: "00:00", to: "04:00" }];
      const provider = await providerWithCalendar({ weeklyHours: { monday: [], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: [], sunday: night }, daysOff: [], minNoticeHours: 0 });
      const sunday = (await slotsOf(provider, await createPoster(t), 30)).slots.filter((s) => s.startsAt >= "2026-11-01T04:00" && s.startsAt < "2026-11-01T10:00");
      // 00:00 to 04:00 on Sunday 1 November is five hours long: 01:00–02:00 happens twice (EDT, then EST).
      expect(sunday.map((s) => s.startsAt)).toEqual([
        "2026-11-01T04:00:00.000Z", "2026-11-01T04:30:00.000Z", // 00:00, 00:30 EDT
        "2026-11-01T05:00:00.000Z", "2026-11-01T05:30:00.000Z", // 01:00, 01:30 EDT
        "2026-11-01T06:00:00.000Z", "2026-11-01T06:30:00.000Z", // 01:00, 01:30 EST
        "2026-11-01T07:00:00.000Z", "2026-11-01T07:30:00.000Z", // 02:00, 02:30 EST
        "2026-11-01T08:00:00.000Z", "2026-11-01T08:30:00.000Z", // 03:00, 03:30 EST
      ]);
    } finally {
      clock.set(new Date("2026-06-01T12:00:00.000Z"));
    }
  });

  it("leave out the times booked tasks fill, for their expected length, and full days", async () => {
    const provider = await providerWithCalendar({ maxTasksPerDay: 2 });
    const poster = await createPoster(t);
    // A two-hour task at 10:00 takes the starts from 09:30 (an hour long, it would run into it) to 11:30.
    expect((await book(poster, provider, "2026-06-02T14:00:00.000Z", { estimatedHours: 2 })).statusCode).toBe(201);
    const tuesday = (await slotsOf(provider, poster)).slots.filter((s) => s.startsAt.startsWith("2026-06-02")).map((s) => s.startsAt.slice(11, 16));
    expect(tuesday).toEqual(["13:00", "16:00", "16:30", "17:00", "17:30", "18:00", "18:30", "19:00", "19:30", "20:00"]);
    // A second task fills the day (two a day at most).
    expect((await book(poster, provider, "2026-06-02T20:00:00.000Z")).statusCode).toBe(201);
    expect((await slotsOf(provider, poster)).slots.some((s) => s.startsAt.startsWith("2026-06-02"))).toBe(false);
  });

  it("are none for a provider without a calendar, and 404 for someone who is not a provider", async () => {
    const poster = await createPoster(t);
    expect(await slotsOf(await createProvider(t), poster)).toMatchObject({ timeZone: null, slots: [], instantBooking: false });
    expect((await call(t, poster, { url: `/api/providers/${poster.id}/slots` })).statusCode).toBe(404);
    expect((await call(t, poster, { url: `/api/providers/${poster.id}/slots?durationMinutes=20` })).statusCode).toBe(400);
  });
});

describe("booking a free slot", () => {
  it("with instant booking claims the task for the provider and starts the payment window", async () => {
    const provider = await providerWithCalendar();
    const poster = await createPoster(t);
    const res = await book(poster, provider, "2026-06-03T14:00:00.000Z");
    expect(res.statusCode, res.body).toBe(201);
    const task = await taskRow(t, res.json<{ id: string }>().id);
    expect(task).toMatchObject({ status: "claimed", providerId: provider.id, durationMinutes: 60, timeZone: "America/New_York", requestExpiresAt: null });
    expect(task.scheduledDate?.toISOString()).toBe("2026-06-03T14:00:00.000Z");
    expect(task.paymentDeadline).not.toBeNull();
    const [booking] = await t.database.db.select().from(providerBookings).where(eq(providerBookings.taskId, task.id));
    expect(booking?.providerId).toBe(provider.id);
  });

  it("without instant booking sends the request with the time, and refuses a time that is not free", async () => {
    const provider = await providerWithCalendar({ instantBooking: false });
    const poster = await createPoster(t);
    const res = await book(poster, provider, "2026-06-03T14:00:00.000Z");
    expect(res.statusCode, res.body).toBe(201);
    const task = await taskRow(t, res.json<{ id: string }>().id);
    expect(task).toMatchObject({ status: "requested", providerId: null, requestedProviderId: provider.id });
    expect(task.scheduledDate?.toISOString()).toBe("2026-06-03T14:00:00.000Z");

    // Saturday is not worked.
    const refused = await book(poster, provider, "2026-06-06T14:00:00.000Z");
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ message: SLOT_TAKEN_MESSAGE });
  });

  it("is not asked of a request that carries only the date needed: it is sent as before calendars", async () => {
    const provider = await createProvider(t);
    const res = await call(t, await createPoster(t), {
      method: "POST",
      url: "/api/tasks",
      payload: { title: "Walk the dog", description: "Twice round the park", category: "pet", budget: 30, location: "1 Main St", city: "Annapolis", state: "MD", scheduledDate: "2026-06-06T14:00:00.000Z", request: { providerId: provider.id } },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(await taskRow(t, res.json<{ id: string }>().id)).toMatchObject({ status: "requested", requestedProviderId: provider.id });
  });

  it("of the same slot by two posters at once books it once", async () => {
    const provider = await providerWithCalendar();
    const [a, b] = [await createPoster(t), await createPoster(t)];
    const answers = await Promise.all([book(a, provider, "2026-06-05T15:00:00.000Z"), book(b, provider, "2026-06-05T15:00:00.000Z")]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const bookings = await t.database.db.select().from(providerBookings).where(eq(providerBookings.providerId, provider.id));
    expect(bookings).toHaveLength(1);
  });
});

describe("no double booking", () => {
  it("is the database's rule: a second overlapping range of one provider is refused", async () => {
    const provider = await providerWithCalendar();
    const poster = await createPoster(t);
    const first = (await book(poster, provider, "2026-06-08T14:00:00.000Z")).json<{ id: string }>().id;
    const other = await postTask(t, poster, { body: { scheduledDate: "2026-06-08T15:00:00.000Z" } });
    const insert = t.database.db.execute(
      sql`insert into provider_bookings (task_id, provider_id, during) values (${other.id}::uuid, ${provider.id}::uuid, tstzrange('2026-06-08T14:30:00Z', '2026-06-08T15:30:00Z', '[)'))`,
    );
    await expect(insert).rejects.toMatchObject({ cause: { code: "23P01", constraint: "provider_bookings_no_overlap" } });
    // Back to back is not an overlap.
    await t.database.db.execute(sql`insert into provider_bookings (task_id, provider_id, during) values (${other.id}::uuid, ${provider.id}::uuid, tstzrange('2026-06-08T15:00:00Z', '2026-06-08T16:00:00Z', '[)'))`);
    expect((await t.database.db.select().from(providerBookings).where(eq(providerBookings.providerId, provider.id))).map((b) => b.taskId).sort()).toEqual([first, other.id].sort());
  });

  it("refuses a job-board claim that overlaps a booked task, in a sentence naming its time", async () => {
    const provider = await providerWithCalendar();
    const poster = await createPoster(t);
    expect((await book(poster, provider, "2026-06-09T14:00:00.000Z", { estimatedHours: 2 })).statusCode).toBe(201);
    const overlapping = await postTask(t, poster, { body: { scheduledDate: "2026-06-09T15:00:00.000Z" } });
    const res = await call(t, provider, { method: "PATCH", url: `/api/tasks/${overlapping.id}/claim` });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      message: "This task's time overlaps another task you've booked on Tue 9 Jun, 10:00 AM–12:00 PM. Claim tasks at other times, or release or reschedule that task first.",
    });
    expect((await taskRow(t, overlapping.id)).status).toBe("open");
    // The next free hour is claimed, and once released its time is free again.
    const after = await postTask(t, poster, { body: { scheduledDate: "2026-06-09T16:00:00.000Z" } });
    expect(await transition(t, "claim", after.id, provider)).toMatchObject({ status: "claimed" });
    const released = await call(t, provider, { method: "PATCH", url: `/api/tasks/${after.id}/release-claim` });
    expect(released.statusCode, released.body).toBe(200);
    expect(await t.database.db.select().from(providerBookings).where(eq(providerBookings.taskId, after.id))).toEqual([]);
  });

  it("holds when two claims of overlapping tasks race: one wins", async () => {
    const provider = await providerWithCalendar();
    const poster = await createPoster(t);
    const a = await postTask(t, poster, { body: { scheduledDate: "2026-06-10T14:00:00.000Z" } });
    const b = await postTask(t, poster, { body: { scheduledDate: "2026-06-10T14:30:00.000Z" } });
    const answers = await Promise.all([a, b].map((task) => call(t, provider, { method: "PATCH", url: `/api/tasks/${task.id}/claim` })));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await t.database.db.select().from(providerBookings).where(eq(providerBookings.providerId, provider.id))).toHaveLength(1);
  });
});

describe("the calendar feed", () => {
  it("is an iCalendar of the person's tasks at a secret address that a reset ends", async () => {
    const provider = await providerWithCalendar();
    const poster = await createPoster(t);
    expect((await book(poster, provider, "2026-06-11T14:00:00.000Z")).statusCode).toBe(201);
    expect((await call(t, provider, { url: "/api/calendar/feed" })).json()).toEqual({ feed: null });

    const made = await call(t, provider, { method: "POST", url: "/api/calendar/feed" });
    expect(made.statusCode).toBe(201);
    const { url } = made.json<{ url: string }>();
    const path = new URL(url).pathname;
    const feed = await call(t, null, { url: path });
    expect(feed.statusCode).toBe(200);
    expect(feed.headers["content-type"]).toContain("text/calendar");
    expect(feed.body).toContain("BEGIN:VCALENDAR");
    expect(feed.body).toContain("SUMMARY:Hang two shelves");
    expect(feed.body).toMatch(/DTSTART(;TZID=America\/New_York:20260611T100000|:20260611T140000Z)/);
    expect((await call(t, provider, { url: "/api/calendar/feed" })).json()).toEqual({ feed: { createdAt: clock.now().toISOString() } });

    const reset = await call(t, provider, { method: "POST", url: "/api/calendar/feed" });
    expect(reset.statusCode).toBe(201);
    expect((await call(t, null, { url: path })).statusCode).toBe(404);
    expect((await call(t, null, { url: new URL(reset.json<{ url: string }>().url).pathname })).statusCode).toBe(200);

    expect((await call(t, provider, { method: "DELETE", url: "/api/calendar/feed" })).json()).toEqual({ feed: null });
    expect((await call(t, null, { url: new URL(reset.json<{ url: string }>().url).pathname })).statusCode).toBe(404);
  });

  it("gives a task's parties its .ics invitation, and nobody else", async () => {
    const provider = await providerWithCalendar();
    const poster = await createPoster(t);
    const id = (await book(poster, provider, "2026-06-12T14:00:00.000Z")).json<{ id: string }>().id;
    const ics = await call(t, poster, { url: `/api/tasks/${id}/calendar.ics` });
    expect(ics.statusCode).toBe(200);
    expect(ics.headers["content-disposition"]).toContain(".ics");
    expect(ics.body).toContain("BEGIN:VEVENT");
    const [event] = Object.values(ical.sync.parseICS(ics.body)).filter((c) => c?.type === "VEVENT");
    expect(event).toMatchObject({ summary: "Hang two shelves", uid: expect.stringContaining(id) });
    expect(event?.type === "VEVENT" && [event.start.toISOString(), event.end?.toISOString()]).toEqual(["2026-06-12T14:00:00.000Z", "2026-06-12T15:00:00.000Z"]);
    expect((await call(t, await createPoster(t), { url: `/api/tasks/${id}/calendar.ics` })).statusCode).toBe(404);
  });

  it("says the right instant of a task at 01:30 on the night clocks go back, in a standard parser", async () => {
    const poster = await createPoster(t);
    // 01:30 EST, the second 1:30 AM of Sunday 1 November 2026 in New York.
    const task = await postTask(t, poster, { body: { scheduledDate: "2026-11-01T06:30:00.000Z", estimatedHours: 1 } });
    const provider = await createProvider(t);
    expect(await transition(t, "claim", task.id, provider)).toMatchObject({ status: "claimed" });
    const ics = await call(t, provider, { url: `/api/tasks/${task.id}/calendar.ics` });
    const [event] = Object.values(ical.sync.parseICS(ics.body)).filter((c) => c?.type === "VEVENT");
    expect(event?.type === "VEVENT" && [event.start.toISOString(), event.end?.toISOString()]).toEqual(["2026-11-01T06:30:00.000Z", "2026-11-01T07:30:00.000Z"]);
  });
});
