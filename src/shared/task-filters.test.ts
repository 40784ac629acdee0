import { describe, expect, it } from "vitest";
import { haversineMiles } from "./geo.js";
import { boundingBox, parseNear, roundMiles, whenRange } from "./task-filters.js";

describe("parseNear", () => {
  it("reads a 5-digit ZIP code and a lat,lon point", () => {
    expect(parseNear(" 21401 ")).toEqual({ kind: "zip", zip: "21401" });
    expect(parseNear("38.98,-76.49")).toEqual({ kind: "point", lat: 38.98, lon: -76.49 });
    expect(parseNear("38.98 , -76.49")).toEqual({ kind: "point", lat: 38.98, lon: -76.49 });
    expect(parseNear("-90,180")).toEqual({ kind: "point", lat: -90, lon: 180 });
  });

  it("rounds a point to 1e-6 degree, so a subnormal latitude becomes 0", () => {
    expect(parseNear("0.0000000000001,0")).toEqual({ kind: "point", lat: 0, lon: 0 });
  });

  it.each([["2140"], ["214011"], ["21401-1234"], ["Annapolis"], ["1,2,3"], ["1e3,2"], [""], ["38.98;-76.49"]])("refuses %j", (text) => {
    expect(parseNear(text)).toBe("Enter a 5-digit ZIP code or a position as lat,lon, for example 21401 or 38.98,-76.49.");
  });

  it("names the coordinate out of range", () => {
    expect(parseNear("90.5,0")).toBe("Latitude must be between -90 and 90. Check the position, or enter a ZIP code instead.");
    expect(parseNear("0,-180.01")).toBe("Longitude must be between -180 and 180. Check the position, or enter a ZIP code instead.");
  });
});

describe("haversineMiles and roundMiles", () => {
  it("measures great-circle miles", () => {
    // Baltimore to Washington, about 35 miles as the crow flies.
    expect(haversineMiles({ lat: 39.29, lon: -76.61 }, { lat: 38.9, lon: -77.04 })).toBeCloseTo(35.5, 0);
    expect(haversineMiles({ lat: 10, lon: 10 }, { lat: 10, lon: 10 })).toBe(0);
  });

  it("rounds to tenths under 10 miles and to whole miles from 10", () => {
    expect(roundMiles(3.249)).toBe(3.2);
    expect(roundMiles(9.94)).toBe(9.9);
    expect(roundMiles(9.96)).toBe(10);
    expect(roundMiles(14.5)).toBe(15);
    expect(roundMiles(0)).toBe(0);
  });
});

describe("boundingBox", () => {
  it("holds every point of the circle: points just inside each edge are in, the box is not much larger", () => {
    for (const [lat, lon] of [
      [38.99, -76.55],
      [64.84, -147.72],
      [-33.87, 151.21],
    ] as const) {
      for (const radius of [5, 10, 25, 50]) {
        const box = boundingBox(lat, lon, radius);
        expect(box.lon).not.toBeNull();
        // Walk the circle: every point at exactly `radius` miles lies in the box.
        for (let bearing = 0; bearing < 360; bearing += 5) {
          const point = destination(lat, lon, radius * 0.999999, bearing);
          expect(point.lat).toBeGreaterThanOrEqual(box.minLat);
          expect(point.lat).toBeLessThanOrEqual(box.maxLat);
          expect(point.lon).toBeGreaterThanOrEqual(box.lon?.min ?? Number.NaN);
          expect(point.lon).toBeLessThanOrEqual(box.lon?.max ?? Number.NaN);
        }
        // Tight: the north edge is the radius away, not more.
        expect(haversineMiles({ lat, lon }, { lat: box.maxLat, lon })).toBeCloseTo(radius, 2);
      }
    }
  });

  it("drops the longitude bound at a pole or across the 180° meridian", () => {
    expect(boundingBox(89.9, 0, 25).lon).toBeNull();
    expect(boundingBox(51.9, 179.9, 25).lon).toBeNull();
    expect(boundingBox(89.9, 0, 25).maxLat).toBe(90);
  });
});

/** The point `miles` away on a bearing (degrees), on the same sphere. */
function destination(lat: number, lon: number, miles: number, bearing: number): { lat: number; lon: number } {
  const r = Math.PI / 180;
  const d = miles / 3958.8;
  const φ1 = lat * r;
  const θ = bearing * r;
  const φ2 = Math.asin(Math.sin(φ1) * Math.cos(d) + Math.cos(φ1) * Math.sin(d) * Math.cos(θ));
  const λ2 = lon * r + Math.atan2(Math.sin(θ) * Math.sin(d) * Math.cos(φ1), Math.cos(d) - Math.sin(φ1) * Math.sin(φ2));
  return { lat: φ2 / r, lon: λ2 / r };
}

describe("whenRange", () => {
  it("is today's calendar day in New York, and the seven days from it", () => {
    // 2026-06-01 02:00 UTC is still May 31 in New York (EDT, UTC-4).
    const now = new Date("2026-06-01T02:00:00Z");
    expect(whenRange("today", now)).toEqual({ from: new Date("2026-05-31T04:00:00Z"), to: new Date("2026-06-01T04:00:00Z") });
    expect(whenRange("this_week", now)).toEqual({ from: new Date("2026-05-31T04:00:00Z"), to: new Date("2026-06-07T04:00:00Z") });
    expect(whenRange("flexible", now)).toBe("unscheduled");
  });

  it("follows daylight saving time across the week", () => {
    // Clocks go back on 2026-11-01: the week's end is at UTC-5.
    const now = new Date("2026-10-30T15:00:00Z");
    expect(whenRange("this_week", now)).toEqual({ from: new Date("2026-10-30T04:00:00Z"), to: new Date("2026-11-06T05:00:00Z") });
  });
});
