import { describe, expect, it } from "vitest";
import { usualRange, USUAL_RANGES } from "./felix-bounds.js";
import { computePricing } from "./felix-pricing.js";
import { METRO_PRICE_PARITIES, NATIONAL, STATE_PRICE_PARITIES, priceRegion } from "./felix-region.js";
import { RATES, estimateWork, regionalRate } from "./felix-work.js";

// The place's price level (docs/decisions/080-felix-regional-labour-and-shown-bounds.md): BEA's
// regional price parities scale the national rates and usual ranges; anything local stays as it is.

const NEW_YORK = { name: "the New York area", factor: 1.1264 };
/** A region as priceRegion returns it: its factor is the parity / 100, to floating point. */
const region = (name: string, factor: number) => ({ name, factor: expect.closeTo(factor, 9) as number });

describe("priceRegion", () => {
  it("names a metro by its principal city, whatever the state is written as", () => {
    expect(priceRegion({ city: "New York", state: "NY" })).toEqual(region(NEW_YORK.name, NEW_YORK.factor));
    expect(priceRegion({ city: " new york ", state: "New York" })).toEqual(region(NEW_YORK.name, NEW_YORK.factor));
  });

  it("finds a metro by the point inside its circle, and the nearer city where two circles meet", () => {
    // Hoboken, NJ, a mile across the Hudson: the New York metro, not New Jersey's state figure.
    expect(priceRegion({ city: "Hoboken", state: "NJ", point: { lat: 40.744, lon: -74.0324 } })).toEqual(region(NEW_YORK.name, NEW_YORK.factor));
    // Santa Cruz lies inside San Jose's circle too; its own centre is nearer.
    expect(priceRegion({ point: { lat: 36.97, lon: -122.03 } })).toEqual(region("the Santa Cruz area", 1.1277));
  });

  it("falls back on the state outside every metro, and on the US average where the state has no figure", () => {
    // Fresno, CA: 150 miles from every metro in the table.
    expect(priceRegion({ city: "Fresno", state: "CA", point: { lat: 36.7378, lon: -119.7871 } })).toEqual(region("California", 1.126));
    expect(priceRegion({ city: "Jackson", state: "Mississippi" })).toEqual(region("Mississippi", 0.873));
    expect(priceRegion({ city: "Washington", state: "DC" })).toEqual(region("Washington, DC", 1.108));
    expect(priceRegion({ city: "Wichita", state: "KS" })).toBe(NATIONAL);
    expect(priceRegion({ city: null, state: null, point: null })).toBe(NATIONAL);
    expect(priceRegion({ city: "Somewhere", state: "Atlantis" })).toBe(NATIONAL);
  });

  it("keeps only parities of the published table's scale (US = 100)", () => {
    for (const parity of [...Object.values(STATE_PRICE_PARITIES), ...METRO_PRICE_PARITIES.map((m) => m.parity)]) {
      expect(parity).toBeGreaterThan(80);
      expect(parity).toBeLessThan(125);
    }
  });
});

describe("regionalRate", () => {
  it("scales a published rate to the cent, and leaves it alone at the US average", () => {
    expect(regionalRate(RATES.cleaning, NEW_YORK, "hour")).toEqual({ low: 33.79, mid: 50.69, high: 67.58 });
    expect(regionalRate(RATES.cleaning, NATIONAL, "hour")).toBe(RATES.cleaning);
  });

  it("never takes an hourly rate at the spec's $20 under it, but scales a per-visit rate down", () => {
    const mississippi = { name: "Mississippi", factor: 0.873 };
    // $20 × 0.873 = $17.46 stays at $20; $30 × 0.873 = $26.19; $35 × 0.873 = $30.555 -> $30.56.
    expect(regionalRate(RATES.errand, mississippi, "hour")).toEqual({ low: 20, mid: 26.19, high: 30.56 });
    expect(regionalRate(RATES.dropIn, mississippi, "visit")).toEqual({ low: 13.1, mid: 17.46, high: 21.83 });
  });
});

describe("the region in an estimate", () => {
  it("prices the same hours at the place's level and says where the rate comes from", () => {
    const query = { category: "errands", title: "Wait for a furniture delivery, 2 hours" };
    const national = estimateWork(query);
    const newYork = estimateWork({ ...query, region: NEW_YORK });
    // $30 × 1.1264 = $33.792 -> $33.79 an hour; 2 hours: $67.58 -> $70 in New York, $60 at the US average.
    expect(national.rate.mid).toBe(30);
    expect(newYork.rate.mid).toBe(33.79);
    expect(newYork.rateFrom).toBe("the usual rate for an errand is $33.79 an hour (published cost guides, at prices in the New York area, 13% above the US average)");
    expect(computePricing({ miles: 0, stops: 0, urgency: "standard", work: newYork }).suggestedBudget).toBe(70);
    expect(computePricing({ miles: 0, stops: 0, urgency: "standard", work: national }).suggestedBudget).toBe(60);
  });

  it("keeps a rate from completed tasks nearby as it is: it is already the place's", () => {
    const market = { quantity: null, rate: { median: 40, count: 6 } };
    const work = estimateWork({ category: "errands", title: "Wait for a delivery, 2 hours", market, region: NEW_YORK });
    expect(work.rate.mid).toBe(40);
  });

  it("scales the guides' usual range to the place, to the dollar, but not the market's", () => {
    expect(usualRange("errand", null, NEW_YORK)).toEqual({ range: { low: 23, high: 118 }, from: "guides" });
    expect(usualRange("errand", null, NATIONAL)).toEqual({ range: USUAL_RANGES.errand, from: "guides" });
    expect(usualRange("errand", { count: 6, median: 60, p25: 45, p75: 90 }, NEW_YORK).range).toEqual({ low: 45, high: 90 });
  });
});
