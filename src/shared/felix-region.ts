import { haversineMiles } from "./geo.js";
import { stateCode, stateName } from "./us-states.js";

// What the place does to a price: labour costs more in New York than in Kansas. Felix's rates
// are national figures from published guides (docs/product.md#felix-rates); the hours of work
// they price are scaled by the place's regional price parity, BEA's price level of an area
// against the US average, so a $30 errand hour reads $33.79 in the New York area and $26.19 in Mississippi.
// Mileage at the IRS rate, stop fees and trip fees are national and are not scaled; a rate or a
// usual range from completed tasks nearby is already local and is not scaled either
// (docs/decisions/080-felix-regional-labour-and-shown-bounds.md).
//
// Source: U.S. Bureau of Economic Analysis, Regional Price Parities, all items, 2023 (released
// December 12, 2024), US = 100. Only figures we could read in our reference library on 2026-12-07
// are kept (docs/decisions/080-felix-regional-labour-and-shown-bounds.md): the states the release
// names (https://bea.gov/newsreleases/regional/rpp/rpp_newsrelease.htm) and the 15 dearest
// metropolitan areas of BEA's MARPP table as Business Initiative lists them
// (https://www.businessinitiative.org/statistics/bea/metro-area-regional-price-parity-rankings-top-msas-2023/).
// A place outside them is priced at the US average until the full tables are read. All items, not
// "other services": labour-heavy services are priced from local pay, which follows the whole local
// price level, rents included; BEA's "other services" parity also holds medical and education
// prices set nationally, and hardly moves.

/** Price level of the states (and DC) the BEA release names, against the US average (= 100), 2023, all items. */
export const STATE_PRICE_PARITIES: Readonly<Record<string, number>> = {
  CA: 112.6, NJ: 108.9, HI: 108.6, DC: 110.8, AR: 86.5, MS: 87.3, SD: 88.1,
};

export interface MetroParity {
  /** "New York": said as "the New York area". */
  name: string;
  /** The principal city and its state, as the gazetteer names them ("San Jose", "CA"). */
  city: string;
  state: string;
  /** The principal city's position, the centre of the circle that stands in for the metro's counties. */
  lat: number;
  lon: number;
  radiusMiles: number;
  parity: number;
}

const metro = (name: string, where: [city: string, state: string], lat: number, lon: number, radiusMiles: number, parity: number): MetroParity => ({
  name,
  city: where[0],
  state: where[1],
  lat,
  lon,
  radiusMiles,
  parity,
});

/**
 * The 15 metropolitan areas with the highest price level, BEA 2023, all items. A metro is a set of
 * counties; offline Felix knows a place's coordinates, not its county, so a circle around the
 * principal city stands in for it (wider for the sprawling ones), and a place inside two circles
 * takes the nearer city.
 */
export const METRO_PRICE_PARITIES: readonly MetroParity[] = [
  metro("San Francisco", ["San Francisco", "CA"], 37.7749, -122.4194, 30, 117.55),
  metro("Los Angeles", ["Los Angeles", "CA"], 34.0522, -118.2437, 40, 114.75),
  metro("Santa Maria-Santa Barbara", ["Santa Barbara", "CA"], 34.4208, -119.6982, 25, 113.73),
  metro("Oxnard-Thousand Oaks-Ventura", ["Oxnard", "CA"], 34.1975, -119.1771, 20, 113.69),
  metro("Salinas", ["Salinas", "CA"], 36.6777, -121.6555, 20, 113.18),
  metro("San Jose", ["San Jose", "CA"], 37.3382, -121.8863, 25, 113.06),
  metro("Santa Cruz", ["Santa Cruz", "CA"], 36.9741, -122.0308, 15, 112.77),
  metro("Seattle", ["Seattle", "WA"], 47.6062, -122.3321, 35, 112.73),
  metro("New York", ["New York", "NY"], 40.7128, -74.006, 40, 112.64),
  metro("Miami", ["Miami", "FL"], 25.7617, -80.1918, 45, 112.09),
  metro("Napa", ["Napa", "CA"], 38.2975, -122.2869, 15, 111.83),
  metro("Honolulu", ["Honolulu", "HI"], 21.3069, -157.8583, 30, 111.42),
  metro("San Luis Obispo", ["San Luis Obispo", "CA"], 35.2828, -120.6596, 25, 111.02),
  metro("San Diego", ["San Diego", "CA"], 32.7157, -117.1611, 35, 110.74),
  metro("Boston", ["Boston", "MA"], 42.3601, -71.0589, 35, 110.39),
];

/** Where a task's labour is priced, and how far its price level is from the US average. */
export interface PriceRegion {
  /** "the New York area", "Kansas"; null for the US average (a place not known). */
  name: string | null;
  /** The regional price parity / 100: 1.125 in the New York area, 1 where the place is not known. */
  factor: number;
}

/** The US average: what a place Felix does not know is priced at. */
export const NATIONAL: PriceRegion = { name: null, factor: 1 };

const sameName = (a: string, b: string) => a.trim().toLowerCase().replace(/^st\.? /, "saint ") === b.toLowerCase();

/**
 * The region a task is priced in, from its place (the single location or the route's start): the
 * metro it names ("New York, NY") or whose circle holds its point, else its state, else the US
 * average. `state` may be a code or a name.
 */
export function priceRegion(place: { city?: string | null; state?: string | null; point?: { lat: number; lon: number } | null }): PriceRegion {
  const code = stateCode(place.state);
  const city = place.city;
  const named = city ? METRO_PRICE_PARITIES.find((m) => m.state === code && sameName(city, m.city)) : undefined;
  if (named) return { name: `the ${named.name} area`, factor: named.parity / 100 };
  if (place.point) {
    const point = place.point;
    const near = METRO_PRICE_PARITIES.map((m) => ({ m, miles: haversineMiles(point, m) }))
      .filter(({ m, miles }) => miles <= m.radiusMiles)
      .sort((a, b) => a.miles - b.miles)[0];
    if (near) return { name: `the ${near.m.name} area`, factor: near.m.parity / 100 };
  }
  const parity = code ? STATE_PRICE_PARITIES[code] : undefined;
  if (!code || parity === undefined) return NATIONAL;
  return { name: code === "DC" ? "Washington, DC" : stateName(code), factor: parity / 100 };
}
