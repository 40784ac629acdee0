import { createRequire } from "node:module";
import type { NearPlace } from "../../../shared/task-filters.js";
import type { GeocodeResult } from "../../../shared/tasks.js";
import type { Geocoder } from "./geocoder.js";
import { stateCode } from "../../../shared/us-states.js";

// The embedded default: an offline US gazetteer from the `zipcodes` package (ZIP code centroids
// with their town and state). It knows towns and ZIP codes, not streets, so a street typed before
// the town is kept as typed and placed at the town's position (docs/decisions/007-geocoding.md).

interface ZipEntry {
  zip: string;
  latitude: number;
  longitude: number;
  city: string;
  state: string;
  country: string;
}

interface Town {
  city: string;
  state: string;
  lat: number;
  lon: number;
  /** First ZIP code, shown in the display name. */
  zip: string;
  /** How many ZIP codes the town has: a stand-in for its size when ranking prefix matches. */
  zipCount: number;
  key: string;
}

interface Index {
  byZip: Map<string, ZipEntry>;
  byName: Map<string, Town[]>;
  /** Towns sorted by lower-case name, for prefix search by binary search. */
  sorted: Town[];
}

let index: Index | null = null;

function loadIndex(): Index {
  if (index) return index;
  // The package's public `codes` (its main module; lib/ is private and may move in any release).
  // It holds Canada's postal areas too, which the US filter below drops. Loaded on the first
  // search, not at start-up: it is 5 MB of JavaScript.
  const require = createRequire(import.meta.url);
  const { codes } = require("zipcodes") as { codes: Record<string, ZipEntry> };
  const byZip = new Map<string, ZipEntry>();
  const towns = new Map<string, { city: string; state: string; latSum: number; lonSum: number; zips: string[] }>();
  for (const entry of Object.values(codes)) {
    if (entry.country !== "US") continue;
    byZip.set(entry.zip, entry);
    const key = `${entry.city.toLowerCase()}|${entry.state}`;
    const town = towns.get(key) ?? { city: entry.city, state: entry.state, latSum: 0, lonSum: 0, zips: [] };
    town.latSum += entry.latitude;
    town.lonSum += entry.longitude;
    town.zips.push(entry.zip);
    towns.set(key, town);
  }
  const all: Town[] = [...towns.entries()].map(([key, t]) => ({
    city: t.city,
    state: t.state,
    lat: Math.round((t.latSum / t.zips.length) * 10_000) / 10_000,
    lon: Math.round((t.lonSum / t.zips.length) * 10_000) / 10_000,
    zip: [...t.zips].sort()[0] ?? "",
    zipCount: t.zips.length,
    key: key.split("|")[0] ?? "",
  }));
  const byName = new Map<string, Town[]>();
  for (const town of all) byName.set(town.key, [...(byName.get(town.key) ?? []), town]);
  all.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : b.zipCount - a.zipCount));
  index = { byZip, byName, sorted: all };
  return index;
}

function prefixMatches(idx: Index, prefix: string): Town[] {
  let lo = 0;
  let hi = idx.sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const town = idx.sorted[mid];
    if (town && town.key < prefix) lo = mid + 1;
    else hi = mid;
  }
  const out: Town[] = [];
  for (let i = lo; i < idx.sorted.length; i++) {
    const town = idx.sorted[i];
    if (!town || !town.key.startsWith(prefix)) break;
    out.push(town);
  }
  return out;
}

export interface ParsedQuery {
  street: string | null;
  town: string | null;
  state: string | null;
  zip: string | null;
}

/**
 * "58 West St, Annapolis, MD 21401" → street "58 West St", town "Annapolis", state "MD", zip
 * "21401". A ZIP counts only at the end, so a five-digit house number stays in the street.
 */
export function parseQuery(query: string): ParsedQuery {
  let rest = query.trim().replace(/\s+/g, " ");
  let zip: string | null = null;
  const zipMatch = /(?:^|[\s,])(\d{5})(?:-\d{4})?$/.exec(rest);
  if (zipMatch?.[1]) {
    zip = zipMatch[1];
    rest = rest.slice(0, zipMatch.index).trim();
  }
  const parts = rest
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  let state: string | null = null;
  const last = parts.at(-1);
  if (last !== undefined) {
    const whole = parts.length > 1 ? stateCode(last) : null;
    if (whole) {
      state = whole;
      parts.pop();
    } else {
      // "Annapolis MD" or "Annapolis Maryland" without a comma.
      const words = last.split(" ");
      for (const take of [1, 2]) {
        if (words.length <= take) continue;
        const code = stateCode(words.slice(-take).join(" "));
        if (code) {
          state = code;
          parts[parts.length - 1] = words.slice(0, -take).join(" ");
          break;
        }
      }
    }
  }
  const town = parts.length > 0 ? (parts.at(-1) ?? null) : null;
  const street = parts.length > 1 ? parts.slice(0, -1).join(", ") : null;
  // One part that starts with a number is a street with no town: nothing to place it in.
  if (parts.length === 1 && town && /^\d/.test(town)) return { street: town, town: null, state, zip };
  return { street, town, state, zip };
}

function result(street: string | null, city: string, state: string, zip: string, lat: number, lon: number): GeocodeResult {
  return {
    displayName: [street, city, `${state} ${zip}`].filter(Boolean).join(", "),
    fullAddress: street ?? city,
    city,
    state,
    lat,
    lon,
  };
}

export function createGazetteerGeocoder(): Geocoder {
  return {
    async search(query, limit) {
      const idx = loadIndex();
      const parsed = parseQuery(query);
      if (parsed.zip) {
        const entry = idx.byZip.get(parsed.zip);
        if (entry && (!parsed.state || parsed.state === entry.state)) {
          return [result(parsed.street, entry.city, entry.state, entry.zip, entry.latitude, entry.longitude)];
        }
      }
      const inState = (t: Town) => !parsed.state || t.state === parsed.state;
      const exactTowns = (name: string) => (idx.byName.get(name) ?? []).filter(inState).sort((a, b) => b.zipCount - a.zipCount);
      if (!parsed.town) {
        // "12 Duke of Gloucester St Annapolis" without a comma: the town is the last words, when
        // they name one exactly and a house number and a street name are left before them.
        const words = (parsed.street ?? "").split(" ");
        for (let take = Math.min(3, words.length - 2); take >= 1; take--) {
          const towns = exactTowns(words.slice(-take).join(" ").toLowerCase());
          const street = words.slice(0, -take).join(" ");
          if (towns.length > 0) return towns.slice(0, limit).map((t) => result(street, t.city, t.state, t.zip, t.lat, t.lon));
        }
        return [];
      }
      const name = parsed.town.toLowerCase();
      // A town being typed is completed. With a street before it, only after a house number
      // ("12 Main St, Annap"), the street kept as typed in each town offered; other text before an
      // unknown town ("Toronto, ON") is no US place.
      const completes = !parsed.street || /^\d/.test(parsed.street);
      const prefixed = completes ? prefixMatches(idx, name).filter((t) => inState(t) && t.key !== name) : [];
      const towns = [...exactTowns(name), ...prefixed.sort((a, b) => b.zipCount - a.zipCount)];
      return towns.slice(0, limit).map((t) => result(parsed.street, t.city, t.state, t.zip, t.lat, t.lon));
    },
  };
}

/**
 * A US ZIP code's centroid from the offline table, or null when there is no such ZIP code. The job
 * board places `near=21401` with it even when GEOCODER_URL names an external service: a public,
 * per-request filter cannot wait in a one-request-a-second queue (docs/decisions/027-job-board-distance-and-dates.md).
 */
export function findZip(zip: string): { lat: number; lon: number; city: string; state: string } | null {
  const entry = loadIndex().byZip.get(zip);
  return entry ? { lat: entry.latitude, lon: entry.longitude, city: entry.city, state: entry.state } : null;
}

/** Where a search is centred (`near`): a ZIP code's centroid, or the point itself; null for an unknown ZIP code. */
export function nearPoint(near: NearPlace): { lat: number; lon: number } | null {
  if (near.kind === "point") return { lat: near.lat, lon: near.lon };
  const place = findZip(near.zip);
  return place ? { lat: place.lat, lon: place.lon } : null;
}
