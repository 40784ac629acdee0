import { eq, sql } from "drizzle-orm";
import type { PublicProvider } from "../../../shared/providers.js";
import { centsToDollars } from "../../../shared/money.js";
import type { Db } from "../../db/client.js";
import { providerProfiles } from "../../db/schema/providers.js";
import { revealedCondition } from "../../db/review-visibility.js";
import { users } from "../../db/schema/users.js";

// The public directory: approved providers only, and only what a visitor may see (never phone,
// street address, e-mail, ZIP or the ID document; the response schema filters as a second guard).

export async function listPublicProviders(db: Db, now: Date): Promise<PublicProvider[]> {
  // Only revealed reviews count: a blind one must not show through the average.
  const ratings = db
    .select({
      reviewedId: sql<string>`r.reviewed_id`.as("reviewed_id"),
      average: sql<string>`round(avg(r.rating)::numeric, 1)::text`.as("average"),
      count: sql<number>`count(*)::int`.as("count"),
    })
    .from(sql`reviews r join tasks t on t.id = r.task_id`)
    .where(revealedCondition(now))
    .groupBy(sql`r.reviewed_id`)
    .as("ratings");
  const rows = await db
    .select({
      id: providerProfiles.id,
      firstName: users.firstName,
      lastName: users.lastName,
      city: providerProfiles.city,
      state: providerProfiles.state,
      bio: providerProfiles.bio,
      profilePhotoUrl: providerProfiles.profilePhotoPath,
      rating: ratings.average,
      reviewCount: ratings.count,
      serviceTypes: providerProfiles.serviceTypes,
      hourlyRateCents: providerProfiles.hourlyRateCents,
      verificationStatus: providerProfiles.verificationStatus,
    })
    .from(providerProfiles)
    .innerJoin(users, eq(users.id, providerProfiles.userId))
    .leftJoin(ratings, eq(ratings.reviewedId, providerProfiles.userId))
    .where(eq(providerProfiles.verificationStatus, "approved"))
    .orderBy(users.firstName, users.lastName)
    .limit(500);
  return rows.map(({ hourlyRateCents, ...r }) => ({
    ...r,
    city: r.city || null,
    state: r.state || null,
    rating: r.rating ?? null,
    reviewCount: r.reviewCount ?? 0,
    hourlyRate: hourlyRateCents === null ? null : centsToDollars(hourlyRateCents),
  }));
}
