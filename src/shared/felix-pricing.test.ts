import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { haversineMiles } from "./geo.js";
import {
  FELIX_URGENCIES,
  type PricedWork,
  MARKET_MIN_SAMPLE,
  ROAD_FACTOR,
  computePricing,
  evaluateBudget,
  marketStats,
  routeMiles,
  type FelixUrgency,
} from "./felix-pricing.js";

const BALTIMORE = { lat: 39.2904, lon: -76.6122 };
const ANNAPOLIS = { lat: 38.9784, lon: -76.4922 };
const NEW_YORK = { lat: 40.7128, lon: -74.006 };
const LOS_ANGELES = { lat: 34.0522, lon: -118.2437 };

const point = fc.record({
  lat: fc.double({ min: -90, max: 90, noNaN: true }),
  lon: fc.double({ min: -180, max: 180, noNaN: true }),
});
// Felix is US-only (address search is limited to the US): this box holds the states and
// territories and no two antipodal points, where asin loses digits.
const usPoint = fc.record({
  lat: fc.double({ min: 17, max: 72, noNaN: true }),
  lon: fc.double({ min: -180, max: -64, noNaN: true }),
});
const miles = fc.double({ min: 0, max: 5000, noNaN: true });
const stops = fc.integer({ min: 0, max: 10 });
const urgency = fc.constantFrom(...FELIX_URGENCIES);

describe("haversineMiles", () => {
  it("measures Baltimore to Annapolis as about 22.5 great-circle miles", () => {
    expect(haversineMiles(BALTIMORE, ANNAPOLIS)).toBeCloseTo(22.5, 0);
    expect(Math.abs(haversineMiles(BALTIMORE, ANNAPOLIS) - 22.5)).toBeLessThanOrEqual(0.5);
  });

  it("measures New York to Los Angeles as about 2,445 miles", () => {
    expect(Math.abs(haversineMiles(NEW_YORK, LOS_ANGELES) - 2445)).toBeLessThan(10);
  });

  it("is zero for one place, symmetric, and never more than half the Earth around", () => {
    fc.assert(
      fc.property(point, point, (a, b) => {
        expect(haversineMiles(a, a)).toBe(0);
        // A few feet of tolerance: asin loses digits near antipodal points.
        expect(haversineMiles(a, b)).toBeCloseTo(haversineMiles(b, a), 3);
        expect(haversineMiles(a, b)).toBeGreaterThanOrEqual(0);
        expect(haversineMiles(a, b)).toBeLessThanOrEqual(Math.PI * 3958.8 + 1e-6);
      }),
    );
  });

  it("keeps the triangle inequality", () => {
    fc.assert(
      fc.property(usPoint, usPoint, usPoint, (a, b, c) => {
        expect(haversineMiles(a, c)).toBeLessThanOrEqual(haversineMiles(a, b) + haversineMiles(b, c) + 1e-6);
      }),
    );
  });
});

describe("routeMiles", () => {
  it("is 0 for no point or a single location", () => {
    expect(routeMiles([])).toBe(0);
    expect(routeMiles([BALTIMORE])).toBe(0);
  });

  it("applies the road factor to the great-circle distance", () => {
    expect(routeMiles([BALTIMORE, ANNAPOLIS])).toBeCloseTo(haversineMiles(BALTIMORE, ANNAPOLIS) * ROAD_FACTOR, 9);
    expect(routeMiles([BALTIMORE, ANNAPOLIS], 1)).toBeCloseTo(haversineMiles(BALTIMORE, ANNAPOLIS), 9);
  });

  it("follows start, stops and end in order", () => {
    const there = haversineMiles(BALTIMORE, ANNAPOLIS);
    expect(routeMiles([BALTIMORE, ANNAPOLIS, BALTIMORE], 1)).toBeCloseTo(2 * there, 9);
    expect(routeMiles([BALTIMORE, ANNAPOLIS, BALTIMORE, ANNAPOLIS], 1.25)).toBeCloseTo(3 * there * 1.25, 9);
  });

  it("never gets shorter when a stop is added", () => {
    fc.assert(
      fc.property(fc.array(usPoint, { minLength: 2, maxLength: 12 }), usPoint, fc.nat(), (route, stop, at) => {
        const index = 1 + (at % (route.length - 1));
        const withStop = [...route.slice(0, index), stop, ...route.slice(index)];
        expect(routeMiles(withStop)).toBeGreaterThanOrEqual(routeMiles(route) - 1e-6);
      }),
    );
  });
});

describe("computePricing hand-computed cases", () => {
  it.each<{ label: string; miles: number; stops: number; urgency: FelixUrgency; total: number; suggested: number }>([
    { label: "0 miles: $10 of labor lifts to the $20 floor", miles: 0, stops: 0, urgency: "standard", total: 20, suggested: 20 },
    { label: "0 miles urgent: $13 lifts to the floor", miles: 0, stops: 0, urgency: "urgent", total: 20, suggested: 20 },
    { label: "0 miles flexible, 1 stop: $19 lifts to the floor", miles: 0, stops: 1, urgency: "flexible", total: 20, suggested: 20 },
    { label: "0 miles flexible, 2 stops: 9 + 20", miles: 0, stops: 2, urgency: "flexible", total: 29, suggested: 30 },
    { label: "100 miles: 58 + 50", miles: 100, stops: 0, urgency: "standard", total: 108, suggested: 110 },
    { label: "100 miles urgent: 58 + 65", miles: 100, stops: 0, urgency: "urgent", total: 123, suggested: 125 },
    { label: "100 miles flexible: 58 + 45", miles: 100, stops: 0, urgency: "flexible", total: 103, suggested: 105 },
    { label: "50 miles, 2 stops: 29 + 30 + 20", miles: 50, stops: 2, urgency: "standard", total: 79, suggested: 80 },
    { label: "10 miles, 3 stops: 5.80 + 14 + 30", miles: 10, stops: 3, urgency: "standard", total: 49.8, suggested: 50 },
    { label: "125 miles: 72.50 + 60 = 132.50 rounds up", miles: 125, stops: 0, urgency: "standard", total: 132.5, suggested: 135 },
    { label: "45 miles urgent: 26.10 + 36.40 = 62.50 rounds up", miles: 45, stops: 0, urgency: "urgent", total: 62.5, suggested: 65 },
    { label: "25 miles flexible: 14.50 + 18 = 32.50 rounds up", miles: 25, stops: 0, urgency: "flexible", total: 32.5, suggested: 35 },
    { label: "12.7 miles: 7.37 + 0.75 h = 15.00 → 22.37 rounds down", miles: 12.7, stops: 0, urgency: "standard", total: 22.37, suggested: 20 },
    { label: "500 miles urgent: 290 + 273", miles: 500, stops: 0, urgency: "urgent", total: 563, suggested: 565 },
    { label: "1000 miles, 10 stops: 580 + 410 + 100", miles: 1000, stops: 10, urgency: "standard", total: 1090, suggested: 1090 },
  ])("$label", ({ miles: m, stops: s, urgency: u, total, suggested }) => {
    const breakdown = computePricing({ miles: m, stops: s, urgency: u });
    expect(breakdown.total).toBe(total);
    expect(breakdown.suggestedBudget).toBe(suggested);
  });

  it("returns the breakdown Ask Felix shows, with the multiplier", () => {
    expect(computePricing({ miles: 100, stops: 2, urgency: "urgent" })).toEqual({
      distance: 100,
      mileageCost: 58,
      driveHours: 2,
      laborHours: 2.5,
      workUnit: "hour",
      workQuantity: 0.5,
      helpers: 1,
      rate: 20,
      driveCost: 40,
      workCost: 10,
      laborCost: 50,
      urgency: "urgent",
      urgencyMultiplier: 1.3,
      urgencyLaborCost: 65,
      stopsCost: 20,
      stops: 2,
      tripFee: 0,
      minimumTopUp: 0,
      total: 143,
      estimate: 145,
      suggestedBudget: 145,
      low: 145,
      high: 145,
    });
  });

  it("keeps what the work costs under the $20 minimum, to the dollar, and lifts only the suggestion", () => {
    const p = computePricing({ miles: 0, stops: 0, urgency: "standard", work: { unit: "hour", quantity: { low: 0.5, mid: 0.5, high: 0.5 }, helpers: 1, rate: { low: 20, mid: 20, high: 20 }, fee: { low: 6, mid: 6, high: 6 } } });
    expect(p).toMatchObject({ workCost: 10, tripFee: 6, minimumTopUp: 4, total: 20, estimate: 16, suggestedBudget: 20 });
  });

  it("prices the distance it shows: 12.34 miles is shown and priced as 12.3", () => {
    // 12.3 × 0.58 = 7.134 → 7.13; 12.3 / 50 + 0.5 = 0.746 → 0.75 h → 15.00.
    expect(computePricing({ miles: 12.34, stops: 0, urgency: "standard" })).toMatchObject({
      distance: 12.3,
      laborHours: 0.75,
      mileageCost: 7.13,
      laborCost: 15,
      urgencyLaborCost: 15,
      total: 22.13,
      suggestedBudget: 20,
    });
  });

  it("shows what lifts a small sum to the $20 minimum as its own line", () => {
    expect(computePricing({ miles: 0, stops: 0, urgency: "standard" })).toMatchObject({ urgencyLaborCost: 10, minimumTopUp: 10, total: 20 });
  });

  it.each([
    { miles: -1, stops: 0 },
    { miles: Number.NaN, stops: 0 },
    { miles: Number.POSITIVE_INFINITY, stops: 0 },
    { miles: 1, stops: -1 },
    { miles: 1, stops: 1.5 },
  ])("refuses miles $miles with $stops stops", (input) => {
    expect(() => computePricing({ ...input, urgency: "standard" })).toThrow(RangeError);
  });
});

describe("computePricing properties", () => {
  it("never suggests below $20 and always a multiple of $5 within $2.50 of the total", () => {
    fc.assert(
      fc.property(miles, stops, urgency, (m, s, u) => {
        const { total, suggestedBudget } = computePricing({ miles: m, stops: s, urgency: u });
        expect(total).toBeGreaterThanOrEqual(20);
        expect(suggestedBudget).toBeGreaterThanOrEqual(20);
        expect(suggestedBudget % 5).toBe(0);
        expect(Math.abs(suggestedBudget - total)).toBeLessThanOrEqual(2.5);
      }),
    );
  });

  it("is non-decreasing in miles", () => {
    fc.assert(
      fc.property(miles, miles, stops, urgency, (a, b, s, u) => {
        const [near, far] = a <= b ? [a, b] : [b, a];
        const lo = computePricing({ miles: near, stops: s, urgency: u });
        const hi = computePricing({ miles: far, stops: s, urgency: u });
        expect(hi.total).toBeGreaterThanOrEqual(lo.total);
        expect(hi.suggestedBudget).toBeGreaterThanOrEqual(lo.suggestedBudget);
      }),
    );
  });

  it("is non-decreasing in stops", () => {
    fc.assert(
      fc.property(miles, stops, stops, urgency, (m, a, b, u) => {
        const [few, many] = a <= b ? [a, b] : [b, a];
        const lo = computePricing({ miles: m, stops: few, urgency: u });
        const hi = computePricing({ miles: m, stops: many, urgency: u });
        expect(hi.total).toBeGreaterThanOrEqual(lo.total);
        expect(hi.suggestedBudget).toBeGreaterThanOrEqual(lo.suggestedBudget);
      }),
    );
  });

  it("prices urgent >= standard >= flexible", () => {
    fc.assert(
      fc.property(miles, stops, (m, s) => {
        const price = (u: FelixUrgency) => computePricing({ miles: m, stops: s, urgency: u });
        expect(price("urgent").total).toBeGreaterThanOrEqual(price("standard").total);
        expect(price("standard").total).toBeGreaterThanOrEqual(price("flexible").total);
        expect(price("urgent").suggestedBudget).toBeGreaterThanOrEqual(price("standard").suggestedBudget);
        expect(price("standard").suggestedBudget).toBeGreaterThanOrEqual(price("flexible").suggestedBudget);
      }),
    );
  });

  it("adds up: the shown lines sum to the shown total, to the cent, and the distance shown is the one priced", () => {
    fc.assert(
      fc.property(miles, stops, urgency, (m, s, u) => {
        const b = computePricing({ miles: m, stops: s, urgency: u });
        const cents = (dollars: number) => Math.round(dollars * 100);
        expect(cents(b.mileageCost) + cents(b.urgencyLaborCost) + cents(b.stopsCost) + cents(b.minimumTopUp)).toBe(cents(b.total));
        expect(cents(b.mileageCost)).toBe(Math.round(b.distance * 58));
        expect(cents(b.urgencyLaborCost)).toBe(Math.round(cents(b.laborCost) * b.urgencyMultiplier));
        expect(b.stopsCost).toBe(b.stops * 10);
        expect(b.minimumTopUp === 0 || b.total === 20).toBe(true);
      }),
    );
  });

  it("keeps money fields in whole cents", () => {
    fc.assert(
      fc.property(miles, stops, urgency, (m, s, u) => {
        const b = computePricing({ miles: m, stops: s, urgency: u });
        for (const money of [b.mileageCost, b.laborCost, b.urgencyLaborCost, b.stopsCost, b.minimumTopUp, b.total, b.suggestedBudget]) {
          expect(Math.abs(money * 100 - Math.round(money * 100))).toBeLessThan(1e-6);
        }
      }),
    );
  });
});

describe("evaluateBudget", () => {
  it.each([
    { offered: 110, fair: 110, status: "fair", percentDiff: 0 },
    { offered: 115, fair: 100, status: "fair", percentDiff: 15 },
    { offered: 115.1, fair: 100, status: "high", percentDiff: 15.1 },
    { offered: 85, fair: 100, status: "fair", percentDiff: -15 },
    { offered: 84.9, fair: 100, status: "low", percentDiff: -15.1 },
    // 3/20 is 15.000000000000002% in floating point: still fair.
    { offered: 23, fair: 20, status: "fair", percentDiff: 15 },
    { offered: 17, fair: 20, status: "fair", percentDiff: -15 },
    { offered: 150, fair: 110, status: "high", percentDiff: 36.4 },
    { offered: 50, fair: 110, status: "low", percentDiff: -54.5 },
    { offered: 100, fair: 110, status: "fair", percentDiff: -9.1 },
    { offered: 109.99, fair: 110, status: "fair", percentDiff: 0 },
  ] as const)("$offered against $fair is $status ($percentDiff%)", ({ offered, fair, status, percentDiff }) => {
    expect(evaluateBudget(offered, fair)).toEqual({ status, percentDiff, offeredBudget: offered, fairBudget: fair });
  });

  it("never answers -0", () => {
    expect(Object.is(evaluateBudget(109.99, 110).percentDiff, 0)).toBe(true);
  });

  it("refuses a fair budget that is not positive", () => {
    expect(() => evaluateBudget(20, 0)).toThrow(RangeError);
    expect(() => evaluateBudget(Number.NaN, 20)).toThrow(RangeError);
  });

  it("signs the difference with the offer and agrees with the band", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 2000, max: 1_000_000 }), (o, f) => {
        const { status, percentDiff } = evaluateBudget(o / 100, f / 100);
        expect(Math.sign(percentDiff) === Math.sign(o - f) || percentDiff === 0).toBe(true);
        expect(status).toBe(percentDiff > 15 ? "high" : percentDiff < -15 ? "low" : "fair");
      }),
    );
  });
});

describe("marketStats", () => {
  it(`needs at least ${MARKET_MIN_SAMPLE} budgets`, () => {
    expect(marketStats([])).toBeNull();
    expect(marketStats([10, 20, 30, 40])).toBeNull();
    expect(marketStats([Number.NaN, 10, 20, 30, 40])).toBeNull();
  });

  it("interpolates quartiles linearly between ranks", () => {
    expect(marketStats([50, 10, 40, 20, 30])).toEqual({ count: 5, median: 30, p25: 20, p75: 40 });
    // Sorted 20, 25, 35, 40, 60, 100: positions 1.25, 2.5 and 3.75.
    expect(marketStats([20, 25, 40, 60, 100, 35])).toEqual({ count: 6, median: 37.5, p25: 27.5, p75: 55 });
  });

  it("rounds to cents", () => {
    // p25 20.0025 and p75 20.0175 between ranks.
    expect(marketStats([20, 20, 20.01, 20.01, 20.02, 20.09])).toEqual({ count: 6, median: 20.01, p25: 20, p75: 20.02 });
  });

  it("orders p25 <= median <= p75 inside the range", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 2000, max: 10_000_000 }), { minLength: 5, maxLength: 200 }), (cents) => {
        const budgets = cents.map((c) => c / 100);
        const stats = marketStats(budgets);
        expect(stats).not.toBeNull();
        if (!stats) return;
        expect(stats.count).toBe(budgets.length);
        expect(stats.p25).toBeLessThanOrEqual(stats.median);
        expect(stats.median).toBeLessThanOrEqual(stats.p75);
        expect(stats.p25).toBeGreaterThanOrEqual(Math.min(...budgets));
        expect(stats.p75).toBeLessThanOrEqual(Math.max(...budgets));
      }),
    );
  });

  it("does not reorder the caller's array", () => {
    const budgets = [50, 10, 40, 20, 30];
    marketStats(budgets);
    expect(budgets).toEqual([50, 10, 40, 20, 30]);
  });
});

// The work's own size at its rate (docs/decisions/054-felix-prices-the-works-own-hours.md).
const unit = fc.constantFrom<PricedWork["unit"]>("hour", "night", "visit");
const quantity = fc.double({ min: 0, max: 200, noNaN: true });
const rate = fc.double({ min: 20, max: 150, noNaN: true });
const helpers = fc.integer({ min: 1, max: 6 });
const workOf = (u: PricedWork["unit"], q: number, r: number, h: number, spread = 0.25): PricedWork => ({
  unit: u,
  quantity: { low: q * (1 - spread), mid: q, high: q * (1 + spread) },
  helpers: h,
  rate: { low: r * (1 - spread), mid: r, high: r * (1 + spread) },
});

describe("computePricing with the work's own hours", () => {
  it("prices 3 hours of cleaning at $45 an hour: $135, range from the low and high ends", () => {
    const b = computePricing({ miles: 0, stops: 0, urgency: "standard", work: { unit: "hour", quantity: { low: 2, mid: 3, high: 4 }, helpers: 1, rate: { low: 30, mid: 45, high: 60 } } });
    expect(b).toMatchObject({ laborHours: 3, workCost: 135, driveCost: 0, total: 135, suggestedBudget: 135, low: 60, high: 240 });
  });

  it("pays every helper for the drive and the work: 2 movers, 10 miles, 4 hours at $45", () => {
    // 10 / 50 = 0.2 h; 0.2 × 45 × 2 = 18; 4 × 45 × 2 = 360; mileage 5.80.
    const b = computePricing({ miles: 10, stops: 0, urgency: "standard", work: { unit: "hour", quantity: { low: 4, mid: 4, high: 4 }, helpers: 2, rate: { low: 45, mid: 45, high: 45 } } });
    expect(b).toMatchObject({ driveCost: 18, workCost: 360, laborCost: 378, mileageCost: 5.8, total: 383.8, suggestedBudget: 385 });
  });

  it("prices nights by the night and the drive at $20 an hour", () => {
    const b = computePricing({ miles: 5, stops: 0, urgency: "standard", work: { unit: "night", quantity: { low: 3, mid: 3, high: 3 }, helpers: 1, rate: { low: 75, mid: 75, high: 75 } } });
    expect(b).toMatchObject({ laborHours: 0.1, driveCost: 2, workCost: 225, total: 229.9, suggestedBudget: 230 });
  });

  it("refuses helpers below one and a negative quantity", () => {
    expect(() => computePricing({ miles: 0, stops: 0, urgency: "standard", work: workOf("hour", 1, 20, 0) })).toThrow(RangeError);
    expect(() => computePricing({ miles: 0, stops: 0, urgency: "standard", work: workOf("hour", -1, 20, 1, 0) })).toThrow(RangeError);
  });

  it("never falls as hours, miles or stops grow, and never goes under the floor", () => {
    fc.assert(
      fc.property(unit, quantity, quantity, miles, miles, stops, stops, rate, helpers, urgency, (u, q1, q2, m1, m2, s1, s2, r, h, urg) => {
        const small = computePricing({ miles: Math.min(m1, m2), stops: Math.min(s1, s2), urgency: urg, work: workOf(u, Math.min(q1, q2), r, h) });
        const big = computePricing({ miles: Math.max(m1, m2), stops: Math.max(s1, s2), urgency: urg, work: workOf(u, Math.max(q1, q2), r, h) });
        expect(big.suggestedBudget).toBeGreaterThanOrEqual(small.suggestedBudget);
        expect(big.low).toBeGreaterThanOrEqual(small.low);
        expect(big.high).toBeGreaterThanOrEqual(small.high);
        expect(small.suggestedBudget).toBeGreaterThanOrEqual(20);
        expect(small.low).toBeGreaterThanOrEqual(20);
      }),
    );
  });

  it("adds up: mileage, labor after the multiplier, stops and the top-up sum to the total; drive and work make labor", () => {
    fc.assert(
      fc.property(unit, quantity, miles, stops, rate, helpers, urgency, (u, q, m, s, r, h, urg) => {
        const b = computePricing({ miles: m, stops: s, urgency: urg, work: workOf(u, q, r, h) });
        const cents = (dollars: number) => Math.round(dollars * 100);
        expect(cents(b.mileageCost) + cents(b.urgencyLaborCost) + cents(b.stopsCost) + cents(b.minimumTopUp)).toBe(cents(b.total));
        expect(cents(b.driveCost) + cents(b.workCost)).toBe(cents(b.laborCost));
        expect(cents(b.workCost)).toBe(Math.round(b.workQuantity * b.rate * b.helpers * 100));
        expect(b.low).toBeLessThanOrEqual(b.suggestedBudget);
        expect(b.high).toBeGreaterThanOrEqual(b.suggestedBudget);
      }),
    );
  });
});
