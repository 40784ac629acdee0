import { describe, expect, it } from "vitest";
import { normalizeForReading, readWork, type ReadingField } from "./felix-reading.js";

// The reader of docs/product.md#felix: durations and sizes as posters write them.

describe("readWork: durations", () => {
  it.each<[string, number, number, string]>([
    ["Should take about 2 hours", 2, 2, "about 2 hours"],
    ["about two hours", 2, 2, "about 2 hours"],
    ["90 minutes of work", 1.5, 1.5, "90 minutes"],
    ["I think it's a 3-4 hour job", 3, 4, "3-4 hour"],
    ["2 to 3 hrs", 2, 3, "2 to 3 hrs"],
    ["2–3 hours", 2, 3, "2–3 hours"],
    ["maybe 2 or 3 hours", 2, 3, "maybe 2 or 3 hours"],
    ["about 1.5-2 hours total", 1.5, 2, "about 1.5-2 hours"],
    ["half a day", 4, 4, "4 hours"],
    ["It is a half-day job", 4, 4, "4 hours"],
    ["an hour and a half", 1.5, 1.5, "1.5 hours"],
    ["two and a half hours", 2.5, 2.5, "2.5 hours"],
    ["half an hour", 0.5, 0.5, "0.5 hours"],
    ["takes all day", 8, 8, "8 hours"],
    ["a 30 minute walk", 0.5, 0.5, "30 minute"],
    ["15-20 minutes each", 0.25, 1 / 3, "15-20 minutes"],
    ["~3 hrs", 3, 3, "~3 hrs"],
    ["It'll take an hour", 1, 1, "1 hour"],
  ])("%s", (text, low, high, said) => {
    const hours = readWork(text).hours;
    expect(hours?.low).toBeCloseTo(low, 6);
    expect(hours?.high).toBeCloseTo(high, 6);
    expect(hours?.said).toBe(said);
  });

  it("does not read a deadline as a duration", () => {
    expect(readWork("Dog walk needed in the next hour").hours).toBeUndefined();
    expect(readWork("flight in 2 hours, bring my passport").hours).toBeUndefined();
    expect(readWork("must be done within 3 hours").hours).toBeUndefined();
    expect(readWork("can be done in 2 hours").hours?.high).toBe(2);
  });
});

describe("readWork: sizes", () => {
  it.each<[string, ReadingField, number, number]>([
    ["3-bedroom house", "bedrooms", 3, 3],
    ["2BR apartment", "bedrooms", 2, 2],
    ["3bd/2ba townhouse", "bedrooms", 3, 3],
    ["3bd/2ba townhouse", "bathrooms", 2, 2],
    ["2 bed / 1 bath", "bedrooms", 2, 2],
    ["a two-bedroom flat", "bedrooms", 2, 2],
    ["about 1,100 sq ft", "sqft", 1100, 1100],
    ["1200 square feet", "sqft", 1200, 1200],
    ["2 dogs", "pets", 2, 2],
    ["three cats", "pets", 3, 3],
    ["1 cat", "pets", 1, 1],
    ["3 nights", "nights", 3, 3],
    ["two nights away", "nights", 2, 2],
    ["overnight stay", "nights", 1, 1],
    ["20 windows", "windows", 20, 20],
    ["about 20 double-hung windows", "windows", 20, 20],
    ["2 people with a truck", "helpers", 2, 2],
    ["two movers", "helpers", 2, 2],
    ["3 stops", "stops", 3, 3],
    ["~15 miles", "miles", 15, 15],
    ["about 6 miles away", "miles", 6, 6],
    ["quarter-acre lot", "acres", 0.25, 0.25],
    ["a half acre", "acres", 0.5, 0.5],
    ["2 acres", "acres", 2, 2],
    ["Saturday-Sunday", "days", 2, 2],
    ["Friday to Monday", "days", 4, 4],
    ["over the weekend", "days", 2, 2],
    ["for 5 days", "days", 5, 5],
    ["twice a day", "visitsPerDay", 2, 2],
    ["3 times a day", "visitsPerDay", 3, 3],
    ["morning and evening", "visitsPerDay", 2, 2],
    ["4 visits", "visits", 4, 4],
    ["a queen bed frame and a 3-drawer dresser", "items", 2, 2],
    ["4 chairs and a table", "items", 5, 5],
  ])("%s -> %s", (text, field, low, high) => {
    const value = readWork(text)[field];
    expect(value?.low).toBe(low);
    expect(value?.high).toBe(high);
  });

  it("reads a studio as no bedroom", () => {
    expect(readWork("Moving out of my studio").bedrooms).toMatchObject({ low: 0, said: "studio" });
  });

  it("counts a piece named in the title and again in the description once", () => {
    expect(readWork("Move a couch. Need help moving a sofa and a dresser").items?.high).toBe(2);
  });
});

describe("readWork: nothing to read", () => {
  it.each(["", "Need help please", "Pick up my dry cleaning", "Notarize a power of attorney (2 signatures)", "$100 order, about 30 items"])(
    "finds no duration in %j",
    (text) => {
      const reading = readWork(text);
      expect(reading.hours).toBeUndefined();
      expect(reading.bedrooms).toBeUndefined();
      expect(reading.sqft).toBeUndefined();
      expect(reading.nights).toBeUndefined();
    },
  );

  it("reads nothing at all from an empty text", () => {
    expect(readWork("")).toEqual({});
  });
});

describe("normalizeForReading", () => {
  it("writes number words as digits and drops thousands separators", () => {
    expect(normalizeForReading("Two dogs, a couple of cats and 1,100 sq ft")).toContain("2 dogs, 2 cats and 1100 sq ft");
  });
});
