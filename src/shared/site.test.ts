import { describe, expect, it } from "vitest";
import {
  appointmentBodySchema,
  appointmentDateProblem,
  appointmentFormSchema,
  APPOINTMENT_MESSAGES,
  contactBodySchema,
} from "./site.js";
import { startOfTomorrowIn } from "./office-clock.js";

const valid = {
  name: "Ann Lee",
  email: "ann@example.test",
  phone: "(410) 555-0142",
  appointmentDate: "2026-11-23T15:00:00.000Z",
  reason: "Questions about becoming a provider",
};

describe("startOfTomorrowIn", () => {
  it.each([
    // 23:30 in New York (EST, UTC-5) is still the 21st there: tomorrow starts at 05:00Z on the 22nd.
    ["2026-11-22T04:30:00Z", "2026-11-22T05:00:00.000Z"],
    ["2026-11-21T12:00:00Z", "2026-11-22T05:00:00.000Z"],
    // Summer time (EDT, UTC-4).
    ["2026-07-04T12:00:00Z", "2026-07-05T04:00:00.000Z"],
    // The night the clocks go back (1 November 2026): midnight of the 1st is still EDT.
    ["2026-10-31T20:00:00Z", "2026-11-01T04:00:00.000Z"],
    // And the night they go forward (8 March 2026): midnight of the 8th is EST.
    ["2026-03-07T20:00:00Z", "2026-03-08T05:00:00.000Z"],
  ])("at %s the office's tomorrow starts at %s", (now, expected) => {
    expect(startOfTomorrowIn("America/New_York", new Date(now)).toISOString()).toBe(expected);
  });
});

describe("appointmentDateProblem", () => {
  const now = new Date("2026-11-21T15:00:00Z"); // 10:00 in Annapolis
  it("refuses the office's same day, accepts its tomorrow, refuses more than a year ahead", () => {
    expect(appointmentDateProblem(new Date("2026-11-22T04:59:00Z"), now)).toBe(APPOINTMENT_MESSAGES.tooSoon);
    // 9:00 AM Eastern on the office's tomorrow: its first bookable hour (docs/product.md).
    expect(appointmentDateProblem(new Date("2026-11-22T14:00:00Z"), now)).toBeNull();
    expect(appointmentDateProblem(new Date("2026-11-22T13:59:00Z"), now)).toBe(APPOINTMENT_MESSAGES.hours);
    expect(appointmentDateProblem(new Date("2027-11-21T15:00:00Z"), now)).toBeNull();
    expect(appointmentDateProblem(new Date("2027-11-21T15:00:01Z"), now)).toBe(APPOINTMENT_MESSAGES.tooFar);
  });
});

describe("appointment schemas", () => {
  it("accepts a valid body and defaults the contact method to visit", () => {
    expect(appointmentBodySchema.parse(valid).preferContact).toBe("visit");
  });

  it.each([
    [{ name: "A" }, APPOINTMENT_MESSAGES.name],
    [{ email: "nope" }, "Invalid email address"],
    [{ phone: "555-0142" }, APPOINTMENT_MESSAGES.phone],
    [{ phone: "(((---)))." }, APPOINTMENT_MESSAGES.phone],
    [{ reason: "too short" }, APPOINTMENT_MESSAGES.reason],
    [{ preferContact: "email" }, APPOINTMENT_MESSAGES.preferContact],
  ])("refuses %o with the product's message", (override, message) => {
    const result = appointmentBodySchema.safeParse({ ...valid, ...override });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toContain(message);
  });

  it("the form refuses today and accepts tomorrow in local time", () => {
    // 15:00 local is within office hours (9 AM-6 PM Eastern) whether this runs on UTC or Eastern time.
    const now = new Date(2026, 10, 21, 15, 0);
    const schema = appointmentFormSchema(() => now);
    const local = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}T15:00`;
    const today = schema.safeParse({ ...valid, appointmentDate: local(now) });
    expect(today.error?.issues.map((i) => i.message)).toEqual([APPOINTMENT_MESSAGES.tooSoon]);
    const dayAfter = new Date(2026, 10, 23, 15, 0);
    expect(schema.safeParse({ ...valid, appointmentDate: local(dayAfter) }).success).toBe(true);
  });
});

describe("contactBodySchema", () => {
  it("trims and requires every field", () => {
    const parsed = contactBodySchema.safeParse({ name: "  ", email: "a@b.test", subject: "Hi", message: "Hello" });
    expect(parsed.error?.issues[0]?.message).toBe("Name is required");
    expect(contactBodySchema.parse({ name: " Ann ", email: "A@B.test", subject: "Hi", message: "Hello" })).toEqual({
      name: "Ann",
      email: "a@b.test",
      subject: "Hi",
      message: "Hello",
    });
  });
});
