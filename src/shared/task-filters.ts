import { EARTH_RADIUS_MILES } from "./geo.js";
import { MAX_BUDGET_CENTS } from "./money.js";
import { OFFICE_TIME_ZONE, startOfDayIn } from "./office-clock.js";

// The job board's filters: where (near a ZIP code or a point, within a radius), budget and when
// (docs/product.md#job-board-filters, docs/decisions/027-job-board-distance-and-dates.md). Pure:
// the server builds its SQL from these, the web its filter form and its URL. No zod here: the job
// board reads its address with these on its first load, and the query's schemas, which build on
// the same rules, are in task-filter-schemas.ts (issue 17, docs/decisions/029-lighter-first-load.md).

/** The radii a provider may choose, in miles. Few on purpose: each is a cheap bounding box. */
export const RADIUS_MILES = [5, 10, 25, 50] as const;
export type RadiusMiles = (typeof RADIUS_MILES)[number];

export const TASK_WHEN = ["today", "this_week", "flexible"] as const;
export type TaskWhen = (typeof TASK_WHEN)[number];

export const WHEN_LABELS: Record<TaskWhen, string> = { today: "Today", this_week: "This week", flexible: "Flexible (no date)" };

/**
 * The time zone in which "today" and "this week" are read. A task keeps its date as an instant,
 * not the poster's zone, so the board reads it on the office's clock (the business time zone,
 * docs/product.md#job-board-filters).
 */
export const BOARD_TIME_ZONE = OFFICE_TIME_ZONE;

const MILES_PER_DEGREE = (EARTH_RADIUS_MILES * Math.PI) / 180;

/** Where a search is centred: a US ZIP code (the server places it) or a point. */
export type NearPlace = { kind: "zip"; zip: string } | { kind: "point"; lat: number; lon: number };

export const NEAR_MESSAGE = "Enter a 5-digit ZIP code or a position as lat,lon, for example 21401 or 38.98,-76.49.";

/** A well-formed ZIP code the gazetteer does not hold (the server's answer, shown under the place). */
export const unknownZipMessage = (zip: string) => `We don't know the ZIP code ${zip}. Check it, or use a nearby one.`;
/** The longest `near` read: a ZIP code or a position, with room for spaces. */
export const NEAR_MAX_LENGTH = 60;

/**
 * "21401" → a ZIP code; "38.98,-76.49" (spaces allowed) → a point. A string for anything else,
 * the message to show. Coordinates are kept to 1e-6° (about 11 cm): a subnormal latitude such as
 * 5e-324 once made PostgreSQL's radians() underflow.
 */
export function parseNear(text: string): NearPlace | string {
  const value = text.trim();
  if (/^\d{5}$/.test(value)) return { kind: "zip", zip: value };
  const match = /^(-?\d{1,3}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)$/.exec(value);
  if (!match) return NEAR_MESSAGE;
  const lat = Math.round(Number(match[1]) * 1e6) / 1e6;
  const lon = Math.round(Number(match[2]) * 1e6) / 1e6;
  if (lat < -90 || lat > 90) return "Latitude must be between -90 and 90. Check the position, or enter a ZIP code instead.";
  if (lon < -180 || lon > 180) return "Longitude must be between -180 and 180. Check the position, or enter a ZIP code instead.";
  return { kind: "point", lat, lon };
}

/**
 * Distances are from a position rounded to 0.01° (up to half a mile off), so finer figures would
 * be false precision: tenths under 10 miles ("3.2"), whole miles from there ("14").
 */
export function roundMiles(miles: number): number {
  return miles < 10 ? Math.round(miles * 10) / 10 : Math.round(miles);
}

export interface BoundingBox {
  minLat: number;
  maxLat: number;
  /** Null when the box reaches a pole or crosses the 180° meridian: then longitude cannot narrow it. */
  lon: { min: number; max: number } | null;
}

/**
 * The smallest latitude/longitude box holding every point within `radius` miles of the centre
 * (J. Matuschek, "Finding Points Within a Distance of a Latitude/Longitude", 2011): the board filters
 * by it first, so an index on the coarse position can narrow the rows before the exact distance.
 */
export function boundingBox(lat: number, lon: number, radius: number): BoundingBox {
  // A hair wider than the exact bound, so rounding in SQL can never drop a task on the circle.
  const dLat = (radius / MILES_PER_DEGREE) * 1.000001;
  const minLat = lat - dLat;
  const maxLat = lat + dLat;
  if (minLat <= -90 || maxLat >= 90) return { minLat: Math.max(minLat, -90), maxLat: Math.min(maxLat, 90), lon: null };
  const angular = radius / EARTH_RADIUS_MILES;
  const dLon = (Math.asin(Math.min(1, Math.sin(angular) / Math.cos((lat * Math.PI) / 180))) * 180) / Math.PI;
  const min = lon - dLon * 1.000001;
  const max = lon + dLon * 1.000001;
  return { minLat, maxLat, lon: min < -180 || max > 180 ? null : { min, max } };
}

/**
 * What `when` selects (docs/product.md#job-board-filters): "today" a date on today's calendar day,
 * "this_week" a date from today through the sixth day after it (seven days, today included), both
 * read in BOARD_TIME_ZONE; "flexible" no date at all. Dates are [from, to).
 */
export function whenRange(when: TaskWhen, now: Date, timeZone: string = BOARD_TIME_ZONE): { from: Date; to: Date } | "unscheduled" {
  if (when === "flexible") return "unscheduled";
  return { from: startOfDayIn(timeZone, now, 0), to: startOfDayIn(timeZone, now, when === "today" ? 1 : 7) };
}

/** An area of the map: what the job board's map view searches when it is moved (decision 031). */
export interface MapArea {
  west: number;
  south: number;
  east: number;
  north: number;
}

export const BBOX_MESSAGE = "Give bbox as west,south,east,north in degrees, for example -77.2,38.8,-76.3,39.4.";
export const BBOX_MAX_LENGTH = 100;

/**
 * "west,south,east,north" (GeoJSON's order, Leaflet's toBBoxString) → an area; a string for
 * anything else, the message to show. Kept to 1e-6° like `near`. An area across the 180° meridian
 * (west above east) is refused: the board's map never shows one in the United States.
 */
export function parseBbox(text: string): MapArea | string {
  const parts = text.split(",").map((p) => p.trim());
  if (parts.length !== 4 || !parts.every((p) => /^-?\d{1,3}(?:\.\d+)?$/.test(p))) return BBOX_MESSAGE;
  const [west = 0, south = 0, east = 0, north = 0] = parts.map((p) => Math.round(Number(p) * 1e6) / 1e6);
  if (south < -90 || north > 90) return "Latitudes must be between -90 and 90. Move the map back over the United States.";
  if (west < -180 || east > 180) return "Longitudes must be between -180 and 180. Move the map back over the United States.";
  if (south >= north) return "South must be below north. Give the area as west,south,east,north.";
  if (west >= east) return "West must be less than east (an area across the 180° meridian is not supported). Give the area as west,south,east,north.";
  return { west, south, east, north };
}

/** The highest budget a filter may name, in dollars. */
export const MAX_BUDGET_FILTER_DOLLARS = MAX_BUDGET_CENTS / 100;

export const isRadiusMiles = (value: number): value is RadiusMiles => (RADIUS_MILES as readonly number[]).includes(value);

// Each filter field as a query string carries it, read by the same rules as the API's query
// (boardFilterFields in task-filter-schemas.ts): the value, or undefined (or the message to show)
// when the API would refuse it. task-filter-schemas.test.ts holds the two to the same answers.

/** `near`: a ZIP code or a position, at most NEAR_MAX_LENGTH characters; else the message to show. */
export function parseNearFilter(text: string): NearPlace | string {
  return text.length > NEAR_MAX_LENGTH ? NEAR_MESSAGE : parseNear(text);
}

/** `radiusMiles`: one of RADIUS_MILES, read as a number the way the API coerces it. */
export function readRadiusFilter(text: string): RadiusMiles | undefined {
  const value = Number(text);
  return isRadiusMiles(value) ? value : undefined;
}

/** `minBudget` or `maxBudget`: dollars from 0 to MAX_BUDGET_FILTER_DOLLARS. */
export function readBudgetFilter(text: string): number | undefined {
  const value = Number(text);
  return Number.isFinite(value) && value >= 0 && value <= MAX_BUDGET_FILTER_DOLLARS ? value : undefined;
}

export function readWhenFilter(text: string): TaskWhen | undefined {
  return TASK_WHEN.find((when) => when === text);
}

/** `bbox`: an area of the map, at most BBOX_MAX_LENGTH characters; else the message to show. */
export function parseBboxFilter(text: string): MapArea | string {
  return text.length > BBOX_MAX_LENGTH ? BBOX_MESSAGE : parseBbox(text);
}
