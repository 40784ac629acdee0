import type { Env } from "../../config/env.js";
import type { GeocodeResult } from "../../../shared/tasks.js";
import { createGazetteerGeocoder } from "./gazetteer-geocoder.js";
import { createNominatimGeocoder } from "./nominatim-geocoder.js";

// Address search port: the offline US gazetteer by default, a Nominatim-compatible service when
// GEOCODER_URL is set (docs/decisions/007-geocoding.md).
export interface Geocoder {
  /** Up to `limit` US places for free text (street, town, "Town, ST", ZIP). */
  search(query: string, limit: number): Promise<GeocodeResult[]>;
}

export function createGeocoder(env: Pick<Env, "GEOCODER_URL" | "GEOCODER_USER_AGENT">, fetchImpl: typeof fetch = fetch): Geocoder {
  if (env.GEOCODER_URL) {
    return createNominatimGeocoder({ url: env.GEOCODER_URL, userAgent: env.GEOCODER_USER_AGENT, fetch: fetchImpl });
  }
  return createGazetteerGeocoder();
}
