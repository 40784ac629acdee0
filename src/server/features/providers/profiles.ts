import { and, eq } from "drizzle-orm";
import type { ApplicationBody, ProfilePatch, ProviderProfile } from "../../../shared/providers.js";
import { centsToDollars, dollarsToCents } from "../../../shared/money.js";
import type { AppContext } from "../../context.js";
import type { Db } from "../../db/client.js";
import { providerProfiles } from "../../db/schema/providers.js";
import { users } from "../../db/schema/users.js";
import { conflict, notFound } from "../../http-errors.js";
import { assertOwnedUpload } from "./uploads.js";

// The applicant's side: apply (again after a rejection), read and edit one's own profile.

type ProfileRow = typeof providerProfiles.$inferSelect;
type UserName = { firstName: string; lastName: string; email: string };

export const profileWithUser = {
  profile: providerProfiles,
  user: { firstName: users.firstName, lastName: users.lastName, email: users.email },
};

export function toProfileView(row: ProfileRow, user: UserName): ProviderProfile {
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
  };
}

export async function findProfile(db: Db, userId: string): Promise<ProviderProfile | null> {
  const [row] = await db
    .select(profileWithUser)
    .from(providerProfiles)
    .innerJoin(users, eq(users.id, providerProfiles.userId))
    .where(eq(providerProfiles.userId, userId))
    .limit(1);
  return row ? toProfileView(row.profile, row.user) : null;
}

export async function getProfile(db: Db, userId: string): Promise<ProviderProfile> {
  const profile = await findProfile(db, userId);
  if (!profile) throw notFound("No provider profile");
  return profile;
}

export async function submitApplication(ctx: AppContext, userId: string, body: ApplicationBody): Promise<ProviderProfile> {
  await assertOwnedUpload(ctx, userId, body.idDocumentUrl, "id_document", "idDocumentUrl");
  await assertOwnedUpload(ctx, userId, body.profilePhotoUrl, "profile_photo", "profilePhotoUrl");
  const now = ctx.now();
  const fields = {
    fullName: body.fullName,
    email: body.email,
    phone: body.phone,
    address: body.address,
    city: body.city,
    state: body.state,
    zipCode: body.zipCode,
    serviceTypes: body.serviceTypes,
    availability: body.availability,
    bio: body.bio,
    idDocumentPath: body.idDocumentUrl,
    profilePhotoPath: body.profilePhotoUrl,
    verificationStatus: "pending" as const,
    rejectionReason: null,
    reviewedBy: null,
    reviewedAt: null,
    submittedAt: now,
    updatedAt: now,
  };
  const [inserted] = await ctx.db
    .insert(providerProfiles)
    .values({ userId, ...fields })
    .onConflictDoNothing({ target: providerProfiles.userId })
    .returning({ id: providerProfiles.id });
  if (!inserted) {
    // Only a rejected applicant may apply again; the condition makes the re-application atomic.
    const [again] = await ctx.db
      .update(providerProfiles)
      .set(fields)
      .where(and(eq(providerProfiles.userId, userId), eq(providerProfiles.verificationStatus, "rejected")))
      .returning({ id: providerProfiles.id });
    if (!again) throw conflict("You have already applied. Your application is being processed.");
  }
  return getProfile(ctx.db, userId);
}

export async function updateProfile(ctx: AppContext, userId: string, patch: ProfilePatch): Promise<ProviderProfile> {
  if (patch.profilePhotoUrl) await assertOwnedUpload(ctx, userId, patch.profilePhotoUrl, "profile_photo", "profilePhotoUrl");
  const [row] = await ctx.db
    .update(providerProfiles)
    .set({
      ...(patch.bio === undefined ? {} : { bio: patch.bio }),
      ...(patch.hourlyRate === undefined ? {} : { hourlyRateCents: patch.hourlyRate === null ? null : dollarsToCents(patch.hourlyRate) }),
      ...(patch.serviceTypes === undefined ? {} : { serviceTypes: patch.serviceTypes }),
      ...(patch.availability === undefined ? {} : { availability: patch.availability }),
      ...(patch.profilePhotoUrl === undefined ? {} : { profilePhotoPath: patch.profilePhotoUrl }),
      updatedAt: ctx.now(),
    })
    .where(eq(providerProfiles.userId, userId))
    .returning({ id: providerProfiles.id });
  if (!row) throw notFound("No provider profile");
  return getProfile(ctx.db, userId);
}
