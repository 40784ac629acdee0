import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BOUND_FACTOR, USUAL_RANGES, felixEstimate, figureShown, outOfBounds, usualRange } from "./felix-bounds.js";
import { FELIX_URGENCIES } from "./felix-pricing.js";
import { NATIONAL } from "./felix-region.js";
import { estimateWork } from "./felix-work.js";

// Sanity bounds (docs/decisions/072-felix-sanity-bounds-couriers-and-offers.md): a figure far
// outside what the kind of job usually costs is not shown as it is; Felix says what it read and asks.

const at = (category: string, title: string, description = "", extra: Partial<Parameters<typeof felixEstimate>[0]> = {}) =>
  felixEstimate({ query: { category, title, description }, miles: 0, stops: 0, urgency: "standard", ...extra });

describe("outOfBounds", () => {
  it("flags only beyond twice the top or under half the bottom", () => {
    const range = { low: 40, high: 280 };
    expect(outOfBounds(560, range)).toBeNull();
    expect(outOfBounds(560.01, range)).toBe("high");
    expect(outOfBounds(20, range)).toBeNull();
    expect(outOfBounds(19.99, range)).toBe("low");
    expect(BOUND_FACTOR).toBe(2);
  });

  it("takes the market's middle half nearby over the guides' table", () => {
    expect(usualRange("general")).toEqual({ range: USUAL_RANGES.general, from: "guides" });
    expect(usualRange("general", { count: 6, median: 60, p25: 45, p75: 90 })).toEqual({ range: { low: 45, high: 90 }, from: "market" });
  });
});

describe("felixEstimate: asks instead of a wild figure", () => {
  it("reads 40 hours of general help, asks whether that is right, and prices the usual job meanwhile", () => {
    const wild = at("other", "Help around the house", "About 40 hours of work.");
    expect(wild.check).toMatchObject({ direction: "high", read: "40 hours of work", fellBack: true, rangeFrom: "guides" });
    expect(wild.work).toMatchObject({ source: "usual", question: "confirm" });
    expect(wild.pricing.estimate).toBeLessThanOrEqual((USUAL_RANGES.general?.high ?? 0) * BOUND_FACTOR);
    // Without the bounds the same reading would have been shown: 40 h at $25 = $1,000.
    expect(estimateWork({ category: "other", title: "Help around the house", description: "About 40 hours of work." }).quantity.mid).toBe(40);
  });

  it("keeps the reading once the poster confirms it, and takes a figure given in the answer", () => {
    const query = { category: "other", title: "Help around the house", description: "About 40 hours of work." };
    const yes = felixEstimate({ query: { ...query, answer: { question: "confirm", text: "Yes, that's right" } }, miles: 0, stops: 0, urgency: "standard" });
    expect(yes.check).toBeNull();
    expect(yes.work).toMatchObject({ confirmed: true, quantity: { mid: 40 } });
    const four = felixEstimate({ query: { ...query, answer: { question: "confirm", text: "no, about 4 hours" } }, miles: 0, stops: 0, urgency: "standard" });
    expect(four.work).toMatchObject({ source: "answer", quantity: { mid: 4 } });
    expect(four.check).toBeNull();
    const no = felixEstimate({ query: { ...query, answer: { question: "confirm", text: "no" } }, miles: 0, stops: 0, urgency: "standard" });
    expect(no.work.source).toBe("usual");
    expect(no.check).toBeNull();
  });

  it("uses the market's range when there is one: a job far above what completed tasks nearby paid is asked about", () => {
    const market = { count: 8, median: 60, p25: 45, p75: 90 };
    const big = at("other", "Help around the house", "About 10 hours of work.", { market });
    expect(big.check).toMatchObject({ direction: "high", rangeFrom: "market", range: { low: 45, high: 90 } });
  });

  it("leaves figures inside the bounds alone", () => {
    expect(at("cleaning", "Clean my 2 bedroom apartment").check).toBeNull();
    expect(at("moving", "Move my studio apartment").check).toBeNull();
  });

  it("says so when a measured route drives the figure: it cannot drop the miles, but asks", () => {
    const far = at("errands", "Pick up a package", "", { miles: 900 });
    expect(far.check).toMatchObject({ direction: "high", read: "a route of about 900 miles", fellBack: false, shown: false });
    expect(far.work.question).toBe("confirm");
    expect(figureShown(far)).toBe(false);
  });
});

describe("no figure shown beyond the bounds (decision 080)", () => {
  it("shows the usual job beside the question when it is inside the bounds", () => {
    const wild = at("errands", "Help me for 40 hours");
    expect(wild.check).toMatchObject({ fellBack: true, shown: true });
    expect(figureShown(wild)).toBe(true);
  });

  it("shows no figure when even the usual job is outside the bounds: a misread on a long route", () => {
    const both = at("errands", "Help me for 40 hours", "", { miles: 900 });
    expect(both.check).toMatchObject({ direction: "high", fellBack: true, shown: false });
    expect(figureShown(both)).toBe(false);
  });

  it("checks the suggested budget too: a $20 minimum above twice a cheap market's top is not shown as is", () => {
    const cheap = at("shopping", "Pick up 2 items", "", { market: { count: 6, median: 8, p25: 6, p75: 8 } });
    expect(cheap.pricing.suggestedBudget).toBe(20);
    expect(figureShown(cheap)).toBe(false);
  });

  const CATEGORIES = ["errands", "delivery", "shopping", "cleaning", "moving", "pet", "business", "other", "unknown"];
  const WORDS = ["Clean", "Move", "Walk my dog for", "Deliver", "Shop for", "Wait", "Help me for", "Mow", "Watch my cat for", "Assemble"];
  const UNITS = ["hours", "bedroom", "sq ft", "nights", "visits", "items", "acres", "minutes", "days", "windows", "boxes"];
  const region = fc.constantFrom(NATIONAL, { name: "the New York area", factor: 1.1264 }, { name: "Mississippi", factor: 0.873 });
  const market = fc.option(
    fc.tuple(fc.integer({ min: 1, max: 3000 }), fc.integer({ min: 0, max: 3000 })).map(([p25, spread]) => ({ count: 5, median: p25 + spread / 2, p25, p75: p25 + spread })),
  );

  it("never shows a figure beyond twice the category's top or under half its bottom, whatever the task says (property)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CATEGORIES),
        fc.constantFrom(...WORDS),
        fc.integer({ min: 0, max: 500 }),
        fc.constantFrom(...UNITS),
        fc.double({ min: 0, max: 3000, noNaN: true }),
        fc.integer({ min: 0, max: 12 }),
        fc.constantFrom(...FELIX_URGENCIES),
        region,
        market,
        (category, verb, n, unit, miles, stops, urgency, place, nearby) => {
          const estimate = felixEstimate({ query: { category, title: `${verb} ${n} ${unit}`, region: place }, miles, stops, urgency, market: nearby });
          if (!figureShown(estimate)) return;
          const { range } = usualRange(estimate.work.kind, nearby, estimate.work.region);
          for (const figure of [estimate.pricing.estimate, estimate.pricing.suggestedBudget]) {
            expect(figure).toBeLessThanOrEqual(range.high * BOUND_FACTOR);
            expect(figure).toBeGreaterThanOrEqual(range.low / BOUND_FACTOR);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("couriers and shopping priced as their markets price them", () => {
  it("prices a delivery as a courier: handling, driving and waiting at a courier's rate, mileage, $10 a further stop", () => {
    const plain = at("delivery", "Deliver an envelope", "", { miles: 10 });
    expect(plain.work).toMatchObject({ kind: "courier", rate: { mid: 45 }, quantity: { mid: 0.5 } });
    // $5.80 mileage + (0.2 h driving + 0.5 h handling) x $45 = $37.30 -> $35.
    expect(plain.pricing).toMatchObject({ mileageCost: 5.8, laborCost: 31.5, suggestedBudget: 35 });
    const waiting = at("delivery", "Deliver an envelope", "Might have to wait a bit at pickup.", { miles: 10 });
    expect(waiting.work.quantity.mid).toBe(0.75);
    const stops = at("delivery", "Deliver two envelopes", "", { miles: 10, stops: 1 });
    expect(stops.pricing.stopsCost).toBe(10);
    const urgent = at("delivery", "Deliver an envelope", "", { miles: 10, urgency: "urgent" });
    expect(urgent.pricing.urgencyLaborCost).toBeCloseTo(31.5 * 1.3, 2);
  });

  it("reads a courier's stated time as door to door: the drive comes out of it and the stops are in it", () => {
    const run = at("delivery", "Drop off 3 gift baskets", "About 2 hours total.", { miles: 25, stops: 2 });
    expect(run.work.quantity.mid).toBe(1.5);
    expect(run.pricing.stops).toBe(0);
    expect(run.work.quantityFrom).toBe("you said about 2 hours door to door");
  });

  it("prices shopping as a trip fee plus the time the list takes in the store", () => {
    const list = at("shopping", "Groceries", "About 30 items from my list.");
    // 5 min + 30 x 1 min = 35 min, shown to the quarter hour: 0.5 h at $20 = $10, + $6 trip fee = $16,
    // under the $20 minimum: the estimate stays $16 and the top-up line lifts the suggestion to $20.
    expect(list.work).toMatchObject({ kind: "shopping", rate: { mid: 20 }, fee: { mid: 6 }, quantity: { mid: 0.5 } });
    expect(list.pricing).toMatchObject({ tripFee: 6, estimate: 16, suggestedBudget: 20, minimumTopUp: 4 });
    const dollars = at("shopping", "Costco run", "About $300 of stuff.");
    expect(dollars.work.quantity.mid).toBeCloseTo((5 + 100) / 60, 1);
  });

  it("always carries a figure for a shopping task, with no words to read", () => {
    const bare = at("shopping", "Shopping");
    expect(bare.pricing.estimate).toBeGreaterThan(0);
    expect(bare.work.source).toBe("usual");
  });
});
