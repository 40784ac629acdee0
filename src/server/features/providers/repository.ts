import { and, asc, desc, eq, inArray, isNull, not, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import type { BackgroundCheck } from "../../../shared/background-checks.js";
import type { VerificationStatus } from "../../../shared/constants.js";
import { centsToDollars } from "../../../shared/money.js";
import { displayName } from "../../../shared/names.js";
import type { ActiveProvider, AuditEntry, OutboxEntry, ProviderProfile, PublicProvider, providersQuerySchema } from "../../../shared/providers.js";
import { haversineMiles } from "../../../shared/geo.js";
import { roundMiles, unknownZipMessage } from "../../../shared/task-filters.js";
import { findZip, nearPoint } from "../../adapters/geocoding/gazetteer-geocoder.js";
import { hideOneTimeLinks } from "../../adapters/mail/one-time-links.js";
import { blockedBetweenSql } from "../../db/blocks.js";
import type { Db } from "../../db/client.js";
import { averageRatingSql } from "../../db/ratings.js";
import { backgroundChecks } from "../../db/schema/background-checks.js";
import { providerProfiles } from "../../db/schema/providers.js";
import { emailOutbox } from "../../db/schema/site.js";
import { tasks } from "../../db/schema/tasks.js";
import { auditLog, users } from "../../db/schema/users.js";
import { fieldError, notFound } from "../../http-errors.js";

// Reading providers: one's own profile, the admin dashboard's lists (applications, active
// providers, audit log, outbox) and the public directory.

type ProfileRow = typeof providerProfiles.$inferSelect;
type UserName = { firstName: string; lastName: string; email: string };

const profileWithUser = {
  profile: providerProfiles,
  user: { firstName: users.firstName, lastName: users.lastName, email: users.email },
};

function toProfileView(row: ProfileRow, user: UserName, backgroundCheck: BackgroundCheck | null): ProviderProfile {
  return {
    id: row.id,
    userId: row.userId,
    verificationStatus: row.verificationStatus,
    fullName: row.fullName,
    email: row.email,
    phone: row.phone,
    address: row.address,
    city: row.city,
    state: row.state,
    zipCode: row.zipCode,
    serviceTypes: row.serviceTypes,
    bio: row.bio,
    hourlyRate: row.hourlyRateCents === null ? null : centsToDollars(row.hourlyRateCents),
    availability: row.availability,
    idDocumentUrl: row.idDocumentPath,
    profilePhotoUrl: row.profilePhotoPath,
    payoutsEnabled: row.payoutsEnabled,
    stripeOnboardingComplete: row.stripeOnboardingComplete,
    stripeAccountId: row.stripeAccountId,
    rejectionReason: row.rejectionReason,
    submittedAt: row.submittedAt.toISOString(),
    user,
    backgroundCheck,
  };
}

// Background checks (docs/decisions/064-background-checks.md): the latest check per applicant counts.

type CheckRow = typeof backgroundChecks.$inferSelect;

function toCheckView(row: CheckRow): BackgroundCheck {
  return {
    id: row.id,
    adapter: row.adapter,
    state: row.result ?? "pending",
    checkedWhat: row.checkedWhat,
    reason: row.result === "consider" ? row.reason : null,
    completedAt: row.completedAt?.toISOString() ?? null,
    invitationUrl: row.invitationUrl,
    startedAt: row.createdAt.toISOString(),
  };
}

/** Each user's latest check, by user id; users with none are absent. */
export async function latestChecks(db: Db, userIds: string[]): Promise<Map<string, BackgroundCheck>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([backgroundChecks.userId])
    .from(backgroundChecks)
    .where(inArray(backgroundChecks.userId, userIds))
    .orderBy(backgroundChecks.userId, desc(backgroundChecks.createdAt), desc(backgroundChecks.id));
  return new Map(rows.map((row) => [row.userId, toCheckView(row)]));
}

export async function findLatestCheck(db: Db, userId: string): Promise<BackgroundCheck | null> {
  return (await latestChecks(db, [userId])).get(userId) ?? null;
}

async function withChecks<T extends { profile: ProfileRow; user: UserName }>(db: Db, rows: T[]): Promise<(T & { check: BackgroundCheck | null })[]> {
  const checks = await latestChecks(db, [...new Set(rows.map((r) => r.profile.userId))]);
  return rows.map((r) => ({ ...r, check: checks.get(r.profile.userId) ?? null }));
}

export async function findProfile(db: Db, userId: string): Promise<ProviderProfile | null> {
  const [row] = await db
    .select(profileWithUser)
    .from(providerProfiles)
    .innerJoin(users, eq(users.id, providerProfiles.userId))
    .where(eq(providerProfiles.userId, userId))
    .limit(1);
  return row ? toProfileView(row.profile, row.user, await findLatestCheck(db, userId)) : null;
}

export async function getProfile(db: Db, userId: string): Promise<ProviderProfile> {
  const profile = await findProfile(db, userId);
  if (!profile) throw notFound("No provider profile");
  return profile;
}

// The admin dashboard.

export async function listApplications(db: Db, statuses: VerificationStatus[]): Promise<ProviderProfile[]> {
  const rows = await db
    .select(profileWithUser)
    .from(providerProfiles)
    .innerJoin(users, eq(users.id, providerProfiles.userId))
    .where(inArray(providerProfiles.verificationStatus, statuses))
    .orderBy(providerProfiles.submittedAt)
    .limit(500);
  return (await withChecks(db, rows)).map((r) => toProfileView(r.profile, r.user, r.check));
}

export async function listActiveProviders(db: Db): Promise<ActiveProvider[]> {
  const current = db
    .selectDistinctOn([tasks.providerId], {
      providerId: tasks.providerId,
      id: tasks.id,
      title: tasks.title,
      description: tasks.description,
      budgetCents: tasks.budgetCents,
      category: tasks.category,
      status: tasks.status,
    })
    .from(tasks)
    .where(inArray(tasks.status, ["claimed", "in_progress"]))
    .orderBy(tasks.providerId, desc(tasks.claimedAt))
    .as("current");
  const rows = await db
    .select({
      ...profileWithUser,
      taskId: current.id,
      taskTitle: current.title,
      taskDescription: current.description,
      taskBudgetCents: current.budgetCents,
      taskCategory: current.category,
      taskStatus: current.status,
    })
    .from(providerProfiles)
    .innerJoin(users, eq(users.id, providerProfiles.userId))
    .leftJoin(current, eq(current.providerId, providerProfiles.userId))
    .where(eq(providerProfiles.verificationStatus, "approved"))
    .orderBy(users.firstName, users.lastName)
    .limit(500);
  return (await withChecks(db, rows)).map((r) => ({
    ...toProfileView(r.profile, r.user, r.check),
    currentTask:
      r.taskId && r.taskTitle !== null && r.taskDescription !== null && r.taskBudgetCents !== null && r.taskCategory !== null && r.taskStatus
        ? {
            id: r.taskId,
            title: r.taskTitle,
            description: r.taskDescription,
            budget: centsToDollars(r.taskBudgetCents),
            category: r.taskCategory,
            status: r.taskStatus,
          }
        : null,
  }));
}

export async function listAudit(db: Db): Promise<AuditEntry[]> {
  const rows = await db
    .select({
      id: auditLog.id,
      actorId: auditLog.actorId,
      actorEmail: users.email,
      action: auditLog.action,
      targetType: auditLog.targetType,
      targetId: auditLog.targetId,
      reason: auditLog.reason,
      createdAt: auditLog.createdAt,
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    .orderBy(desc(auditLog.createdAt))
    .limit(200);
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}

/** The newest mail as an admin sees it: its one-time links hidden (adapters/mail/one-time-links.ts). */
export async function listOutbox(db: Db): Promise<OutboxEntry[]> {
  const rows = await db.select().from(emailOutbox).orderBy(desc(emailOutbox.createdAt)).limit(200);
  return rows.map((r) => ({
    id: r.id,
    to: r.to,
    subject: r.subject,
    text: hideOneTimeLinks(r.text),
    kind: r.kind,
    status: r.status,
    error: r.error,
    attempts: r.attempts,
    nextAttemptAt: r.nextAttemptAt?.toISOString() ?? null,
    sentAt: r.sentAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
  }));
}

/**
 * The public directory: approved providers only, and only what a visitor may see (never phone,
 * street address, e-mail, ZIP or the ID document; the response schema filters as a second guard).
 */
/**
 * The public directory (docs/product.md#verification, "Directory filters"): approved providers, by
 * service type and lowest rating in SQL; by distance from `near` to the centre of each provider's
 * ZIP code (the offline ZIP table, never their street address) after, since profiles keep no
 * position. Approved providers are few; with a place, all of them are measured before the 500 cap.
 */
export type ProvidersInput = Pick<z.output<typeof providersQuerySchema>, "sort"> & Partial<z.output<typeof providersQuerySchema>>;

export async function listPublicProviders(db: Db, query: ProvidersInput = { sort: "name" }, viewerId: string | null = null): Promise<PublicProvider[]> {
  let origin: { lat: number; lon: number } | null = null;
  if (query.near) {
    origin = nearPoint(query.near);
    if (!origin) throw fieldError("near", unknownZipMessage(query.near.kind === "zip" ? query.near.zip : ""));
  }
  // Revealed reviews only, as kept on the users row (docs/decisions/037-ratings-on-the-user-row.md).
  const average = averageRatingSql(users.ratingSum, users.ratingCount);
  const completed = db
    .select({ providerId: tasks.providerId, count: sql<number>`count(*)::int`.as("completed_count") })
    .from(tasks)
    .where(eq(tasks.status, "completed"))
    .groupBy(tasks.providerId)
    .as("completed");
  // A suspended person's profile is hidden (docs/product.md, Moderation).
  const conditions: SQL[] = [eq(providerProfiles.verificationStatus, "approved"), isNull(users.suspendedAt)];
  // A block works both ways: neither sees the other's card (docs/product.md, Moderation).
  if (viewerId !== null) conditions.push(not(blockedBetweenSql(providerProfiles.userId, sql`${viewerId}::uuid`)));
  if (query.serviceType) conditions.push(sql`${query.serviceType} = any(${providerProfiles.serviceTypes})`);
  if (query.minRating !== undefined) conditions.push(sql`${average} >= ${query.minRating}::numeric`);
  const byName = [asc(users.firstName), asc(users.lastName), asc(providerProfiles.id)];
  const order =
    query.sort === "rating"
      ? [sql`${average} desc nulls last`, desc(users.ratingCount), ...byName]
      : query.sort === "completed"
        ? [sql`coalesce(${completed.count}, 0) desc`, ...byName]
        : byName;
  const base = db
    .select({
      id: providerProfiles.id,
      userId: providerProfiles.userId,
      firstName: users.firstName,
      lastName: users.lastName,
      city: providerProfiles.city,
      state: providerProfiles.state,
      zipCode: providerProfiles.zipCode,
      bio: providerProfiles.bio,
      profilePhotoUrl: providerProfiles.profilePhotoPath,
      // The directory has always answered the average as text ("4.5").
      rating: sql<string | null>`${average}::text`,
      reviewCount: users.ratingCount,
      completedTasks: completed.count,
      serviceTypes: providerProfiles.serviceTypes,
      hourlyRateCents: providerProfiles.hourlyRateCents,
      verificationStatus: providerProfiles.verificationStatus,
    })
    .from(providerProfiles)
    .innerJoin(users, eq(users.id, providerProfiles.userId))
    .leftJoin(completed, eq(completed.providerId, providerProfiles.userId))
    .where(and(...conditions))
    .orderBy(...order);
  const rows = origin ? await base : await base.limit(500);
  const cards = rows.map(({ hourlyRateCents, firstName, lastName, zipCode, ...r }) => {
    const place = origin ? findZip(zipCode.slice(0, 5)) : null;
    const miles = origin && place ? haversineMiles(origin, place) : null;
    return {
      card: {
        ...r,
        displayName: displayName({ firstName, lastName }),
        city: r.city || null,
        state: r.state || null,
        rating: r.rating ?? null,
        reviewCount: r.reviewCount ?? 0,
        completedTasks: r.completedTasks ?? 0,
        hourlyRate: hourlyRateCents === null ? null : centsToDollars(hourlyRateCents),
        distanceMiles: miles === null ? null : roundMiles(miles),
      },
      miles,
    };
  });
  const radius = query.radiusMiles;
  return cards
    .filter(({ miles }) => radius === undefined || (miles !== null && miles <= radius))
    .slice(0, 500)
    .map(({ card }) => card);
}
