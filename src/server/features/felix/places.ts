import type { FastifyBaseLogger } from "fastify";
import type { FelixContext } from "../../../shared/felix.js";
import type { GeoPoint } from "../../../shared/felix-pricing.js";
import type { Geocoder } from "../../adapters/geocoding/geocoder.js";
import { formatPlace } from "../../../shared/places.js";

// Turns the context's places into points. Coordinates picked from the autocomplete are trusted;
// a place typed by hand is geocoded. Felix asks for what is missing or not found instead of
// guessing a distance.

export interface ResolvedRoute {
  /** Start, stops, end in order; one point for a single-location task. */
  points: GeoPoint[];
  /** Stops between the first and last point; points[1..stopCount] are the stops. */
  stopCount: number;
  /** Where the task happens, for the market check; null when a single location was not found. */
  origin: GeoPoint | null;
}

export type RouteResolution = { ok: true; route: ResolvedRoute } | { ok: false; missing: string[]; notFound: string[] };

interface Place {
  /** What the person typed, shown back when it is not found. */
  label: string;
  query: string;
  lat: number | null | undefined;
  lon: number | null | undefined;
}

function place(address: string | null | undefined, city: string | null | undefined, state: string | null | undefined, lat: number | null | undefined, lon: number | null | undefined): Place | null {
  const query = formatPlace(address, city, state) ?? "";
  const hasCoordinates = typeof lat === "number" && typeof lon === "number";
  if (query === "" && !hasCoordinates) return null;
  return { label: query === "" ? `${String(lat)}, ${String(lon)}` : query, query, lat, lon };
}

export function contextPlaces(context: FelixContext) {
  return {
    start: place(context.startLocation, context.startCity, context.startState, context.startLat, context.startLon),
    end: place(context.endLocation, context.endCity, context.endState, context.endLat, context.endLon),
    single: place(context.location, context.city, context.state, context.lat, context.lon),
    stops: context.stops.map((s) => place(s.address, s.city, s.state, s.lat, s.lon)).filter((p): p is Place => p !== null),
  };
}

async function locate(geocoder: Geocoder, p: Place, log: FastifyBaseLogger): Promise<GeoPoint | null> {
  if (typeof p.lat === "number" && typeof p.lon === "number") return { lat: p.lat, lon: p.lon };
  try {
    const [first] = await geocoder.search(p.query, 1);
    return first ? { lat: first.lat, lon: first.lon } : null;
  } catch (error) {
    // A geocoder outage reads to the person like an unknown place: they can add a ZIP or retry.
    log.warn({ err: error }, "geocoding failed for Felix");
    return null;
  }
}

export async function resolveRoute(context: FelixContext, geocoder: Geocoder, log: FastifyBaseLogger): Promise<RouteResolution> {
  const { start, end, single, stops } = contextPlaces(context);
  const isRoute = start !== null || end !== null || stops.length > 0;
  if (!isRoute) {
    if (!single) return { ok: false, missing: ["the task's location"], notFound: [] };
    const point = await locate(geocoder, single, log);
    // One place prices the same wherever it is (0 miles); only the market check needs it found.
    return { ok: true, route: { points: point ? [point] : [], stopCount: 0, origin: point } };
  }
  const missing: string[] = [];
  if (!start) missing.push("the start location (where the task begins)");
  if (!end) missing.push("the end location (where the task finishes)");
  if (!start || !end) return { ok: false, missing, notFound: [] };
  const ordered = [start, ...stops, end];
  const located = await Promise.all(ordered.map((p) => locate(geocoder, p, log)));
  const notFound = ordered.filter((_, i) => located[i] === null).map((p) => p.label);
  const points = located.filter((p): p is GeoPoint => p !== null);
  if (notFound.length > 0) return { ok: false, missing: [], notFound };
  return { ok: true, route: { points, stopCount: stops.length, origin: points[0] ?? null } };
}
