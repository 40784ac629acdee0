import type { GeocodeResult } from "../../../shared/tasks.js";

// Placeholder until the tasks feature lands; the interface is the agreed one.
export interface Geocoder {
  /** Up to `limit` US places for free text (street, town, "Town, ST", ZIP). */
  search(query: string, limit: number): Promise<GeocodeResult[]>;
}

export function createGeocoder(): Geocoder {
  return { search: async () => [] };
}
