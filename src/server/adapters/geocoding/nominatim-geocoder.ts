import { z } from "zod";
import type { GeocodeResult } from "../../../shared/tasks.js";
import { systemTimers, type Timers } from "../clock/timers.js";
import type { Geocoder } from "./geocoder.js";
import { stateCode } from "../../../shared/us-states.js";

// A Nominatim-compatible service (GEOCODER_URL), called from the server so that its usage policy
// holds for all our users together: one request per second at most (a queue), an identifying
// User-Agent, and answers cached so the same typing does not ask twice (docs/decisions/007-geocoding.md).

const nominatimPlaceSchema = z.object({
  display_name: z.string(),
  lat: z.coerce.number(),
  lon: z.coerce.number(),
  address: z
    .object({
      house_number: z.string().optional(),
      road: z.string().optional(),
      city: z.string().optional(),
      town: z.string().optional(),
      village: z.string().optional(),
      state: z.string().optional(),
    })
    .optional(),
});
type NominatimPlace = z.infer<typeof nominatimPlaceSchema>;

/** Street = house number + road, else the first part of the display name; city falls back to town, then village (docs/decisions/007-geocoding.md). */
export function toGeocodeResult(place: NominatimPlace): GeocodeResult {
  const a = place.address ?? {};
  const street = a.road ? [a.house_number, a.road].filter(Boolean).join(" ") : (place.display_name.split(",")[0] ?? "").trim();
  return {
    displayName: place.display_name,
    fullAddress: street,
    city: a.city ?? a.town ?? a.village ?? "",
    state: stateCode(a.state) ?? "",
    lat: place.lat,
    lon: place.lon,
  };
}

export interface NominatimOptions {
  /** The search endpoint, e.g. https://nominatim.openstreetmap.org/search */
  url: string;
  userAgent: string;
  fetch?: typeof fetch;
  /** Minimum time between two request starts. */
  minIntervalMs?: number;
  cacheTtlMs?: number;
  cacheSize?: number;
  timeoutMs?: number;
  /** The spacing, the timeout and the cache's age run on these; tests pass virtual ones. */
  timers?: Timers;
}

interface CacheEntry {
  at: number;
  results: GeocodeResult[];
}

export function createNominatimGeocoder(options: NominatimOptions): Geocoder {
  const doFetch = options.fetch ?? fetch;
  const minInterval = options.minIntervalMs ?? 1000;
  const ttl = options.cacheTtlMs ?? 24 * 3_600_000;
  const maxEntries = options.cacheSize ?? 1000;
  const timeoutMs = options.timeoutMs ?? 5000;
  const timers = options.timers ?? systemTimers;
  const now = () => timers.now();

  // LRU with TTL: a Map keeps insertion order, so a hit is re-inserted and the oldest is first.
  const cache = new Map<string, CacheEntry>();
  const inFlight = new Map<string, Promise<GeocodeResult[]>>();
  let queue: Promise<unknown> = Promise.resolve();
  let lastStart = -Infinity;

  async function request(query: string, limit: number): Promise<GeocodeResult[]> {
    // A loop, because a timer may fire a millisecond early by the wall clock.
    for (let wait = lastStart + minInterval - now(); wait > 0; wait = lastStart + minInterval - now()) {
      await timers.sleep(wait);
    }
    const url = new URL(options.url);
    url.searchParams.set("q", query);
    url.searchParams.set("format", "json");
    url.searchParams.set("addressdetails", "1");
    url.searchParams.set("countrycodes", "us");
    url.searchParams.set("limit", String(limit));
    const sending = doFetch(url, {
      headers: { "User-Agent": options.userAgent, Accept: "application/json" },
      signal: timers.timeout(timeoutMs),
    });
    // Taken once the request is on its way, so the next one starts a full interval after this one.
    lastStart = now();
    const res = await sending;
    if (!res.ok) throw new Error(`geocoder answered ${res.status}`);
    const places = z.array(nominatimPlaceSchema).parse(await res.json());
    return places.filter((p) => Number.isFinite(p.lat) && Number.isFinite(p.lon)).map(toGeocodeResult);
  }

  return {
    async search(query, limit) {
      const key = `${limit}|${query.trim().toLowerCase()}`;
      const hit = cache.get(key);
      if (hit && now() - hit.at < ttl) {
        cache.delete(key);
        cache.set(key, hit);
        return hit.results;
      }
      const pending = inFlight.get(key);
      if (pending) return pending;
      // Chained on the queue so request starts are at least `minInterval` apart across all callers.
      const run = queue.then(() => request(query.trim(), limit));
      queue = run.catch(() => undefined);
      inFlight.set(key, run);
      try {
        const results = await run;
        cache.delete(key);
        cache.set(key, { at: now(), results });
        while (cache.size > maxEntries) {
          const oldest = cache.keys().next();
          if (oldest.done) break;
          cache.delete(oldest.value);
        }
        return results;
      } finally {
        inFlight.delete(key);
      }
    },
  };
}
