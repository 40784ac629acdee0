import { eq, sql } from "drizzle-orm";
import type { FelixTaskPlaces } from "../../../shared/felix.js";
import { marketStats, type GeoPoint, type MarketStats } from "../../../shared/felix-pricing.js";
import { haversineMiles } from "../../../shared/geo.js";
import { queryRows, type Db } from "../../db/client.js";
import { tasks } from "../../db/schema/tasks.js";

// The market check: what posters actually paid for completed tasks of the same category nearby.
// Completed budgets say what providers accepted and finished, which open offers do not.

export const MARKET_RADIUS_MILES = 50;
/** Enough recent tasks for stable quartiles; older ones say less about today's prices. */
const MARKET_SAMPLE_LIMIT = 500;
const MILES_PER_DEGREE_LAT = 69;

export async function completedMarket(db: Db, category: string, origin: GeoPoint): Promise<MarketStats | null> {
  // A bounding box lets the index narrow the rows; the exact circle is checked below.
  const dLat = MARKET_RADIUS_MILES / MILES_PER_DEGREE_LAT;
  const dLon = MARKET_RADIUS_MILES / (MILES_PER_DEGREE_LAT * Math.max(Math.cos((origin.lat * Math.PI) / 180), 0.01));
  const rows = await queryRows<{ budget_cents: number; lat: number; lon: number }>(
    db,
    sql`select budget_cents, lat, lon from (
          select budget_cents, completed_at,
                 coalesce(approx_lat, start_lat, lat) as lat,
                 coalesce(approx_lon, start_lon, lon) as lon
          from tasks where status = 'completed' and category = ${category}
        ) t
        where lat between ${origin.lat - dLat} and ${origin.lat + dLat}
          and lon between ${origin.lon - dLon} and ${origin.lon + dLon}
        order by completed_at desc nulls last
        limit ${MARKET_SAMPLE_LIMIT}`,
  );
  const budgets = rows
    .filter((r) => haversineMiles(origin, { lat: Number(r.lat), lon: Number(r.lon) }) <= MARKET_RADIUS_MILES)
    .map((r) => Number(r.budget_cents) / 100);
  return marketStats(budgets);
}

/** What Felix reads of a posted task: its places, urgency and budget, and who may ask about it. */
export interface FelixTask {
  userId: string;
  providerId: string | null;
  status: string;
  budgetCents: number;
  places: FelixTaskPlaces;
}

export async function felixTask(db: Db, id: string): Promise<FelixTask | null> {
  const [row] = await db.select().from(tasks).where(eq(tasks.id, id)).limit(1);
  if (!row) return null;
  const { userId, providerId, status, budgetCents, ...places } = row;
  return { userId, providerId, status, budgetCents, places: { ...places, stops: row.stops ?? [] } };
}
