import type { Env } from "../../config/env.js";
import { createGazetteerGeocoder } from "./gazetteer-geocoder.js";
import type { Geocoder } from "./geocoder.js";
import { createNominatimGeocoder } from "./nominatim-geocoder.js";

// Picks the address search adapter: the offline US gazetteer by default, a Nominatim-compatible
// service when GEOCODER_URL is set (docs/decisions/007-geocoding.md). Neither loads anything heavy
// when imported (the gazetteer reads its ZIP table on the first search), so both are static imports.
export function createGeocoder(env: Pick<Env, "GEOCODER_URL" | "GEOCODER_USER_AGENT">, fetchImpl: typeof fetch = fetch): Geocoder {
  if (env.GEOCODER_URL) {
    return createNominatimGeocoder({ url: env.GEOCODER_URL, userAgent: env.GEOCODER_USER_AGENT, fetch: fetchImpl });
  }
  return createGazetteerGeocoder();
}
