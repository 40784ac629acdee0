import { and, desc, eq, inArray, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Category } from "../../../shared/constants.js";
import { centsToDollars } from "../../../shared/money.js";
import { displayName } from "../../../shared/names.js";
import type { TaskDetail, TaskPrivate, TaskPublic, TaskSettlement } from "../../../shared/tasks.js";
import type { AppContext } from "../../context.js";
import type { Db } from "../../db/client.js";
import { taskSettlementSql } from "../../db/disputes.js";
import { publicPhotoSql } from "../../db/public-photo.js";
import { RowStatement } from "../../db/prepared.js";
import { toTaskPhotos, type TaskPhotoRow } from "../../db/task-photo-list.js";
import { averageRatingSql, completedTasksSql, toRating } from "../../db/ratings.js";
import { tasks } from "../../db/schema/tasks.js";
import { users } from "../../db/schema/users.js";
import { notFound } from "../../http-errors.js";
import { isPartyOrAdmin, type Viewer } from "../../policy.js";
import { placeTimeZone } from "../../task-time.js";
import type { TaskRow } from "../../transition-actions.js";
import { TASK_COLUMNS } from "./repository.js";
import { fullName, insiderParty, loadParties, party, partyRow, providerCard, type PartyRow } from "./party-views.js";

// Rows become API answers here and nowhere else: integer cents turn into dollars
// (docs/decisions/004-money-in-the-api.md) and the public view is built field by field, so a
// street address can only reach a stranger if someone adds it to this file on purpose. Also the
// lists and the task page that read whole rows. The poster and provider as each viewer sees them are
// party-views.ts's.

/**
 * The public view's fields of a task (toPublicView): the board selects exactly these, every other
 * reader derives them from the whole row (publicFields).
 */
export type PublicTaskRow = Pick<
  TaskRow,
  | "id"
  | "title"
  | "description"
  | "category"
  | "urgency"
  | "budgetCents"
  | "urgentFeeCents"
  | "serviceFeeCents"
  | "totalCents"
  | "providerShareCents"
  | "platformCommissionCents"
  | "scheduledDate"
  | "city"
  | "state"
  | "startCity"
  | "startState"
  | "endCity"
  | "endState"
  | "approxLat"
  | "approxLon"
  | "status"
  | "hiringMode"
  | "createdAt"
  | "userId"
  | "providerId"
  | "paymentDeadline"
  | "paymentCapturedAt"
  | "editedAt"
  | "timeZone"
  | "durationMinutes"
> & { stopCount: number; isRoute: boolean };

const publicFields = (row: TaskRow): PublicTaskRow => ({ ...row, stopCount: row.stops?.length ?? 0, isRoute: row.startLocation !== null });

export async function listPostedBy(ctx: AppContext, userId: string): Promise<TaskPrivate[]> {
  const rows = await ctx.db.select().from(tasks).where(eq(tasks.userId, userId)).orderBy(desc(tasks.createdAt), desc(tasks.id)).limit(500);
  return privateViews(ctx.db, rows);
}

/** The provider's tasks, and the requests waiting for their answer (decision 065). */
export async function listAssignedTo(ctx: AppContext, providerId: string): Promise<TaskPrivate[]> {
  const rows = await ctx.db
    .select()
    .from(tasks)
    .where(or(eq(tasks.providerId, providerId), and(eq(tasks.requestedProviderId, providerId), eq(tasks.status, "requested"))))
    .orderBy(desc(tasks.createdAt), desc(tasks.id))
    .limit(500);
  return privateViews(ctx.db, rows);
}

const poster = alias(users, "poster");
const provider = alias(users, "provider");

/**
 * The task page in one statement: the task, its photos' ids and descriptions in seq order, and its
 * poster's and provider's cards (docs/product.md, "People you can see"), without drizzle's row
 * mapping. It was three round trips (task, photos, parties), then two; the page is a large share of
 * bench:load's mix (docs/benchmarks.md, "Figures once in code comments").
 */
export const taskDetailStatement = new RowStatement(
  "task_detail",
  {
    ...TASK_COLUMNS,
    photos: sql<TaskPhotoRow[]>`coalesce((select json_agg(json_build_object('id', tp.id, 'alt', tp.alt) order by tp.seq)
      from task_photos tp where tp.task_id = ${tasks.id}), '[]'::json)`,
    posterFirstName: poster.firstName,
    posterLastName: poster.lastName,
    posterPhotoUrl: publicPhotoSql(sql`${poster.id}`, sql`${poster.profileImageUrl}`),
    posterRating: averageRatingSql(poster.ratingSum, poster.ratingCount),
    posterReviewCount: poster.ratingCount,
    // Null without a provider (the left join).
    providerFirstName: sql<string | null>`${provider.firstName}`,
    providerLastName: sql<string | null>`${provider.lastName}`,
    providerPhotoUrl: publicPhotoSql(sql`${provider.id}`, sql`${provider.profileImageUrl}`),
    providerRating: averageRatingSql(provider.ratingSum, provider.ratingCount),
    providerReviewCount: sql<number | null>`${provider.ratingCount}`,
    providerCompletedTasks: sql<number | null>`${completedTasksSql(sql`${provider.id}`)}`,
    settlement: taskSettlementSql(),
  },
  sql`from ${tasks}
    join ${users} ${poster} on ${poster.id} = ${tasks.userId}
    left join ${users} ${provider} on ${provider.id} = ${tasks.providerId}
    where ${tasks.id} = ${sql.placeholder("id")}
    limit 1`,
);

/** Addresses for the poster, the assigned provider and admins; city, state and 0.01° for everyone else. */
export async function getTaskDetail(ctx: AppContext, id: string, viewer: Viewer | null): Promise<TaskDetail> {
  const [found] = await taskDetailStatement.rows(ctx.db, { id });
  if (!found) throw notFound("Task not found");
  const {
    photos: photoRows,
    posterFirstName,
    posterLastName,
    posterPhotoUrl,
    posterRating,
    posterReviewCount,
    providerFirstName,
    providerLastName,
    providerPhotoUrl,
    providerRating,
    providerReviewCount,
    providerCompletedTasks,
    settlement,
    ...row
  } = found;
  const parties = new Map<string, PartyRow>([
    // The poster's completed tasks are not on any card.
    [row.userId, { id: row.userId, firstName: posterFirstName, lastName: posterLastName, photoUrl: posterPhotoUrl, rating: toRating(posterRating), reviewCount: posterReviewCount, completedTasks: 0 }],
  ]);
  if (row.providerId) {
    parties.set(row.providerId, {
      id: row.providerId,
      firstName: providerFirstName ?? "",
      lastName: providerLastName ?? "",
      photoUrl: providerPhotoUrl,
      rating: toRating(providerRating),
      reviewCount: providerReviewCount ?? 0,
      completedTasks: providerCompletedTasks ?? 0,
    });
  }
  // A requested task is offered to one provider only: nobody else may see it until it opens (decision 065).
  const requestedFrom = row.status === "requested" ? row.requestedProviderId : null;
  if (requestedFrom !== null && !isPartyOrAdmin(viewer, [row.userId, requestedFrom])) throw notFound("Task not found");
  const insider = isPartyOrAdmin(viewer, [row.userId, row.providerId, requestedFrom]);
  // The requested provider's name, for the request (while it waits) or its outcome (decision 082).
  if (insider && row.requestedProviderId !== null && !parties.has(row.requestedProviderId)) {
    for (const [id, found] of await loadParties(ctx.db, [row.requestedProviderId])) parties.set(id, found);
  }
  // Everyone who can see the task sees its photos (docs/product.md#task-photos).
  const photos = toTaskPhotos(photoRows, row.title);
  return insider ? { ...toPrivateView(row, parties, settlement), visibility: "private", photos } : { ...toPublicView(publicFields(row), parties), visibility: "public", photos };
}

/** The task after a transition, as the actor sees it (always an insider of the task). */
export async function privateView(ctx: AppContext, row: TaskRow): Promise<TaskPrivate> {
  const [view] = await privateViews(ctx.db, [row]);
  if (!view) throw new Error("task view missing");
  return view;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toPublicView(row: PublicTaskRow, parties: Map<string, PartyRow>, distanceMiles: number | null = null): TaskPublic {
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
    providerShare: centsToDollars(row.providerShareCents),
    platformCommission: centsToDollars(row.platformCommissionCents),
    scheduledDate: iso(row.scheduledDate),
    city: row.city,
    state: row.state,
    startCity: row.startCity,
    startState: row.startState,
    endCity: row.endCity,
    endState: row.endState,
    stopCount: row.stopCount,
    isRoute: row.isRoute,
    approxLat: row.approxLat,
    approxLon: row.approxLon,
    distanceMiles: distanceMiles === null ? null : Math.round(distanceMiles * 10) / 10,
    status: row.status,
    hiringMode: row.hiringMode,
    createdAt: row.createdAt.toISOString(),
    userId: row.userId,
    providerId: row.providerId,
    paymentDeadline: iso(row.paymentDeadline),
    paymentCapturedAt: iso(row.paymentCapturedAt),
    editedAt: iso(row.editedAt),
    poster: party(parties, row.userId),
    provider: row.providerId ? providerCard(parties, row.providerId) : null,
    // Only the task's insiders see whom it was requested from (toPrivateView).
    requestedProviderId: null,
    requestedProviderName: null,
    requestExpiresAt: null,
    requestFallback: null,
    requestOutcome: null,
    // A task posted before zones were kept is told on its place's clock (approximate position, state).
    timeZone: row.timeZone ?? placeTimeZone({ lat: row.approxLat, lon: row.approxLon, state: row.state ?? row.startState }),
    durationMinutes: row.durationMinutes,
    // Between the poster and the provider (decision 074): toPrivateView.
    proposedStartAt: null,
    proposedById: null,
    onMyWayAt: null,
    arrivalEstimateAt: null,
  };
}

function toPrivateView(row: TaskRow, parties: Map<string, PartyRow>, settlement: TaskSettlement | null): TaskPrivate {
  return {
    ...toPublicView(publicFields(row), parties),
    poster: insiderParty(parties, row.userId),
    provider: row.providerId ? { ...providerCard(parties, row.providerId), ...fullName(parties, row.providerId) } : null,
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
    settlement,
    ...taskRequest(row, parties),
    ...taskTime(row),
  };
}

/** A new time waiting for an answer and "on my way", while the task is claimed (decision 074); null in every other state. */
function taskTime(row: TaskRow): Pick<TaskPrivate, "proposedStartAt" | "proposedById" | "onMyWayAt" | "arrivalEstimateAt"> {
  const claimed = row.status === "claimed";
  return {
    proposedStartAt: claimed ? iso(row.proposedStartAt) : null,
    proposedById: claimed ? row.proposedById : null,
    onMyWayAt: claimed ? iso(row.onMyWayAt) : null,
    arrivalEstimateAt: claimed ? iso(row.arrivalEstimateAt) : null,
  };
}

/**
 * The request while it waits for the provider's answer (decision 065), and once it ended, how
 * (decision 082): the poster's page says it, and the web's Decline follows the server's
 * claimed_by_provider only with requestedProviderId. After the answer the provider is named only
 * while they are the task's provider (they accepted) or the task has none (then its insiders are the
 * poster and admins): a provider who claimed after a decline does not read whom the poster asked first.
 */
function taskRequest(
  row: TaskRow,
  parties: Map<string, PartyRow>,
): Pick<TaskPrivate, "requestedProviderId" | "requestedProviderName" | "requestExpiresAt" | "requestFallback" | "requestOutcome"> {
  const none = { requestedProviderId: null, requestedProviderName: null, requestExpiresAt: null, requestFallback: null, requestOutcome: null };
  const requested = row.requestedProviderId;
  if (requested === null) return none;
  const name = () => displayName(partyRow(parties, requested));
  if (row.status === "requested") {
    return { requestedProviderId: requested, requestedProviderName: name(), requestExpiresAt: iso(row.requestExpiresAt), requestFallback: row.requestFallback, requestOutcome: null };
  }
  const outcome = row.providerId === requested ? "accepted" : row.providerId === null && row.claimedAt === null ? (row.requestExpiresAt === null ? "declined" : "not_answered") : null;
  // A task that was claimed since (and given back) is an ordinary task again: no outcome to tell.
  if (outcome === null) return none;
  return { requestedProviderId: requested, requestedProviderName: name(), requestExpiresAt: null, requestFallback: row.requestFallback, requestOutcome: outcome };
}

/** Parties of many rows at once, then each row's view. */
async function privateViews(db: Db, rows: TaskRow[]): Promise<TaskPrivate[]> {
  const parties = await loadParties(db, rows.flatMap((r) => [r.userId, ...(r.providerId ? [r.providerId] : []), ...(r.requestedProviderId ? [r.requestedProviderId] : [])]));
  const settlements = await loadSettlements(db, rows);
  return rows.map((r) => toPrivateView(r, parties, settlements.get(r.id) ?? null));
}

/** The settlements of the cancelled, paid tasks among `rows`, in one query (none when there are none). */
async function loadSettlements(db: Db, rows: TaskRow[]): Promise<Map<string, TaskSettlement>> {
  const ids = rows.filter((r) => r.status === "cancelled" && r.paymentCapturedAt !== null).map((r) => r.id);
  if (ids.length === 0) return new Map();
  const found = await db
    .select({ id: tasks.id, settlement: taskSettlementSql() })
    .from(tasks)
    .where(inArray(tasks.id, ids));
  return new Map(found.flatMap((f) => (f.settlement ? [[f.id, f.settlement] as const] : [])));
}

