import { and, eq, getTableColumns, ne, sql } from "drizzle-orm";
import { centsToDollars, type TaskLineItems } from "../../../shared/money.js";
import { displayName } from "../../../shared/names.js";
import type { Offer } from "../../../shared/offers.js";
import { blockedBetweenSql } from "../../db/blocks.js";
import type { Db } from "../../db/client.js";
import { publicPhotoSql } from "../../db/public-photo.js";
import { averageRatingSql, completedTasksSql, toRating } from "../../db/ratings.js";
import { taskOffers } from "../../db/schema/offers.js";
import { providerProfiles } from "../../db/schema/providers.js";
import { taskDeclinedProviders, tasks } from "../../db/schema/tasks.js";
import { users } from "../../db/schema/users.js";
import type { NamedOffer } from "../../transition-actions.js";

// The offers table's reads and writes (docs/decisions/061-offers.md). An offer counts as open while
// its row says so and its task is still open: offers expire with their task without a write.

export type OfferRow = typeof taskOffers.$inferSelect;

/** What a person making or withdrawing an offer needs to know of the task and of themselves. */
export interface OfferContext {
  task: Pick<typeof tasks.$inferSelect, "id" | "userId" | "title" | "status" | "hiringMode">;
  verified: boolean;
  declined: boolean;
  /** The poster and this provider have blocked each other, either way (docs/product.md, Moderation). */
  blocked: boolean;
}

export async function offerContext(db: Db, taskId: string, providerId: string): Promise<OfferContext | null> {
  const [row] = await db
    .select({
      id: tasks.id,
      userId: tasks.userId,
      title: tasks.title,
      status: tasks.status,
      hiringMode: tasks.hiringMode,
      verified: sql<boolean>`exists (select 1 from ${providerProfiles} pp where pp.user_id = ${providerId} and pp.verification_status = 'approved')`,
      declined: sql<boolean>`exists (select 1 from ${taskDeclinedProviders} d where d.task_id = ${tasks.id} and d.provider_id = ${providerId})`,
      blocked: blockedBetweenSql(tasks.userId, sql`${providerId}::uuid`),
    })
    .from(tasks)
    .where(eq(tasks.id, taskId))
    .limit(1);
  if (!row) return null;
  const { verified, declined, blocked, ...task } = row;
  return { task, verified, declined, blocked };
}

/**
 * Takes the provider's offer lock for this transaction and counts their open offers on open tasks
 * other than `taskId`, so two offers at once cannot both pass MAX_OPEN_OFFERS.
 */
export async function lockAndCountOpenOffers(tx: Db, providerId: string, taskId: string): Promise<number> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`offers:${providerId}`}))`);
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(taskOffers)
    .innerJoin(tasks, eq(tasks.id, taskOffers.taskId))
    .where(and(eq(taskOffers.providerId, providerId), eq(taskOffers.status, "open"), eq(tasks.status, "open"), ne(taskOffers.taskId, taskId)));
  return row?.n ?? 0;
}

/**
 * Makes the provider's offer, or changes it (a withdrawn or closed one opens again): the stored row
 * and whether it is new; null when their offer was already accepted.
 */
export async function upsertOffer(
  tx: Db,
  values: { taskId: string; providerId: string; priceCents: number; message: string; availability: string; now: Date },
): Promise<{ offer: OfferRow; created: boolean } | null> {
  const { now, ...offer } = values;
  const [row] = await tx
    .insert(taskOffers)
    .values({ ...offer, status: "open", createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: [taskOffers.taskId, taskOffers.providerId],
      set: { priceCents: offer.priceCents, message: offer.message, availability: offer.availability, status: "open", updatedAt: now },
      setWhere: sql`${taskOffers.status} <> 'accepted'`,
    })
    // xmax is 0 on a row this statement inserted, set on one it updated.
    .returning({ ...getTableColumns(taskOffers), created: sql<boolean>`(xmax = 0)` });
  if (!row) return null;
  const { created, ...stored } = row;
  return { offer: stored, created };
}

/** Withdraws the provider's open offer while its task is open: the withdrawn row, or null. */
export async function withdrawOffer(db: Db, taskId: string, providerId: string, now: Date): Promise<OfferRow | null> {
  const [row] = await db
    .update(taskOffers)
    .set({ status: "withdrawn", updatedAt: now })
    .where(
      and(
        eq(taskOffers.taskId, taskId),
        eq(taskOffers.providerId, providerId),
        eq(taskOffers.status, "open"),
        sql`exists (select 1 from ${tasks} t where t.id = ${taskId} and t.status = 'open')`,
      ),
    )
    .returning();
  return row ?? null;
}

/**
 * accept_offer's consequence on the offers (the offers.accept action): the named offer, still open
 * and at the price the poster saw, becomes accepted; null when it is not (withdrawn, taken first or
 * changed), which rolls the transition back. The row lock makes an accept and a withdrawal or a
 * change of one offer wait for each other, and the loser's condition is read again: one of them wins.
 */
export async function acceptOffer(tx: Db, taskId: string, offer: NamedOffer, now: Date): Promise<OfferRow | null> {
  const [row] = await tx
    .update(taskOffers)
    .set({ status: "accepted", updatedAt: now })
    .where(and(eq(taskOffers.id, offer.id), eq(taskOffers.taskId, taskId), eq(taskOffers.status, "open"), eq(taskOffers.priceCents, offer.priceCents)))
    .returning();
  return row ?? null;
}

/** The task's offer `offerId` if it is open: why an accept was refused. */
export async function openOffer(db: Db, taskId: string, offerId: string): Promise<OfferRow | null> {
  const [row] = await db
    .select()
    .from(taskOffers)
    .where(and(eq(taskOffers.id, offerId), eq(taskOffers.taskId, taskId), eq(taskOffers.status, "open")))
    .limit(1);
  return row ?? null;
}

/** Closes the task's other open offers: the providers to tell. */
export async function closeOtherOffers(tx: Db, taskId: string, now: Date): Promise<string[]> {
  const rows = await tx
    .update(taskOffers)
    .set({ status: "closed", updatedAt: now })
    .where(and(eq(taskOffers.taskId, taskId), eq(taskOffers.status, "open")))
    .returning({ providerId: taskOffers.providerId });
  return rows.map((r) => r.providerId);
}

/**
 * Closes the task's accepted offer once its provider left the task (the offers.release action): the
 * task takes offers again, and that provider may make a new one (upsertOffer reopens a closed row).
 */
export async function closeAcceptedOffer(tx: Db, taskId: string, now: Date): Promise<void> {
  await tx
    .update(taskOffers)
    .set({ status: "closed", updatedAt: now })
    .where(and(eq(taskOffers.taskId, taskId), eq(taskOffers.status, "accepted")));
}

/** Writes the line items of the accepted offer's price on the task (the fee function's figures, in cents). */
export async function priceTaskAt(tx: Db, taskId: string, price: TaskLineItems): Promise<void> {
  await tx.update(tasks).set(price).where(eq(tasks.id, taskId));
}

/**
 * Offers with their providers' cards (docs/product.md, "People you can see"): every offer that is
 * not withdrawn for the poster, only `providerId`'s own otherwise. Cheapest first.
 */
export async function listOffers(db: Db, taskId: string, providerId: string | null): Promise<Offer[]> {
  const rows = await db
    .select({
      offer: taskOffers,
      firstName: users.firstName,
      lastName: users.lastName,
      photoUrl: publicPhotoSql(sql`${users.id}`, sql`${users.profileImageUrl}`),
      rating: averageRatingSql(users.ratingSum, users.ratingCount),
      reviewCount: users.ratingCount,
      completedTasks: completedTasksSql(sql`${users.id}`),
    })
    .from(taskOffers)
    .innerJoin(users, eq(users.id, taskOffers.providerId))
    .where(
      and(
        eq(taskOffers.taskId, taskId),
        providerId === null ? ne(taskOffers.status, "withdrawn") : eq(taskOffers.providerId, providerId),
      ),
    )
    .orderBy(taskOffers.priceCents, taskOffers.createdAt);
  return rows.map(({ offer, ...p }) => toOffer(offer, p));
}

function toOffer(
  offer: OfferRow,
  p: { firstName: string; lastName: string; photoUrl: string | null; rating: string | null; reviewCount: number; completedTasks: number },
): Offer {
  return {
    id: offer.id,
    taskId: offer.taskId,
    price: centsToDollars(offer.priceCents),
    message: offer.message,
    availability: offer.availability,
    status: offer.status,
    createdAt: offer.createdAt.toISOString(),
    updatedAt: offer.updatedAt.toISOString(),
    provider: {
      id: offer.providerId,
      displayName: displayName(p),
      profilePhotoUrl: p.photoUrl,
      rating: toRating(p.rating),
      reviewCount: p.reviewCount,
      completedTasks: p.completedTasks,
    },
  };
}
