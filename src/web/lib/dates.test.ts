/// <reference types="node" />
// (These tests read the source tree with node:fs and set the process's time zone.)
import { readFileSync } from "node:fs";
import { format, formatDistance } from "date-fns";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { sourceFiles } from "@/testing/source-files";
import { formatDate, timeAgo } from "./dates";

// formatDate() and timeAgo() replaced date-fns to lighten the task pages' first load
// (docs/decisions/042-landing-under-90-kb.md). These tests hold them to date-fns's answers for every
// pattern the app passes, in zones with summer time, half and quarter hours, and none.

/** Each zone, with its offset from UTC on July 1st in minutes as getTimezoneOffset() counts it. */
const JULY_OFFSETS: Record<string, number> = {
  "America/New_York": 240,
  "America/Los_Angeles": 420,
  "Asia/Kolkata": -330,
  "Pacific/Chatham": -765,
  "Australia/Lord_Howe": -630,
  UTC: 0,
};
const ZONES = Object.keys(JULY_OFFSETS);

/** Puts the process on `zone`'s clock, and checks that it took. */
function useZone(zone: string) {
  process.env.TZ = zone;
  expect(new Date(Date.UTC(2026, 6, 1)).getTimezoneOffset()).toBe(JULY_OFFSETS[zone]);
}
const startingZone = process.env.TZ;
afterAll(() => {
  if (startingZone === undefined) delete process.env.TZ;
  else process.env.TZ = startingZone;
});

/** Every pattern given to formatDate in src/web, read from the source. */
const patterns = [
  ...new Set(
    sourceFiles().flatMap((file) => [...readFileSync(file, "utf8").matchAll(/formatDate\([^,]+, "([^"]+)"\)/g)].map((match) => match[1] ?? "")),
  ),
];

// Years 1900 to 2200: the app's dates are recent or soon; the range still crosses every zone rule.
const instants = fc.integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2200, 0, 1) }).map((ms) => new Date(ms));

describe("formatDate", () => {
  it("is given the app's patterns (read from src/web)", () => {
    expect(patterns).toEqual(expect.arrayContaining(["MMM d, h:mm a", "MMM d, yyyy 'at' h:mm a", "h:mm a", "yyyy-MM-dd'T'HH:mm:ssxxx"]));
  });

  it.each(ZONES)("prints each of them as date-fns does, in %s", (zone) => {
    useZone(zone);
    fc.assert(
      fc.property(instants, (date) => {
        for (const pattern of patterns) expect(formatDate(date, pattern)).toBe(format(date, pattern));
      }),
      { numRuns: 2000 },
    );
  });

  it("refuses a token it does not know, so a new pattern fails here first", () => {
    expect(() => formatDate(new Date(), "Do MMM")).toThrow("no token D");
  });
});

describe("timeAgo", () => {
  // Distances from seconds to decades, on both sides of now.
  const spans = fc.oneof(
    fc.integer({ min: -90 * 60_000, max: 90 * 60_000 }),
    fc.integer({ min: -40 * 86_400_000, max: 40 * 86_400_000 }),
    fc.integer({ min: -30 * 365 * 86_400_000, max: 30 * 365 * 86_400_000 }),
  );

  it.each(ZONES)("says what date-fns's formatDistance says with a suffix, in %s", (zone) => {
    useZone(zone);
    fc.assert(
      fc.property(instants, spans, (now, span) => {
        const when = new Date(now.getTime() + span);
        const minutes = Math.round(Math.abs(span) / 60_000);
        // Within an hour across the autumn change of clocks date-fns counts negative minutes
        // ("-30 minutes ago"); ours says "less than a minute ago" there.
        fc.pre(!(minutes < 120 && now.getTimezoneOffset() !== when.getTimezoneOffset()));
        expect(timeAgo(when, now)).toBe(formatDistance(when, now, { addSuffix: true }));
      }),
      { numRuns: 3000 },
    );
  });

  // Each threshold of the wording (45 minutes, 90 minutes, a day, 1.75 days, 30 days, 60 days, a
  // year, 15 and 21 months), give or take 90 seconds.
  const thresholds = [1, 2, 44, 45, 89, 90, 1439, 1440, 2519, 2520, 43199, 43200, 86399, 86400, 525600, 648000, 907200];
  const nearThresholds = fc
    .tuple(fc.constantFrom(...thresholds), fc.integer({ min: -90_000, max: 90_000 }), fc.boolean())
    .map(([minutes, jitter, ahead]) => (ahead ? 1 : -1) * (minutes * 60_000 + jitter));

  it.each(ZONES)("agrees at each threshold of the wording, in %s", (zone) => {
    useZone(zone);
    fc.assert(
      fc.property(instants, nearThresholds, (now, span) => {
        const when = new Date(now.getTime() + span);
        fc.pre(!(Math.abs(span) < 120 * 60_000 && now.getTimezoneOffset() !== when.getTimezoneOffset()));
        expect(timeAgo(when, now)).toBe(formatDistance(when, now, { addSuffix: true }));
      }),
      { numRuns: 3000 },
    );
  });

  // Months are counted on the calendar: the last days of months (February's above all) decide
  // whether the last month was full, and so between "about 1 year" and "12 months".
  const lateInMonth = (monthsBack: number) =>
    fc.record({ day: fc.integer({ min: 26, max: 31 }), minute: fc.integer({ min: 0, max: 1439 }) }).map(({ day, minute }) => ({ monthsBack, day, minute }));
  const monthEnds = fc.tuple(
    fc.integer({ min: 1990, max: 2100 }),
    fc.integer({ min: 0, max: 11 }),
    lateInMonth(0),
    fc.integer({ min: 1, max: 40 }).chain(lateInMonth),
  );

  it.each(ZONES)("counts calendar months as date-fns does at months' ends, in %s", (zone) => {
    useZone(zone);
    fc.assert(
      fc.property(monthEnds, ([year, month, late, early]) => {
        const now = new Date(year, month, late.day, 0, late.minute);
        const when = new Date(year, month - early.monthsBack, early.day, 0, early.minute);
        expect(timeAgo(when, now)).toBe(formatDistance(when, now, { addSuffix: true }));
      }),
      { numRuns: 3000 },
    );
  });

  it("reads like the job board's cards", () => {
    useZone("UTC");
    const now = new Date(Date.UTC(2026, 10, 26, 12));
    const ago = (ms: number) => timeAgo(new Date(now.getTime() - ms), now);
    expect(ago(20_000)).toBe("less than a minute ago");
    expect(ago(5 * 60_000)).toBe("5 minutes ago");
    expect(ago(3 * 3_600_000)).toBe("about 3 hours ago");
    expect(ago(36 * 3_600_000)).toBe("1 day ago");
    expect(ago(400 * 86_400_000)).toBe("about 1 year ago");
    expect(timeAgo(new Date(now.getTime() + 2 * 86_400_000), now)).toBe("in 2 days");
  });
});
