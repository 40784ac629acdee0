import type { GeocodeResult } from "../../../shared/tasks.js";

// Address search port: the offline US gazetteer (gazetteer-geocoder.ts) by default, a
// Nominatim-compatible service (nominatim-geocoder.ts) when GEOCODER_URL is set; create-geocoder.ts
// picks one (docs/decisions/007-geocoding.md).
export interface Geocoder {
  /** Up to `limit` US places for free text (street, town, "Town, ST", ZIP). */
  search(query: string, limit: number): Promise<GeocodeResult[]>;
}
