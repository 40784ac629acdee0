import { eq, sql } from "drizzle-orm";
import type { FelixTaskPlaces } from "../../../shared/felix.js";
import { MARKET_MIN_SAMPLE, marketStats, type GeoPoint, type MarketStats } from "../../../shared/felix-pricing.js";
import { marketWork, type MarketWork } from "../../../shared/felix-work.js";
import { haversineMiles } from "../../../shared/geo.js";
import { queryRows, type Db } from "../../db/client.js";
import { tasks } from "../../db/schema/tasks.js";

// The market check: what posters actually paid for completed tasks of the same category nearby.
// Completed budgets say what providers accepted and finished, which open offers do not. Their own
// words say how big the work was, so the same rows give the market's hours and rate
// (docs/decisions/054-felix-prices-the-works-own-hours.md).

export const MARKET_RADIUS_MILES = 50;
/** Enough recent tasks for stable quartiles; older ones say less about today's prices. */
const MARKET_SAMPLE_LIMIT = 500;
const MILES_PER_DEGREE_LAT = 69;

export interface CompletedMarket {
  budgets: MarketStats | null;
  work: MarketWork;
}

export async function completedMarket(db: Db, category: string, origin: GeoPoint): Promise<CompletedMarket> {
  // A bounding box lets the index narrow the rows; the exact circle is checked below.
  const dLat = MARKET_RADIUS_MILES / MILES_PER_DEGREE_LAT;
  const dLon = MARKET_RADIUS_MILES / (MILES_PER_DEGREE_LAT * Math.max(Math.cos((origin.lat * Math.PI) / 180), 0.01));
  const rows = await queryRows<{ budget_cents: number; title: string; description: string; lat: number; lon: number }>(
    db,
    sql`select budget_cents, title, description, lat, lon from (
          select budget_cents, title, description, completed_at,
                 coalesce(approx_lat, start_lat, lat) as lat,
                 coalesce(approx_lon, start_lon, lon) as lon
          from tasks where status = 'completed' and category = ${category}
        ) t
        where lat between ${origin.lat - dLat} and ${origin.lat + dLat}
          and lon between ${origin.lon - dLon} and ${origin.lon + dLon}
        order by completed_at desc nulls last
        limit ${MARKET_SAMPLE_LIMIT}`,
  );
  const nearby = rows
    .filter((r) => haversineMiles(origin, { lat: Number(r.lat), lon: Number(r.lon) }) <= MARKET_RADIUS_MILES)
    .map((r) => ({ budget: Number(r.budget_cents) / 100, title: r.title, description: r.description }));
  return { budgets: marketStats(nearby.map((r) => r.budget)), work: marketWork(category, nearby, MARKET_MIN_SAMPLE) };
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
