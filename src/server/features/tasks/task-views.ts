import { inArray, sql } from "drizzle-orm";
import type { Category } from "../../../shared/constants.js";
import { centsToDollars } from "../../../shared/money.js";
import type { TaskPrivate, TaskPublic } from "../../../shared/tasks.js";
import type { Db } from "../../db/client.js";
import { revealedCondition } from "../../db/review-visibility.js";
import { users } from "../../db/schema/users.js";
import type { TaskRow } from "../../task-events.js";

// Database rows become API answers here and nowhere else: integer cents turn into dollars
// (docs/decisions/004-money-in-the-api.md) and the public view is built field by field, so a
// street address can only reach a stranger if someone adds it to this file on purpose.

export type TaskParty = TaskPublic["poster"];

/** Poster and provider cards with their review average (1 decimal) and count, in one query. */
/** `now` decides which blind reviews are revealed yet (only those count in the average). */
export async function loadParties(db: Db, ids: readonly string[], now: Date): Promise<Map<string, TaskParty>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      profileImageUrl: users.profileImageUrl,
      // Written out in full: inside the subquery an unqualified "id" would be the review's own id.
      rating: sql<string | null>`(select round(avg(r.rating)::numeric, 1) from reviews r join tasks t on t.id = r.task_id
        where r.reviewed_id = "users"."id" and ${revealedCondition(now)})`,
      reviewCount: sql<number>`(select count(*)::int from reviews r join tasks t on t.id = r.task_id
        where r.reviewed_id = "users"."id" and ${revealedCondition(now)})`,
    })
    .from(users)
    .where(inArray(users.id, unique));
  return new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        firstName: r.firstName,
        lastName: r.lastName,
        profileImageUrl: r.profileImageUrl,
        rating: r.rating === null ? null : Number(r.rating),
        reviewCount: Number(r.reviewCount),
      },
    ]),
  );
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function party(parties: Map<string, TaskParty>, id: string): TaskParty {
  const found = parties.get(id);
  // users rows are never deleted while a task references them (foreign key), so this is a bug.
  if (!found) throw new Error(`user ${id} of a task was not loaded`);
  return found;
}

export function toPublicView(row: TaskRow, parties: Map<string, TaskParty>, distanceMiles: number | null = null): TaskPublic {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    category: row.category as Category,
    urgency: row.urgency,
    budget: centsToDollars(row.budgetCents),
    urgentFee: centsToDollars(row.urgentFeeCents),
    serviceFee: centsToDollars(row.serviceFeeCents),
    totalAmount: centsToDollars(row.totalCents),
    scheduledDate: iso(row.scheduledDate),
    city: row.city,
    state: row.state,
    startCity: row.startCity,
    startState: row.startState,
    endCity: row.endCity,
    endState: row.endState,
    stopCount: row.stops?.length ?? 0,
    isRoute: row.startLocation !== null,
    approxLat: row.approxLat,
    approxLon: row.approxLon,
    distanceMiles: distanceMiles === null ? null : Math.round(distanceMiles * 10) / 10,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    userId: row.userId,
    providerId: row.providerId,
    paymentDeadline: iso(row.paymentDeadline),
    paymentCapturedAt: iso(row.paymentCapturedAt),
    poster: party(parties, row.userId),
    provider: row.providerId ? party(parties, row.providerId) : null,
  };
}

export function toPrivateView(row: TaskRow, parties: Map<string, TaskParty>): TaskPrivate {
  return {
    ...toPublicView(row, parties),
    location: row.location,
    startLocation: row.startLocation,
    endLocation: row.endLocation,
    stops: row.stops && row.stops.length > 0 ? row.stops.map(({ address, city, state, notes }) => ({ address, city, state, notes })) : null,
    lat: row.lat,
    lon: row.lon,
    startLat: row.startLat,
    startLon: row.startLon,
    endLat: row.endLat,
    endLon: row.endLon,
  };
}

/** Parties of many rows at once, then each row's view. */
export async function privateViews(db: Db, rows: TaskRow[], now: Date): Promise<TaskPrivate[]> {
  const parties = await loadParties(db, rows.flatMap((r) => (r.providerId ? [r.userId, r.providerId] : [r.userId])), now);
  return rows.map((r) => toPrivateView(r, parties));
}
