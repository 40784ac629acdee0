import { describe, expect, it } from "vitest";
import { calendarSettingsSchema, formatTimeRange, localDate, localTimeInstants } from "./calendar.js";

// The calendar's pure rules (docs/decisions/074-time-and-turning-up.md): wall-clock times across
// daylight-saving changes, and the words of a time span.

describe("localTimeInstants", () => {
  it("finds one instant on most days, two in the hour clocks go back, none in the hour they go forward", () => {
    expect(localTimeInstants("2026-06-02", "10:00", "America/New_York").map((d) => d.toISOString())).toEqual(["2026-06-02T14:00:00.000Z"]);
    expect(localTimeInstants("2026-11-01", "01:30", "America/New_York").map((d) => d.toISOString())).toEqual(["2026-11-01T05:30:00.000Z", "2026-11-01T06:30:00.000Z"]);
    expect(localTimeInstants("2027-03-14", "02:30", "America/New_York")).toEqual([]);
    expect(localTimeInstants("2026-13-01", "10:00", "America/New_York")).toEqual([]);
  });
});

describe("localDate", () => {
  it("is the date and weekday on the zone's clock, not UTC's", () => {
    expect(localDate(new Date("2026-06-02T02:00:00.000Z"), "America/Los_Angeles")).toEqual({ date: "2026-06-01", weekday: "monday" });
  });
});

describe("formatTimeRange", () => {
  it("says a span on the reader's clock, across midnight and with the zone when asked", () => {
    expect(formatTimeRange(new Date("2026-06-09T14:00:00.000Z"), new Date("2026-06-09T16:00:00.000Z"), "America/New_York")).toBe("Tue 9 Jun, 10:00 AM–12:00 PM");
    expect(formatTimeRange(new Date("2026-12-09T03:00:00.000Z"), new Date("2026-12-09T07:00:00.000Z"), "America/New_York", { withZone: true })).toBe("Tue 8 Dec, 10:00 PM – Wed 9 Dec, 2:00 AM EST");
  });
});

describe("calendarSettingsSchema", () => {
  it("keeps days off once each, in order", () => {
    const parsed = calendarSettingsSchema.parse({ timeZone: "America/Chicago", weeklyHours: {}, daysOff: ["2026-12-25", "2026-12-24", "2026-12-25"] });
    expect(parsed).toMatchObject({ daysOff: ["2026-12-24", "2026-12-25"], minNoticeHours: 24, maxTasksPerDay: 3, instantBooking: false });
  });
});
