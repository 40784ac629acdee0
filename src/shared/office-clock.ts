// The office's clock (docs/product.md#dates-and-hours): its time zone, where its calendar days
// start and its opening hours. Plain functions without zod, so a page that reads dates on the
// office's clock (the job board's "today", a task's scheduled date) does not load the contracts
// of site.ts with them (issue 17, docs/decisions/029-lighter-first-load.md).

/** The office is in Maryland: "no same-day appointments" means the office's calendar day. */
export const OFFICE_TIME_ZONE = "America/New_York";

/** Midnight at the start of the calendar day after `now`, in the given IANA time zone. */
export function startOfTomorrowIn(timeZone: string, now: Date): Date {
  return startOfDayIn(timeZone, now, 1);
}

/** Midnight at the start of the calendar day `days` after the one `now` falls on, in the given IANA time zone. */
export function startOfDayIn(timeZone: string, now: Date, days: number): Date {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "numeric", day: "numeric" })
    .formatToParts(now)
    .reduce<Record<string, number>>((acc, p) => (p.type === "literal" ? acc : { ...acc, [p.type]: Number(p.value) }), {});
  const wallMidnight = Date.UTC(parts.year ?? 0, (parts.month ?? 1) - 1, (parts.day ?? 1) + days);
  // Shift by the zone's offset at that moment; twice, in case the first guess crossed a DST change.
  let instant = wallMidnight - zoneOffsetMs(timeZone, new Date(wallMidnight));
  instant = wallMidnight - zoneOffsetMs(timeZone, new Date(instant));
  return new Date(instant);
}

/** How far the zone's wall clock is ahead of UTC at `at`, in milliseconds. */
export function zoneOffsetMs(timeZone: string, at: Date): number {
  const p = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  })
    .formatToParts(at)
    .reduce<Record<string, number>>((acc, x) => (x.type === "literal" ? acc : { ...acc, [x.type]: Number(x.value) }), {});
  const wall = Date.UTC(p.year ?? 0, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0, p.second ?? 0);
  return wall - Math.floor(at.getTime() / 1000) * 1000;
}

/** The start of tomorrow in the runtime's own time zone (the browser's, on the web). */
export function startOfTomorrowLocal(now: Date): Date {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
}

/** The office's opening hours, on its own clock (docs/product.md#dates-and-hours). */
export const OFFICE_HOURS = { from: 9, to: 18 } as const;

/** Minutes since midnight on the office's wall clock at `date`. */
function officeMinuteOfDay(date: Date): number {
  const wall = new Date(date.getTime() + zoneOffsetMs(OFFICE_TIME_ZONE, date));
  return wall.getUTCHours() * 60 + wall.getUTCMinutes();
}

/** Inside opening hours: 9:00 AM to 6:00 PM office time, 6:00 PM itself included. */
export function withinOfficeHours(date: Date): boolean {
  const minute = officeMinuteOfDay(date);
  return minute >= OFFICE_HOURS.from * 60 && minute <= OFFICE_HOURS.to * 60;
}
