import { sql } from "drizzle-orm";
import { SLOT_DAYS, SLOT_STEP_MINUTES } from "../../shared/calendar.js";
import { queryRows, type Db } from "./client.js";

// Reads of the providers' calendars that the tasks feature (a booking's and a proposal's guards)
// and the calendar feature (the free-slots route, the overlap's sentence) share: one SQL for what
// a free slot is, one for what overlaps (docs/decisions/074-time-and-turning-up.md). Slots are
// worked out in PostgreSQL, on the provider's own zone, with tstzrange against their booked ranges:
// its time zone rules make a window of "00:00 to 04:00" five hours long on the night clocks go back
// and three on the night they go forward.

export interface ProviderCalendarRow {
  timeZone: string;
  instantBooking: boolean;
}

export interface FreeSlot {
  startsAt: Date;
  endsAt: Date;
}

/** The SQL range of a task's time on a calendar: from its start, for its length, the end left open. */
export const bookingRangeSql = (startsAt: Date, durationMinutes: number) =>
  sql`tstzrange(${startsAt.toISOString()}::timestamptz, ${startsAt.toISOString()}::timestamptz + make_interval(mins => ${durationMinutes}::int), '[)')`;

/** The provider's calendar settings that a booking reads, or null when they never saved one. */
export async function providerCalendarOf(db: Db, providerId: string): Promise<ProviderCalendarRow | null> {
  const [row] = await queryRows<{ time_zone: string; instant_booking: boolean }>(
    db,
    sql`select time_zone, instant_booking from provider_calendars where user_id = ${providerId}::uuid`,
  );
  return row ? { timeZone: row.time_zone, instantBooking: row.instant_booking } : null;
}

/**
 * The provider's free slots of `durationMinutes` over the next SLOT_DAYS days of their clock: every
 * SLOT_STEP_MINUTES from the start of each working window of their weekly hours, wholly inside it,
 * not on a day off, at least their notice after `now`, overlapping none of their booked ranges, on
 * a day with fewer booked tasks than their daily most. Earliest first.
 */
export async function freeSlots(db: Db, providerId: string, durationMinutes: number, now: Date): Promise<FreeSlot[]> {
  const rows = await queryRows<{ starts: Date | string; ends: Date | string }>(
    db,
    sql`with cal as (
          select c.user_id, c.time_zone as tz, c.min_notice_hours, c.max_tasks_per_day
          from provider_calendars c where c.user_id = ${providerId}::uuid
        ), days as (
          select cal.*, d::date as day
          from cal, generate_series((${now.toISOString()}::timestamptz at time zone cal.tz)::date,
                                    (${now.toISOString()}::timestamptz at time zone cal.tz)::date + ${SLOT_DAYS - 1}::int, interval '1 day') d
        ), windows as (
          select days.*, (days.day + h.starts) at time zone days.tz as ws, (days.day + h.ends) at time zone days.tz as we
          from days join provider_hours h on h.user_id = days.user_id and h.weekday = extract(isodow from days.day)
          where not exists (select 1 from provider_days_off o where o.user_id = days.user_id and o.day = days.day)
        ), candidates as (
          select w.user_id, w.day, w.tz, w.max_tasks_per_day, s as starts, s + make_interval(mins => ${durationMinutes}::int) as ends
          from windows w, generate_series(w.ws, w.we - make_interval(mins => ${durationMinutes}::int), make_interval(mins => ${SLOT_STEP_MINUTES}::int)) s
          where s >= ${now.toISOString()}::timestamptz + make_interval(hours => w.min_notice_hours)
        )
        select c.starts, c.ends
        from candidates c
        where not exists (select 1 from provider_bookings b where b.provider_id = c.user_id and b.during && tstzrange(c.starts, c.ends, '[)'))
          and (select count(*) from provider_bookings b where b.provider_id = c.user_id and (lower(b.during) at time zone c.tz)::date = c.day) < c.max_tasks_per_day
        order by c.starts`,
  );
  return rows.map((r) => ({ startsAt: new Date(r.starts), endsAt: new Date(r.ends) }));
}

export interface BookedRange {
  taskId: string;
  startsAt: Date;
  endsAt: Date;
}

/** A booked task of the provider's (another than `exceptTaskId`) whose time overlaps the range; null when none. */
export async function overlappingBooking(db: Db, providerId: string, startsAt: Date, durationMinutes: number, exceptTaskId: string | null): Promise<BookedRange | null> {
  const [row] = await queryRows<{ task_id: string; starts: Date | string; ends: Date | string }>(
    db,
    sql`select b.task_id, lower(b.during) as starts, upper(b.during) as ends
        from provider_bookings b
        where b.provider_id = ${providerId}::uuid and b.during && ${bookingRangeSql(startsAt, durationMinutes)}
          and (${exceptTaskId}::uuid is null or b.task_id <> ${exceptTaskId}::uuid)
        order by lower(b.during) limit 1`,
  );
  return row ? { taskId: row.task_id, startsAt: new Date(row.starts), endsAt: new Date(row.ends) } : null;
}
