import type { GeoPoint } from "../../../shared/felix-pricing.js";

// Driving distance for Felix. The embedded default estimates it offline (great circle × road
// factor, docs/decisions/006); with ROUTING_URL an OSRM-compatible service measures the roads,
// and any failure of that service falls back to the estimate so Felix always answers.
// create-router.ts picks the adapter.

export interface Router {
  /** Driving miles along the points in order; 0 for fewer than two points. */
  drivingMiles(points: readonly GeoPoint[]): Promise<number>;
}
