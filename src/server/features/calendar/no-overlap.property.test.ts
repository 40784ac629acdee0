import { eq, inArray, and } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { providerBookings } from "../../db/schema/calendar.js";
import { tasks } from "../../db/schema/tasks.js";
import { call, TestClock, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import { createPoster, createProvider } from "../../../../test/fixtures/factory.js";

// Random sequences of claims, bookings, reschedules and cancellations never leave a provider with
// two tasks whose times overlap (docs/decisions/074-time-and-turning-up.md): whatever the routes
// accept or refuse, the provider's live tasks and their booked ranges stay apart.

const clock = new TestClock(new Date("2026-06-01T12:00:00.000Z"));
const t = await useTestApp({}, clock);

/** Tuesday 2 June, 08:00 EDT, plus half hours. */
const startAt = (halfHours: number) => new Date(Date.UTC(2026, 5, 2, 12, 0) + halfHours * 30 * 60_000).toISOString();

const command = fc.oneof(
  fc.record({ kind: fc.constant("claim" as const), at: fc.integer({ min: 0, max: 16 }), hours: fc.constantFrom(1, 2) }),
  fc.record({ kind: fc.constant("book" as const), at: fc.integer({ min: 0, max: 16 }), hours: fc.constantFrom(1, 2) }),
  fc.record({ kind: fc.constant("reschedule" as const), pick: fc.nat(), at: fc.integer({ min: 0, max: 16 }) }),
  fc.record({ kind: fc.constant("cancel" as const), pick: fc.nat() }),
);

const DAY = [{ from: "08:00", to: "20:00" }];

async function liveTasks(provider: TestUser) {
  return t.database.db
    .select({ id: tasks.id, start: tasks.scheduledDate, minutes: tasks.durationMinutes })
    .from(tasks)
    .where(and(eq(tasks.providerId, provider.id), inArray(tasks.status, ["claimed", "in_progress"])));
}

describe("a provider's calendar", () => {
  it("never holds two overlapping tasks, whatever claims, bookings, reschedules and cancellations ran", async () => {
    const poster = await createPoster(t);
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 3, maxLength: 10 }), async (commands) => {
        const provider = await createProvider(t);
        const week = { monday: DAY, tuesday: DAY, wednesday: DAY, thursday: DAY, friday: DAY, saturday: DAY, sunday: DAY };
        await call(t, provider, { method: "PUT", url: "/api/calendar", payload: { timeZone: "America/New_York", weeklyHours: week, minNoticeHours: 0, maxTasksPerDay: 20, instantBooking: true } });
        const body = (hours: number) => ({ title: "Carry boxes", description: "Boxes to the attic", category: "other", budget: 40, location: "1 Main St", city: "Annapolis", state: "MD", estimatedHours: hours });
        for (const c of commands) {
          const mine = await liveTasks(provider);
          let res;
          if (c.kind === "claim") {
            const posted = await call(t, poster, { method: "POST", url: "/api/tasks", payload: { ...body(c.hours), scheduledDate: startAt(c.at) } });
            res = await call(t, provider, { method: "PATCH", url: `/api/tasks/${posted.json<{ id: string }>().id}/claim` });
          } else if (c.kind === "book") {
            res = await call(t, poster, { method: "POST", url: "/api/tasks", payload: { ...body(c.hours), request: { providerId: provider.id, startsAt: startAt(c.at) } } });
          } else if (mine.length > 0) {
            const task = mine[c.pick % mine.length];
            if (c.kind === "cancel") {
              res = await call(t, poster, { method: "PATCH", url: `/api/tasks/${task?.id}/cancel` });
            } else {
              // The provider proposes, the poster accepts: the booked range moves or the answer is refused.
              await call(t, provider, { method: "POST", url: `/api/tasks/${task?.id}/propose-time`, payload: { startsAt: startAt(c.at) } });
              res = await call(t, poster, { method: "PATCH", url: `/api/tasks/${task?.id}/accept-time` });
            }
          }
          if (res) expect(res.statusCode, res.body).toBeLessThan(500);

          const live = (await liveTasks(provider)).flatMap((x) => (x.start ? [{ id: x.id, from: x.start.getTime(), to: x.start.getTime() + x.minutes * 60_000 }] : []));
          for (const a of live) for (const b of live) if (a.id < b.id) expect(a.from < b.to && b.from < a.to, `${a.id} and ${b.id} overlap`).toBe(false);
          // Each live dated task is on the calendar, and nothing else is.
          const booked = await t.database.db.select({ taskId: providerBookings.taskId }).from(providerBookings).where(eq(providerBookings.providerId, provider.id));
          expect(booked.map((b) => b.taskId).sort()).toEqual(live.map((x) => x.id).sort());
        }
      }),
      { numRuns: 6, seed: 20_261_207 },
    );
  }, 240_000);
});
