import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { CalendarSettingsBody } from "../../../shared/calendar.js";
import { notifications } from "../../db/schema/chat.js";
import { providerBookings, taskNoShows, taskReminders } from "../../db/schema/calendar.js";
import { ledgerTransactions } from "../../db/schema/payments.js";
import { emailOutbox } from "../../db/schema/site.js";
import { call, TestClock, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import { createPoster, createProvider, pay, taskRow } from "../../../../test/fixtures/factory.js";
import { sendDueReminders } from "./reminders.js";

// Time and turning up after the booking (docs/decisions/074-time-and-turning-up.md): rescheduling as
// rows of the task table, "on my way" with an arrival estimate, the reminders as idempotent scheduler
// work, the late notice, and the no-show that refunds in full and counts on the provider's profile.

// Monday 1 June 2026, 08:00 in New York (EDT, UTC-4).
const START = new Date("2026-06-01T12:00:00.000Z");
const clock = new TestClock(START);
const t = await useTestApp({}, clock);

const DAY = [{ from: "09:00", to: "17:00" }];
const CALENDAR: CalendarSettingsBody = {
  timeZone: "America/New_York",
  weeklyHours: { monday: DAY, tuesday: DAY, wednesday: DAY, thursday: DAY, friday: DAY, saturday: [], sunday: [] },
  minNoticeHours: 24,
  maxTasksPerDay: 5,
  instantBooking: true,
};

async function providerWithCalendar(): Promise<TestUser> {
  const provider = await createProvider(t);
  const res = await call(t, provider, { method: "PUT", url: "/api/calendar", payload: CALENDAR });
  expect(res.statusCode, res.body).toBe(200);
  return provider;
}

/** A task the poster books at `startsAt` from a new provider's calendar, instantly: claimed. */
async function booked(startsAt: string, provider?: TestUser) {
  const poster = await createPoster(t);
  const who = provider ?? (await providerWithCalendar());
  const res = await call(t, poster, {
    method: "POST",
    url: "/api/tasks",
    payload: { title: "Assemble a bookcase", description: "Flat-pack, six shelves", category: "other", budget: 90, location: "12 Harbor Rd", city: "Annapolis", state: "MD", lat: 38.9784, lon: -76.4922, estimatedHours: 1, request: { providerId: who.id, startsAt } },
  });
  expect(res.statusCode, res.body).toBe(201);
  return { poster, provider: who, task: await taskRow(t, res.json<{ id: string }>().id) };
}

async function noticesOf(userId: string, taskId: string, kind: string) {
  return t.database.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.taskId, taskId), eq(notifications.kind, kind as never)));
}

const patch = (user: TestUser, taskId: string, path: string) => call(t, user, { method: "PATCH", url: `/api/tasks/${taskId}/${path}` });
const propose = (user: TestUser, taskId: string, startsAt: string) => call(t, user, { method: "POST", url: `/api/tasks/${taskId}/propose-time`, payload: { startsAt } });

describe("rescheduling", () => {
  it("is a proposal the other side declines (the old time stays) or accepts (the booking moves)", async () => {
    clock.set(START);
    const { poster, provider, task } = await booked("2026-06-02T14:00:00.000Z");

    expect((await propose(poster, task.id, "2026-06-03T18:00:00.000Z")).statusCode).toBe(200);
    expect(await noticesOf(provider.id, task.id, "time_proposed")).toHaveLength(1);
    // The proposer does not answer their own proposal.
    const own = await patch(poster, task.id, "accept-time");
    expect(own.statusCode).toBe(403);
    expect(own.json()).toEqual({ message: "You proposed this time. The other side accepts or declines it; you can propose another one." });

    expect((await patch(provider, task.id, "decline-time")).statusCode).toBe(200);
    const declined = await taskRow(t, task.id);
    expect(declined.scheduledDate?.toISOString()).toBe("2026-06-02T14:00:00.000Z");
    expect(declined.proposedStartAt).toBeNull();
    expect(await noticesOf(poster.id, task.id, "time_decided")).toHaveLength(1);
    // Nothing waits now.
    expect((await patch(provider, task.id, "accept-time")).json()).toEqual({ message: "No new time is waiting for an answer on this task." });

    // The provider proposes; the poster accepts: the task and its range on the calendar move.
    expect((await propose(provider, task.id, "2026-06-04T15:00:00.000Z")).statusCode).toBe(200);
    expect((await patch(poster, task.id, "accept-time")).statusCode).toBe(200);
    const moved = await taskRow(t, task.id);
    expect(moved.scheduledDate?.toISOString()).toBe("2026-06-04T15:00:00.000Z");
    const [range] = await t.database.db.select().from(providerBookings).where(eq(providerBookings.taskId, task.id));
    expect(range?.during).toContain("2026-06-04 15:00:00+00");
  });

  it("refuses a time that has passed, or that the provider's other booked task takes", async () => {
    clock.set(START);
    const { poster, provider, task } = await booked("2026-06-02T14:00:00.000Z");
    await booked("2026-06-05T14:00:00.000Z", provider);

    const past = await propose(poster, task.id, "2026-05-31T14:00:00.000Z");
    expect(past.statusCode).toBe(400);
    expect(past.json()).toMatchObject({ fieldErrors: { startsAt: "Choose a time that has not passed yet." } });

    const taken = await propose(poster, task.id, "2026-06-05T14:30:00.000Z");
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ message: "That time overlaps another task the provider has booked. Choose another of their free times." });
    const mine = await propose(provider, task.id, "2026-06-05T13:30:00.000Z");
    expect(mine.json()).toEqual({ message: "That time overlaps another task you've booked on Fri 5 Jun, 10:00–11:00 AM. Choose one of your free times." });
    expect((await taskRow(t, task.id)).proposedStartAt).toBeNull();
  });
});

describe('"on my way"', () => {
  it("tells the poster at once, with an arrival estimate from a position used once and not kept", async () => {
    clock.set(START);
    const { poster, provider, task } = await booked("2026-06-02T14:00:00.000Z");
    // Not before the poster pays: the provider does not know the address yet.
    const early = await call(t, provider, { method: "POST", url: `/api/tasks/${task.id}/on-my-way`, payload: {} });
    expect(early.statusCode).toBe(409);
    await pay(t, poster, task);

    clock.set(new Date("2026-06-02T13:30:00.000Z"));
    // About 10 miles away on the roads (the great circle × the road factor).
    const position = { lat: 39.09, lon: -76.55 };
    const res = await call(t, provider, { method: "POST", url: `/api/tasks/${task.id}/on-my-way`, payload: { position } });
    expect(res.statusCode, res.body).toBe(200);
    const row = await taskRow(t, task.id);
    expect(row.onMyWayAt?.toISOString()).toBe("2026-06-02T13:30:00.000Z");
    expect(row.arrivalEstimateAt).not.toBeNull();
    const minutes = ((row.arrivalEstimateAt?.getTime() ?? 0) - clock.now().getTime()) / 60_000;
    expect(minutes).toBeGreaterThan(15);
    expect(minutes).toBeLessThan(60);
    // The position itself is nowhere on the task.
    expect(JSON.stringify(row)).not.toContain("39.09");
    const [notice] = await noticesOf(poster.id, task.id, "provider_on_way");
    expect(notice?.body).toMatch(new RegExp(`is on the way to "Assemble a bookcase", about ${Math.round(minutes)} minutes away`));

    // Without a position: told at once, no estimate.
    expect((await call(t, provider, { method: "POST", url: `/api/tasks/${task.id}/on-my-way`, payload: {} })).statusCode).toBe(200);
    expect((await taskRow(t, task.id)).arrivalEstimateAt).toBeNull();
  });
});

describe("reminders", () => {
  it("go to both people the day before and the hour before, once each however often the job runs", async () => {
    clock.set(START);
    const { poster, provider, task } = await booked("2026-06-03T14:00:00.000Z");
    // The poster turned reminder e-mails off: the bell still rings.
    expect((await call(t, poster, { method: "PUT", url: "/api/notifications/preferences", payload: { email: { task_reminder: false } } })).statusCode).toBe(200);
    await pay(t, poster, task);

    // Other tests' tasks share the database: what this task got is counted by its markers and notices.
    const markers = async () => (await t.database.db.select().from(taskReminders).where(eq(taskReminders.taskId, task.id))).map((r) => `${r.kind} ${r.recipientId === poster.id ? "poster" : "provider"}`).sort();
    clock.set(new Date("2026-06-01T13:00:00.000Z"));
    await sendDueReminders(t.app.ctx);
    expect(await markers()).toEqual([]);

    // Tuesday 10:30 EDT: the day-before reminders; two instances run the job at once, then one again.
    clock.set(new Date("2026-06-02T14:30:00.000Z"));
    await Promise.all([sendDueReminders(t.app.ctx), sendDueReminders(t.app.ctx)]);
    await sendDueReminders(t.app.ctx);
    expect(await markers()).toEqual(["day_before poster", "day_before provider"]);
    const [toProvider, ...more] = await noticesOf(provider.id, task.id, "task_reminder");
    expect(more).toEqual([]);
    expect(toProvider?.body).toContain("Address: 12 Harbor Rd");
    expect(await noticesOf(poster.id, task.id, "task_reminder")).toHaveLength(1);

    // Wednesday 09:15 EDT: the hour-before ones.
    clock.set(new Date("2026-06-03T13:15:00.000Z"));
    await sendDueReminders(t.app.ctx);
    await sendDueReminders(t.app.ctx);
    expect(await markers()).toEqual(["day_before poster", "day_before provider", "hour_before poster", "hour_before provider"]);
    expect(await noticesOf(provider.id, task.id, "task_reminder")).toHaveLength(2);
    expect(await noticesOf(poster.id, task.id, "task_reminder")).toHaveLength(2);

    // The provider's reminder e-mails carry the invitation; the poster's were switched off.
    const mails = await t.database.db.select().from(emailOutbox).where(eq(emailOutbox.kind, "task_reminder"));
    const providerMails = mails.filter((m) => m.text.includes(task.id) && m.text.includes("On my way"));
    expect(providerMails).toHaveLength(2);
    expect(providerMails[0]?.attachments?.[0]).toMatchObject({ contentType: expect.stringContaining("text/calendar") });
    expect(mails.filter((m) => m.text.includes(task.id))).toHaveLength(2);
  });
});

describe("late and no-show", () => {
  it("offers the poster the choice 30 minutes after the start; a no-show is refunded in full and counted", async () => {
    clock.set(START);
    const { poster, provider, task } = await booked("2026-06-02T14:00:00.000Z");
    await pay(t, poster, task);

    clock.set(new Date("2026-06-02T14:20:00.000Z"));
    const early = await patch(poster, task.id, "report-no-show");
    expect(early.statusCode).toBe(409);
    expect(early.json()).toEqual({ message: "You can report a no-show 30 minutes after the start time, if work has not started by then." });

    clock.set(new Date("2026-06-02T14:31:00.000Z"));
    await sendDueReminders(t.app.ctx);
    const [late] = await noticesOf(poster.id, task.id, "provider_late");
    expect(late?.body).toContain("You can wait, propose a new time, or report a no-show");
    await sendDueReminders(t.app.ctx);
    expect(await noticesOf(poster.id, task.id, "provider_late")).toHaveLength(1);

    // The provider cannot report themselves.
    expect((await patch(provider, task.id, "report-no-show")).statusCode).toBe(403);
    const res = await patch(poster, task.id, "report-no-show");
    expect(res.statusCode, res.body).toBe(200);
    expect((await taskRow(t, task.id)).status).toBe("cancelled");
    const refunds = await t.database.db.select().from(ledgerTransactions).where(and(eq(ledgerTransactions.taskId, task.id), eq(ledgerTransactions.kind, "refund")));
    expect(refunds).toHaveLength(1);
    expect(await t.database.db.select().from(taskNoShows).where(eq(taskNoShows.providerId, provider.id))).toHaveLength(1);
    expect(await noticesOf(provider.id, task.id, "provider_no_show")).toHaveLength(1);
    expect(await t.database.db.select().from(providerBookings).where(eq(providerBookings.taskId, task.id))).toEqual([]);

    const profile = await call(t, poster, { url: `/api/users/${provider.id}/profile` });
    expect(profile.json()).toMatchObject({ claims: { noShows: 1, bookedStarts: 1, lateStarts: 0 } });
  });

  it("counts a start more than 15 minutes late on the profile", async () => {
    clock.set(START);
    const { poster, provider, task } = await booked("2026-06-02T14:00:00.000Z");
    await pay(t, poster, task);
    clock.set(new Date("2026-06-02T14:20:00.000Z"));
    expect((await patch(provider, task.id, "start")).statusCode).toBe(200);
    const profile = await call(t, poster, { url: `/api/users/${provider.id}/profile` });
    expect(profile.json()).toMatchObject({ claims: { noShows: 0, bookedStarts: 1, lateStarts: 1 } });
  });
});
