// Dates as the app shows them, on the reader's clock (docs/product.md#web-app). These replace
// date-fns's format and formatDistance, whose English locale tables came to 6 KB of the job board's
// and every task page's first load (issue 17, docs/decisions/042-landing-under-90-kb.md); dates.test.ts
// holds both to date-fns's answers for every pattern the app writes, in several time zones; the
// version they mirror and how to upgrade: docs/decisions/046-libraries-written-by-hand.md.

// The names come from the platform (docs/decisions/046-libraries-written-by-hand.md): English, as
// date-fns's default locale, read at noon UTC of days whose month and weekday are known.
const nameOf = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat("en-US", { ...options, timeZone: "UTC" });
const MONTHS = Array.from({ length: 12 }, (_, month) => nameOf({ month: "long" }).format(Date.UTC(2026, month, 1, 12)));
// 2026-11-01 was a Sunday.
const WEEKDAYS = Array.from({ length: 7 }, (_, day) => nameOf({ weekday: "short" }).format(Date.UTC(2026, 10, 1 + day, 12)));

const pad = (value: number, width = 2) => String(value).padStart(width, "0");

function offset(date: Date): string {
  const minutes = -date.getTimezoneOffset();
  const sign = minutes < 0 ? "-" : "+";
  return `${sign}${pad(Math.floor(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;
}

/** What each token of date-fns's format that the app uses prints. */
const TOKENS: Record<string, (date: Date) => string> = {
  yyyy: (date) => pad(date.getFullYear(), 4),
  MMMM: (date) => MONTHS[date.getMonth()] ?? "",
  MMM: (date) => (MONTHS[date.getMonth()] ?? "").slice(0, 3),
  MM: (date) => pad(date.getMonth() + 1),
  dd: (date) => pad(date.getDate()),
  d: (date) => String(date.getDate()),
  EEE: (date) => WEEKDAYS[date.getDay()] ?? "",
  HH: (date) => pad(date.getHours()),
  h: (date) => String(date.getHours() % 12 || 12),
  mm: (date) => pad(date.getMinutes()),
  ss: (date) => pad(date.getSeconds()),
  a: (date) => (date.getHours() < 12 ? "AM" : "PM"),
  xxx: offset,
};

/**
 * `date` in a date-fns pattern ("MMM d, yyyy 'at' h:mm a"): runs of one letter are tokens, text in
 * single quotes is printed as it is. A token the table lacks throws, so a new pattern fails its test.
 */
export function formatDate(date: Date, pattern: string): string {
  return pattern.replace(/'([^']*)'|([A-Za-z])\2*/g, (token: string, quoted: string | undefined) => {
    if (quoted !== undefined) return quoted;
    const print = TOKENS[token];
    if (!print) throw new Error(`formatDate: no token ${token}`);
    return print(date);
  });
}

const MINUTES_IN_DAY = 1440;
const MINUTES_IN_MONTH = 43200;

/** The zone's offset from UTC at `date`, to the second, as date-fns counts it. */
function zoneOffsetMs(date: Date): number {
  const utc = new Date(Date.UTC(date.getFullYear(), date.getMonth(), date.getDate(), date.getHours(), date.getMinutes(), date.getSeconds(), date.getMilliseconds()));
  utc.setUTCFullYear(date.getFullYear());
  return date.getTime() - utc.getTime();
}

/** Whole calendar months from `earlier` to `later` (later after earlier), the last counted only when full. */
function fullMonthsBetween(later: Date, earlier: Date): number {
  const months = (later.getFullYear() - earlier.getFullYear()) * 12 + later.getMonth() - earlier.getMonth();
  if (months < 1) return 0;
  const moved = new Date(later.getTime());
  if (moved.getMonth() === 1 && moved.getDate() > 27) moved.setDate(30);
  moved.setMonth(moved.getMonth() - months);
  // date-fns also counts a one-month span ending on a month's last day as full; timeAgo asks only
  // from 60 days up, never one calendar month, so that rule is left out.
  return moved.getTime() < earlier.getTime() ? months - 1 : months;
}

const count = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;

/** How long ago (or how soon) `when` is from `now`, in date-fns's words: "about 3 hours ago", "in 2 days". */
export function timeAgo(when: Date, now: Date = new Date()): string {
  const ahead = when.getTime() > now.getTime();
  const [later, earlier] = ahead ? [when, now] : [now, when];
  const seconds = Math.trunc((later.getTime() - earlier.getTime()) / 1000) || 0;
  const minutes = Math.round((seconds - (zoneOffsetMs(later) - zoneOffsetMs(earlier)) / 1000) / 60);
  let words: string;
  if (minutes < 1) words = "less than a minute";
  else if (minutes < 45) words = count(minutes, "minute");
  else if (minutes < 90) words = "about 1 hour";
  else if (minutes < MINUTES_IN_DAY) words = `about ${count(Math.round(minutes / 60), "hour")}`;
  else if (minutes < 2520) words = "1 day";
  else if (minutes < MINUTES_IN_MONTH) words = count(Math.round(minutes / MINUTES_IN_DAY), "day");
  else if (minutes < MINUTES_IN_MONTH * 2) words = `about ${count(Math.round(minutes / MINUTES_IN_MONTH), "month")}`;
  else {
    const months = fullMonthsBetween(later, earlier);
    const years = Math.trunc(months / 12);
    if (months < 12) words = count(Math.round(minutes / MINUTES_IN_MONTH), "month");
    else if (months % 12 < 3) words = `about ${count(years, "year")}`;
    else if (months % 12 < 9) words = `over ${count(years, "year")}`;
    else words = `almost ${count(years + 1, "year")}`;
  }
  return ahead ? `in ${words}` : `${words} ago`;
}
