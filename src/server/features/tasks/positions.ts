import { and, asc, eq, gt, isNull, or } from "drizzle-orm";
import type { GeoPoint } from "../../../shared/felix-pricing.js";
import { formatPlace } from "../../../shared/places.js";
import type { Geocoder } from "../../adapters/geocoding/geocoder.js";
import type { AppContext } from "../../context.js";
import { tasks } from "../../db/schema/tasks.js";
import { recordTaskEvent, type TaskRow } from "../../transition-actions.js";

// A task's coarse position when the poster typed the place instead of picking a suggestion
// (docs/product.md#tasks, "Where a task is"): the server asks the geocoder port for the street,
// town and state as given, then for the town alone. Posting places the task this way; the job
// below places tasks stored without a position (posted before this rule, or while the geocoder
// was down).

/** The coarse position strangers see: 0.01 degree, about a kilometre. */
export const approx = (v: number | null | undefined) => (v === null || v === undefined ? null : Math.round(v * 100) / 100);

export interface TypedPlace {
  location: string | null | undefined;
  city: string | null | undefined;
  state: string | null | undefined;
}

/**
 * The first position the geocoder gives for the typed place, or null when it knows none. A
 * geocoder failure is thrown: the caller decides whether to post without a position or retry.
 */
export async function locateTypedPlace(geocoder: Geocoder, place: TypedPlace): Promise<GeoPoint | null> {
  const queries = [formatPlace(place.location, place.city, place.state), place.city ? formatPlace(null, place.city, place.state) : null];
  for (const query of new Set(queries)) {
    // The geocode route refuses fewer than 3 characters; the port is asked nothing it would refuse.
    if (!query || query.length < 3) continue;
    const [first] = await geocoder.search(query, 1);
    if (first) return { lat: first.lat, lon: first.lon };
  }
  return null;
}

/** How many unplaced tasks one run of the job reads at a time, and at most per run. */
const BATCH_SIZE = 100;
const MAX_PER_RUN = 1_000;

/**
 * The scheduled job "tasks:place-typed-addresses". It reads open tasks without a position in
 * (created_at, id) order from where it stopped, so a task the geocoder cannot place is asked
 * about once per process, not on every run; a geocoder failure stops the run before that task,
 * which is tried again on the next. Each row is set only while it still has no position, so
 * several instances running it together write each position once at most.
 */
export function createPositionBackfill(ctx: AppContext, onPlaced: (task: TaskRow) => void = () => {}) {
  let after: { createdAt: Date; id: string } | null = null;
  return async function placeUnplacedTasks(): Promise<number> {
    let placed = 0;
    for (let read = 0; read < MAX_PER_RUN; read += BATCH_SIZE) {
      const rows = await ctx.db
        .select({
          id: tasks.id,
          createdAt: tasks.createdAt,
          location: tasks.location,
          city: tasks.city,
          state: tasks.state,
          startLocation: tasks.startLocation,
          startCity: tasks.startCity,
          startState: tasks.startState,
        })
        .from(tasks)
        .where(
          and(
            eq(tasks.status, "open"),
            isNull(tasks.approxLat),
            after ? or(gt(tasks.createdAt, after.createdAt), and(eq(tasks.createdAt, after.createdAt), gt(tasks.id, after.id))) : undefined,
          ),
        )
        .orderBy(asc(tasks.createdAt), asc(tasks.id))
        .limit(BATCH_SIZE);
      for (const row of rows) {
        const isRoute = Boolean(row.startLocation);
        const point = await locateTypedPlace(
          ctx.geocoder,
          isRoute ? { location: row.startLocation, city: row.startCity, state: row.startState } : row,
        );
        if (point && (await setPosition(ctx, row.id, point, onPlaced))) placed += 1;
        after = { createdAt: row.createdAt, id: row.id };
      }
      if (rows.length < BATCH_SIZE) break;
    }
    return placed;
  };
}

async function setPosition(ctx: AppContext, taskId: string, point: GeoPoint, onPlaced: (task: TaskRow) => void): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const [task] = await tx
      .update(tasks)
      .set({ approxLat: approx(point.lat), approxLon: approx(point.lon) })
      .where(and(eq(tasks.id, taskId), isNull(tasks.approxLat)))
      .returning();
    if (!task) return false;
    // The task joins distance searches and the map as a posted task does: kept board answers that
    // it may join are dropped, and the poster's page refreshes.
    onPlaced(task);
    await recordTaskEvent(ctx.taskEventActions, "placed", { taskId: task.id, actorId: null, tx, now: ctx.now() });
    return true;
  });
}
