import { z } from "zod";
import { isoDateTimeSchema, latSchema, lonSchema } from "./common.js";
import { WEEKDAYS, type Weekday } from "./constants.js";
import { zoneOffsetMs } from "./office-clock.js";
import { NO_SHOW_AFTER_MINUTES } from "./task-lifecycle.js";
import type { US_STATES } from "./us-states.js";

// Time and turning up (docs/product.md, "Time and turning up"; docs/decisions/074-time-and-turning-up.md):
// a provider's calendar (weekly hours in their time zone, days off, notice, tasks a day, instant
// booking), the free slots a poster books from, rescheduling, "on my way", reminders and calendar
// feeds. The contracts of their routes, the rule of a task's expected length, and the words that
// say a time, written once for the server and the web.

/** How far ahead free slots are offered: the next two weeks. */
export const SLOT_DAYS = 14;
/** Free slots start on the half hour of the provider's clock. */
export const SLOT_STEP_MINUTES = 30;
/** A task's expected length, in quarter hours: at least 15 minutes, at most 12 hours. */
export const DURATION_STEP_MINUTES = 15;
export const MIN_DURATION_MINUTES = 15;
export const MAX_DURATION_MINUTES = 12 * 60;
/** Used when no estimate and no reading gives a length (and for tasks posted before lengths were kept). */
export const DEFAULT_DURATION_MINUTES = 60;

export const DEFAULT_MIN_NOTICE_HOURS = 24;
export const MAX_MIN_NOTICE_HOURS = 14 * 24;
export const DEFAULT_MAX_TASKS_PER_DAY = 3;
export const MAX_TASKS_PER_DAY = 20;
/** Working windows one weekday may have (a morning and an afternoon, and a little more). */
export const MAX_WINDOWS_PER_DAY = 4;
export const MAX_DAYS_OFF = 120;

/** Reminders before a booked task's start: the day before and the hour before (docs/product.md, "Time and turning up"). */
export const REMINDER_KINDS = ["day_before", "hour_before"] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];
export const REMINDER_LEAD_MINUTES: Record<ReminderKind, number> = { day_before: 24 * 60, hour_before: 60 };
/** A provider who starts this long after the booked start counts as late on their profile. */
export const LATE_AFTER_MINUTES = 15;
export { NO_SHOW_AFTER_MINUTES };
/**
 * "On my way": without ROUTING_URL the distance is the great circle × the road factor, driven at
 * this speed, a middle figure for town streets with lights (docs/decisions/074-time-and-turning-up.md).
 */
export const URBAN_SPEED_MPH = 25;
/** A calendar feed carries the tasks of the last 30 days as well as the upcoming ones. */
export const FEED_LOOKBACK_DAYS = 30;

// ---------------------------------------------------------------------------------------------
// Time zones

/** Whether the runtime's time zone database knows `name` (an IANA zone such as "America/New_York"). */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{1,63}$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

type StateCode = (typeof US_STATES)[number]["code"];

/**
 * Each state's zone, where most of its people live: the fallback when a task has no position to
 * look its zone up by (the server looks positions up offline first; docs/decisions/074).
 */
export const STATE_TIME_ZONES: Record<StateCode, string> = {
  AL: "America/Chicago", AK: "America/Anchorage", AS: "Pacific/Pago_Pago", AZ: "America/Phoenix", AR: "America/Chicago",
  CA: "America/Los_Angeles", CO: "America/Denver", CT: "America/New_York", DE: "America/New_York", DC: "America/New_York",
  FL: "America/New_York", GA: "America/New_York", GU: "Pacific/Guam", HI: "Pacific/Honolulu", ID: "America/Boise",
  IL: "America/Chicago", IN: "America/Indiana/Indianapolis", IA: "America/Chicago", KS: "America/Chicago", KY: "America/New_York",
  LA: "America/Chicago", ME: "America/New_York", MD: "America/New_York", MA: "America/New_York", MI: "America/Detroit",
  MN: "America/Chicago", MS: "America/Chicago", MO: "America/Chicago", MT: "America/Denver", NE: "America/Chicago",
  NV: "America/Los_Angeles", NH: "America/New_York", NJ: "America/New_York", NM: "America/Denver", NY: "America/New_York",
  NC: "America/New_York", ND: "America/Chicago", MP: "Pacific/Saipan", OH: "America/New_York", OK: "America/Chicago",
  OR: "America/Los_Angeles", PA: "America/New_York", PR: "America/Puerto_Rico", RI: "America/New_York", SC: "America/New_York",
  SD: "America/Chicago", TN: "America/Chicago", TX: "America/Chicago", VI: "America/St_Thomas", UT: "America/Denver",
  VT: "America/New_York", VA: "America/New_York", WA: "America/Los_Angeles", WV: "America/New_York", WI: "America/Chicago",
  WY: "America/Denver",
};

export function stateTimeZone(state: string | null | undefined): string | null {
  if (!state) return null;
  return (STATE_TIME_ZONES as Record<string, string | undefined>)[state.toUpperCase()] ?? null;
}

/**
 * The instant(s) a wall-clock time names in a zone: one on most days, two in the hour clocks go back
 * (the earlier first), none in the hour they go forward ("2027-03-14", "02:30" in America/New_York).
 * A form that asks for a local time says which case it met instead of guessing.
 */
export function localTimeInstants(date: string, time: string, timeZone: string): Date[] {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  if (!d || !t) return [];
  const wall = Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3]), Number(t[1]), Number(t[2]));
  // Date.UTC rolls "2026-13-01" or "24:00" over into another day: such a date or time names no instant.
  if (new Date(wall).toISOString().slice(0, 16) !== `${date}T${time}`) return [];
  const found = new Set<number>();
  // A zone's offset around the time is one of the offsets half a day either side of it.
  for (const probe of [wall - 14 * 3_600_000, wall, wall + 14 * 3_600_000]) {
    const instant = wall - zoneOffsetMs(timeZone, new Date(probe));
    if (zoneOffsetMs(timeZone, new Date(instant)) === wall - instant) found.add(instant);
  }
  return [...found].sort((a, b) => a - b).map((ms) => new Date(ms));
}

/** The date ("2026-12-09") and the weekday `at` falls on in `timeZone`. */
export function localDate(at: Date, timeZone: string): { date: string; weekday: Weekday } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "2-digit", day: "2-digit", weekday: "long" })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, weekday: (parts.weekday ?? "").toLowerCase() as Weekday };
}

// ---------------------------------------------------------------------------------------------
// Saying a time: "Tue 9 Dec, 2:00–4:00 PM"

function dayWords(at: Date, timeZone: string): string {
  const p = Object.fromEntries(new Intl.DateTimeFormat("en-US", { timeZone, weekday: "short", day: "numeric", month: "short" }).formatToParts(at).map((x) => [x.type, x.value]));
  return `${p.weekday} ${p.day} ${p.month}`;
}

function clockWords(at: Date, timeZone: string): { time: string; period: string } {
  const p = Object.fromEntries(new Intl.DateTimeFormat("en-US", { timeZone, hour: "numeric", minute: "2-digit", hour12: true }).formatToParts(at).map((x) => [x.type, x.value]));
  return { time: `${p.hour}:${p.minute}`, period: p.dayPeriod ?? "" };
}

function zoneWords(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "short" }).formatToParts(at).find((p) => p.type === "timeZoneName")?.value ?? timeZone;
}

/**
 * A span as people say it, on `timeZone`'s clock: "Tue 9 Dec, 2:00–4:00 PM", "Tue 9 Dec, 11:00 AM–1:00 PM",
 * across midnight "Tue 9 Dec, 11:00 PM – Wed 10 Dec, 1:00 AM"; `withZone` adds the zone ("EST").
 */
export function formatTimeRange(start: Date, end: Date, timeZone: string, options: { withZone?: boolean } = {}): string {
  const from = clockWords(start, timeZone);
  const to = clockWords(end, timeZone);
  const zone = options.withZone ? ` ${zoneWords(end, timeZone)}` : "";
  const startDay = dayWords(start, timeZone);
  const endDay = dayWords(end, timeZone);
  if (startDay !== endDay) return `${startDay}, ${from.time} ${from.period} – ${endDay}, ${to.time} ${to.period}${zone}`;
  if (from.period === to.period) return `${startDay}, ${from.time}–${to.time} ${to.period}${zone}`;
  return `${startDay}, ${from.time} ${from.period}–${to.time} ${to.period}${zone}`;
}

/** An instant as people say it: "Tue 9 Dec, 2:00 PM" (with the zone when asked: "Tue 9 Dec, 2:00 PM EST"). */
export function formatDateTime(at: Date, timeZone: string, options: { withZone?: boolean } = {}): string {
  const { time, period } = clockWords(at, timeZone);
  return `${dayWords(at, timeZone)}, ${time} ${period}${options.withZone ? ` ${zoneWords(at, timeZone)}` : ""}`;
}

// ---------------------------------------------------------------------------------------------
// A task's expected length

/** The poster's estimate on the form, in hours (quarter hours, 15 minutes to 12 hours). */
export const estimatedHoursSchema = z
  .number({ error: "Say how long it takes in hours, such as 1.5" })
  .min(MIN_DURATION_MINUTES / 60, { error: "How long it takes: at least a quarter of an hour (0.25)" })
  .max(MAX_DURATION_MINUTES / 60, { error: "How long it takes: at most 12 hours. Split a longer job into several tasks." })
  .refine((h) => Number.isInteger(h * 4), { error: "How long it takes: in quarter hours, such as 1.25 or 2.5" });

// ---------------------------------------------------------------------------------------------
// The provider's calendar: GET and PUT /api/calendar

const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

const clockTimeSchema = (field: string, allowMidnightEnd: boolean) =>
  z
    .string({ error: `${field} is required` })
    .regex(allowMidnightEnd ? /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/ : /^([01]\d|2[0-3]):[0-5]\d$/, { error: `${field}: write the time as HH:MM on a 24-hour clock, such as 09:00 or 17:30` })
    .refine((v) => minutesOf(v) % DURATION_STEP_MINUTES === 0, { error: `${field}: choose a time on the quarter hour (:00, :15, :30 or :45)` });

/** One working window of a weekday, on the provider's clock: "09:00" to "12:30" ("24:00" ends at midnight). */
export const hoursWindowSchema = z
  .object({ from: clockTimeSchema("From", false), to: clockTimeSchema("To", true) })
  .refine((w) => minutesOf(w.from) < minutesOf(w.to), { path: ["to"], error: "The end must be after the start" });

const dayHoursSchema = z
  .array(hoursWindowSchema)
  .max(MAX_WINDOWS_PER_DAY, { error: `A day can have at most ${MAX_WINDOWS_PER_DAY} working windows` })
  .default([])
  .superRefine((windows, ctx) => {
    const sorted = windows.map((w, i) => ({ ...w, i })).sort((a, b) => minutesOf(a.from) - minutesOf(b.from));
    for (let k = 1; k < sorted.length; k++) {
      const prev = sorted[k - 1];
      const cur = sorted[k];
      if (prev && cur && minutesOf(cur.from) < minutesOf(prev.to)) {
        ctx.addIssue({ code: "custom", path: [cur.i, "from"], message: "This window overlaps another one of the same day. Join them into one." });
      }
    }
  });

/** Working windows per weekday; a day without windows is not worked. */
export const weeklyHoursSchema = z.object({
  monday: dayHoursSchema,
  tuesday: dayHoursSchema,
  wednesday: dayHoursSchema,
  thursday: dayHoursSchema,
  friday: dayHoursSchema,
  saturday: dayHoursSchema,
  sunday: dayHoursSchema,
});
export type WeeklyHours = z.output<typeof weeklyHoursSchema>;

export const EMPTY_WEEK: WeeklyHours = Object.fromEntries(WEEKDAYS.map((d) => [d, []])) as unknown as WeeklyHours;

/** PUT /api/calendar: the whole calendar, as the settings form holds it. */
export const calendarSettingsSchema = z.object({
  timeZone: z
    .string({ error: "Choose your time zone" })
    .trim()
    .refine(isTimeZone, { error: "Choose your time zone from the list, such as America/New_York" }),
  weeklyHours: weeklyHoursSchema,
  daysOff: z
    .array(z.iso.date({ error: "Each day off is a date such as 2026-12-24" }))
    .max(MAX_DAYS_OFF, { error: `Keep at most ${MAX_DAYS_OFF} days off; remove past ones first` })
    .default([])
    .transform((days) => [...new Set(days)].sort()),
  minNoticeHours: z
    .number({ error: "Notice is a number of hours" })
    .int({ error: "Notice is a whole number of hours" })
    .min(0, { error: "Notice cannot be negative" })
    .max(MAX_MIN_NOTICE_HOURS, { error: `Notice is at most ${MAX_MIN_NOTICE_HOURS} hours (two weeks)` })
    .default(DEFAULT_MIN_NOTICE_HOURS),
  maxTasksPerDay: z
    .number({ error: "Tasks a day is a number" })
    .int({ error: "Tasks a day is a whole number" })
    .min(1, { error: "Take at least 1 task a day, or leave the week without hours" })
    .max(MAX_TASKS_PER_DAY, { error: `At most ${MAX_TASKS_PER_DAY} tasks a day` })
    .default(DEFAULT_MAX_TASKS_PER_DAY),
  instantBooking: z.boolean({ error: "Instant booking is on or off" }).default(false),
});
export type CalendarSettingsBody = z.input<typeof calendarSettingsSchema>;
export type CalendarSettings = z.output<typeof calendarSettingsSchema>;

/** GET /api/calendar: the settings (the defaults until saved once). */
export const calendarAnswerSchema = z.object({
  timeZone: z.string(),
  weeklyHours: weeklyHoursSchema,
  daysOff: z.array(z.string()),
  minNoticeHours: z.number().int(),
  maxTasksPerDay: z.number().int(),
  instantBooking: z.boolean(),
  /** When the provider last saved it; null while it holds the defaults. */
  updatedAt: z.string().nullable(),
});
export type CalendarAnswer = z.infer<typeof calendarAnswerSchema>;

/** The message a non-provider reads: a calendar is what posters book from. */
export const CALENDAR_FOR_PROVIDERS = "A calendar is for verified providers: posters book your free time from it. Apply to become a provider first.";

// ---------------------------------------------------------------------------------------------
// Free slots: GET /api/providers/{id}/slots

export const slotsQuerySchema = z.object({
  durationMinutes: z.coerce
    .number({ error: "durationMinutes must be a number of minutes" })
    .int({ error: "durationMinutes must be a whole number of minutes" })
    .min(MIN_DURATION_MINUTES, { error: `durationMinutes must be at least ${MIN_DURATION_MINUTES}` })
    .max(MAX_DURATION_MINUTES, { error: `durationMinutes must be at most ${MAX_DURATION_MINUTES}` })
    .refine((m) => m % DURATION_STEP_MINUTES === 0, { error: `durationMinutes must be a multiple of ${DURATION_STEP_MINUTES}` })
    .default(DEFAULT_DURATION_MINUTES),
});

export const slotSchema = z.object({ startsAt: z.string(), endsAt: z.string() });
export type Slot = z.infer<typeof slotSchema>;

export const slotsAnswerSchema = z.object({
  providerId: z.uuid(),
  /** The provider's zone, the clock their hours are kept on; null while they have not set a calendar. */
  timeZone: z.string().nullable(),
  durationMinutes: z.number().int(),
  /** Whether choosing a slot claims the task at once (else it is sent as a request with the time). */
  instantBooking: z.boolean(),
  slots: z.array(slotSchema),
});
export type SlotsAnswer = z.infer<typeof slotsAnswerSchema>;

/** A booking's chosen time is no longer one of the provider's free slots (taken meanwhile, or never offered). */
export const SLOT_TAKEN_MESSAGE = "That time is no longer free on the provider's calendar. Choose another of their free times.";

// ---------------------------------------------------------------------------------------------
// Rescheduling and "on my way"

/** POST /api/tasks/{id}/propose-time: the new start, with the offset of the proposer's clock. */
export const proposeTimeBodySchema = z.object({
  startsAt: isoDateTimeSchema.describe("The new start, such as 2026-12-09T14:00:00-05:00"),
});
export type ProposeTimeBody = z.infer<typeof proposeTimeBodySchema>;

export const PROPOSAL_IN_PAST = "Choose a time that has not passed yet.";

/**
 * POST /api/tasks/{id}/on-my-way: the provider's position, only when they chose to share it for an
 * arrival estimate. Used once for the estimate and never stored (docs/decisions/074).
 */
export const onMyWayBodySchema = z.object({
  position: z
    .object({ lat: latSchema, lon: lonSchema })
    .nullable()
    .optional()
    .describe("Shared once for the arrival estimate; not kept"),
});
export type OnMyWayBody = z.infer<typeof onMyWayBodySchema>;

// ---------------------------------------------------------------------------------------------
// What a person has coming, and their calendar feed

export const upcomingItemSchema = z.object({
  taskId: z.uuid(),
  title: z.string(),
  /** The person's side of the task. */
  role: z.enum(["poster", "provider"]),
  status: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  /** The task's place's zone: the clock its time was set on. */
  timeZone: z.string(),
  /** A new time one side proposed and the other has not answered; null when none. */
  proposedStartAt: z.string().nullable(),
  proposedByMe: z.boolean(),
});
export type UpcomingItem = z.infer<typeof upcomingItemSchema>;

/** GET /api/calendar/upcoming: the person's dated tasks, as poster or provider, oldest first. */
export const upcomingAnswerSchema = z.object({ items: z.array(upcomingItemSchema) });

/** GET /api/calendar/feed: whether the person has a feed address (the address itself is shown only when made). */
export const feedStateSchema = z.object({ feed: z.object({ createdAt: z.string() }).nullable() });

/** POST /api/calendar/feed: a new secret address; any earlier one stops working. */
export const feedCreatedSchema = z.object({ url: z.string(), createdAt: z.string() });
export const feedTokenParamsSchema = z.object({ token: z.string().min(1).max(200) });

/**
 * The refusal of a time that overlaps another task booked on the provider's calendar (the database
 * refuses the overlap; decision 074). The provider reads when their other task is, on their clock;
 * the poster is told only that the time is taken, never another person's task.
 */
export function overlapRefusal(reader: "provider" | "poster", what: "claim" | "time" | "offer", when: string): string {
  if (reader === "poster") {
    return what === "offer"
      ? "This provider has another task booked at this task's time, so their offer cannot be accepted now. Choose another offer, or change the task's date."
      : "That time overlaps another task the provider has booked. Choose another of their free times.";
  }
  return what === "claim"
    ? `This task's time overlaps another task you've booked on ${when}. Claim tasks at other times, or release or reschedule that task first.`
    : `That time overlaps another task you've booked on ${when}. Choose one of your free times.`;
}
