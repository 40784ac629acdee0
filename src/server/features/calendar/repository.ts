import { createHash, randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { WEEKDAYS } from "../../../shared/constants.js";
import {
  DEFAULT_MAX_TASKS_PER_DAY,
  DEFAULT_MIN_NOTICE_HOURS,
  EMPTY_WEEK,
  type CalendarAnswer,
  type CalendarSettings,
  type UpcomingItem,
  type WeeklyHours,
} from "../../../shared/calendar.js";
import { OFFICE_TIME_ZONE } from "../../../shared/office-clock.js";
import { bookingRangeSql, overlappingBooking, providerCalendarOf, type BookedRange } from "../../db/calendar.js";
import { isExclusionViolation, queryRows, type Db } from "../../db/client.js";
import { calendarFeeds, providerCalendars, providerDaysOff, providerHours, taskNoShows } from "../../db/schema/calendar.js";
import { tasks } from "../../db/schema/tasks.js";
import { feedSince, taskSpan, taskTimeZone } from "../../task-time.js";
import type { TaskRow } from "../../transition-actions.js";

// The calendar feature's reads and writes (docs/decisions/074-time-and-turning-up.md): a provider's
// settings, the booked ranges the task table's calendar.* actions write, the no-shows counted, and
// each person's feed token (kept as its SHA-256, like a session's).

const hhmm = (time: string) => time.slice(0, 5);

/** The provider's calendar as the settings form holds it; the defaults (their state's zone, no hours) until saved. */
export async function readCalendar(db: Db, userId: string, defaultZone: string | null): Promise<CalendarAnswer> {
  const [settings] = await db.select().from(providerCalendars).where(eq(providerCalendars.userId, userId));
  if (!settings) {
    return {
      timeZone: defaultZone ?? OFFICE_TIME_ZONE,
      weeklyHours: EMPTY_WEEK,
      daysOff: [],
      minNoticeHours: DEFAULT_MIN_NOTICE_HOURS,
      maxTasksPerDay: DEFAULT_MAX_TASKS_PER_DAY,
      instantBooking: false,
      updatedAt: null,
    };
  }
  const [hours, daysOff] = await Promise.all([
    db.select().from(providerHours).where(eq(providerHours.userId, userId)).orderBy(providerHours.weekday, providerHours.starts),
    db.select().from(providerDaysOff).where(eq(providerDaysOff.userId, userId)).orderBy(providerDaysOff.day),
  ]);
  const weeklyHours = Object.fromEntries(WEEKDAYS.map((day) => [day, [] as { from: string; to: string }[]])) as unknown as WeeklyHours;
  for (const h of hours) {
    const day = WEEKDAYS[h.weekday - 1];
    // 24:00 is how PostgreSQL keeps a window's end at midnight.
    if (day) weeklyHours[day].push({ from: hhmm(h.starts), to: hhmm(h.ends) });
  }
  return {
    timeZone: settings.timeZone,
    weeklyHours,
    daysOff: daysOff.map((d) => d.day),
    minNoticeHours: settings.minNoticeHours,
    maxTasksPerDay: settings.maxTasksPerDay,
    instantBooking: settings.instantBooking,
    updatedAt: settings.updatedAt.toISOString(),
  };
}

/** Replaces the whole calendar in one transaction. */
export async function writeCalendar(db: Db, userId: string, settings: CalendarSettings, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const values = {
      timeZone: settings.timeZone,
      minNoticeHours: settings.minNoticeHours,
      maxTasksPerDay: settings.maxTasksPerDay,
      instantBooking: settings.instantBooking,
      updatedAt: now,
    };
    await tx.insert(providerCalendars).values({ userId, ...values }).onConflictDoUpdate({ target: providerCalendars.userId, set: values });
    await tx.delete(providerHours).where(eq(providerHours.userId, userId));
    await tx.delete(providerDaysOff).where(eq(providerDaysOff.userId, userId));
    const hours = WEEKDAYS.flatMap((day, i) => settings.weeklyHours[day].map((w) => ({ userId, weekday: i + 1, starts: w.from, ends: w.to })));
    if (hours.length > 0) await tx.insert(providerHours).values(hours);
    if (settings.daysOff.length > 0) await tx.insert(providerDaysOff).values(settings.daysOff.map((day) => ({ userId, day })));
  });
}

/** Whether PostgreSQL knows the zone too (its time zone database may differ from the runtime's). */
export async function databaseKnowsZone(db: Db, timeZone: string): Promise<boolean> {
  const [row] = await queryRows<{ known: boolean }>(db, sql`select exists (select 1 from pg_timezone_names where name = ${timeZone}) as known`);
  return row?.known === true;
}

/** The overlap a booking met: its task and time; thrown from inside the savepoint that refused it. */
export class BookingOverlap extends Error {
  constructor(readonly taken: BookedRange | null) {
    super("the provider's calendar already holds a task at that time");
  }
}

/**
 * Puts the task's time on its provider's calendar (or moves it there): the row the exclusion
 * constraint checks against every other of the provider's ranges. In a savepoint, so the refusal
 * can be explained by reading what it overlapped; the caller's transaction then rolls back whole.
 */
export async function bookTaskTime(tx: Db, task: TaskRow): Promise<void> {
  const span = taskSpan(task);
  if (!span || task.providerId === null) return;
  const providerId = task.providerId;
  try {
    await tx.transaction(async (sp) => {
      await sp.execute(sql`insert into provider_bookings (task_id, provider_id, during)
        values (${task.id}::uuid, ${providerId}::uuid, ${bookingRangeSql(span.startsAt, task.durationMinutes)})
        on conflict (task_id) do update set provider_id = excluded.provider_id, during = excluded.during`);
    });
  } catch (err) {
    if (!isExclusionViolation(err)) throw err;
    throw new BookingOverlap(await overlappingBooking(tx, providerId, span.startsAt, task.durationMinutes, task.id));
  }
}

/** Takes the task's time off its provider's calendar (released, cancelled, done). */
export async function freeTaskTime(tx: Db, taskId: string): Promise<void> {
  await tx.execute(sql`delete from provider_bookings where task_id = ${taskId}::uuid`);
}

export async function findTaskRow(db: Db, taskId: string): Promise<TaskRow | null> {
  const [task] = await db.select().from(tasks).where(eq(tasks.id, taskId));
  return task ?? null;
}

/** The zone a provider reads times in: their calendar's, else the task's. */
export async function providerZone(db: Db, providerId: string, task: TaskRow): Promise<string> {
  return (await providerCalendarOf(db, providerId))?.timeZone ?? taskTimeZone(task);
}

export async function recordNoShow(tx: Db, task: TaskRow, now: Date): Promise<void> {
  if (task.providerId === null) return;
  await tx.insert(taskNoShows).values({ taskId: task.id, providerId: task.providerId, reportedAt: now }).onConflictDoNothing();
}

/**
 * A person's dated tasks from FEED_LOOKBACK_DAYS ago on: the ones they posted (not yet cancelled or
 * expired), the ones they work on, and requests waiting for their answer. Oldest first.
 */
export async function datedTasksOf(db: Db, userId: string, now: Date): Promise<TaskRow[]> {
  return db
    .select()
    .from(tasks)
    .where(
      and(
        sql`${tasks.scheduledDate} is not null`,
        sql`${tasks.scheduledDate} + make_interval(mins => ${tasks.durationMinutes}) >= ${feedSince(now).toISOString()}::timestamptz`,
        sql`(
          (${tasks.userId} = ${userId}::uuid and ${tasks.status} in ('open', 'requested', 'claimed', 'in_progress', 'completed'))
          or (${tasks.providerId} = ${userId}::uuid and ${tasks.status} in ('claimed', 'in_progress', 'completed'))
          or (${tasks.requestedProviderId} = ${userId}::uuid and ${tasks.status} = 'requested')
        )`,
      ),
    )
    .orderBy(tasks.scheduledDate)
    .limit(500);
}

/** One dated task as an item of GET /api/calendar/upcoming. */
export function upcomingItem(task: TaskRow, userId: string): UpcomingItem | null {
  const span = taskSpan(task);
  if (!span) return null;
  const claimed = task.status === "claimed";
  return {
    taskId: task.id,
    title: task.title,
    role: task.userId === userId ? "poster" : "provider",
    status: task.status,
    startsAt: span.startsAt.toISOString(),
    endsAt: span.endsAt.toISOString(),
    timeZone: taskTimeZone(task),
    proposedStartAt: claimed && task.proposedStartAt ? task.proposedStartAt.toISOString() : null,
    proposedByMe: claimed && task.proposedById === userId,
  };
}

// ---------------------------------------------------------------------------------------------
// Feeds

const hashFeedToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** A new secret token for the person's feed; any earlier one stops working at once. */
export async function resetFeed(db: Db, userId: string, now: Date): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const tokenHash = hashFeedToken(token);
  await db
    .insert(calendarFeeds)
    .values({ userId, tokenHash, createdAt: now })
    .onConflictDoUpdate({ target: calendarFeeds.userId, set: { tokenHash, createdAt: now } });
  return token;
}

export async function deleteFeed(db: Db, userId: string): Promise<void> {
  await db.delete(calendarFeeds).where(eq(calendarFeeds.userId, userId));
}

export async function feedOf(db: Db, userId: string): Promise<{ createdAt: Date } | null> {
  const [row] = await db.select({ createdAt: calendarFeeds.createdAt }).from(calendarFeeds).where(eq(calendarFeeds.userId, userId));
  return row ?? null;
}

/** Whose feed a token opens, or null for a token never made or since reset. */
export async function feedOwner(db: Db, token: string): Promise<string | null> {
  const [row] = await db.select({ userId: calendarFeeds.userId }).from(calendarFeeds).where(eq(calendarFeeds.tokenHash, hashFeedToken(token)));
  return row?.userId ?? null;
}
