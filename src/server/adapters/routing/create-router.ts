import type { FastifyBaseLogger } from "fastify";
import { routeMiles } from "../../../shared/felix-pricing.js";
import { systemTimers, type Timers } from "../clock/timers.js";
import type { Router } from "./router.js";

// The router port (router.ts): the offline estimate, or an OSRM-compatible service that falls
// back to the estimate on any failure (docs/decisions/006).

export interface RouterOptions {
  /** Base URL of an OSRM-compatible service: GET {url}/route/v1/driving/{lon,lat;...}. */
  url?: string;
  timeoutMs?: number;
  log?: FastifyBaseLogger;
  /** The request's timeout runs on these; tests pass virtual ones. */
  timers?: Timers;
}

const METERS_PER_MILE = 1609.344;
const DEFAULT_TIMEOUT_MS = 3_000;

export function createRouter(options: RouterOptions = {}): Router {
  const estimate: Router = { drivingMiles: async (points) => routeMiles(points) };
  const { url } = options;
  if (!url) return estimate;
  const base = url.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const timers = options.timers ?? systemTimers;
  return {
    async drivingMiles(points) {
      if (points.length < 2) return 0;
      const path = points.map((p) => `${p.lon},${p.lat}`).join(";");
      try {
        const response = await fetch(`${base}/route/v1/driving/${path}?overview=false`, {
          signal: timers.timeout(timeoutMs),
        });
        if (!response.ok) throw new Error(`routing answered ${response.status}`);
        const meters = readDistance(await response.json());
        if (meters === null) throw new Error("routing answer has no routes[0].distance");
        return meters / METERS_PER_MILE;
      } catch (error) {
        options.log?.warn({ err: error }, "routing service failed; using the great-circle estimate");
        return routeMiles(points);
      }
    },
  };
}

function readDistance(body: unknown): number | null {
  if (typeof body !== "object" || body === null || !("routes" in body) || !Array.isArray(body.routes)) return null;
  const first: unknown = body.routes[0];
  if (typeof first !== "object" || first === null || !("distance" in first)) return null;
  const { distance } = first;
  return typeof distance === "number" && Number.isFinite(distance) && distance >= 0 ? distance : null;
}
