import { and, eq, inArray, sql } from "drizzle-orm";
import { type VerificationStatus } from "../../../shared/constants.js";
import { BACKGROUND_CHECK_DISPUTE } from "../../../shared/background-checks.js";
import { MODERATION_APPEAL } from "../../../shared/moderation.js";
import { dollarsToCents } from "../../../shared/money.js";
import { type ApplicationBody, type ProfilePatch, type ProviderProfile } from "../../../shared/providers.js";
import { stateName } from "../../../shared/us-states.js";
import { findZip } from "../../adapters/geocoding/gazetteer-geocoder.js";
import { maskContactDetails } from "../../contact-masking.js";
import type { AppContext } from "../../context.js";
import type { Db } from "../../db/client.js";
import { providerProfiles } from "../../db/schema/providers.js";
import { tasks } from "../../db/schema/tasks.js";
import { auditLog, users } from "../../db/schema/users.js";
import { badRequest, conflict, notFound } from "../../http-errors.js";
import { notifyUser } from "../../notify.js";
import { adminAccountSql } from "../../policy.js";
import { findLatestCheck, getProfile } from "./repository.js";
import { assertOwnedUpload } from "./uploads.js";

// The providers' use cases: applying (again after a rejection) and editing one's profile, and the
// admin's decision on an application. The files they rest on are uploads.ts.

// ---------------------------------------------------------------------------------------------
// Applying and the profile.

/**
 * The ZIP code must be a real one in the chosen state: the profile shows both, and the directory
 * measures distances from the ZIP code (docs/product.md, Verification).
 */
function assertZipInState(zipCode: string, state: string): void {
  const place = findZip(zipCode.slice(0, 5));
  if (!place) {
    const message = `We don't know the ZIP code ${zipCode}. Check it and try again.`;
    throw badRequest(message, { zipCode: message });
  }
  if (place.state !== state) {
    const message = `The ZIP code ${zipCode} is in ${stateName(place.state)}, not ${stateName(state)}. Check the ZIP code, or choose ${stateName(place.state)} as the state.`;
    throw badRequest(message, { zipCode: message });
  }
}

/**
 * A provider's bio as stored: every visitor reads it on the directory and the public profile, before
 * any task is paid, so contact details are masked as in questions and offers
 * (docs/decisions/070-contact-masking.md).
 */
function publicBio(bio: string): string {
  return maskContactDetails(bio);
}

export async function submitApplication(ctx: AppContext, userId: string, body: ApplicationBody): Promise<ProviderProfile> {
  assertZipInState(body.zipCode, body.state);
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
    bio: publicBio(body.bio),
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
  // An approved provider's new photo waits for an admin; the approved one stays shown until then
  // (docs/decisions/021-account-settings-deletion-and-export.md). The admin queue is the account feature's.
  const [current] = await ctx.db
    .select({ status: providerProfiles.verificationStatus })
    .from(providerProfiles)
    .where(eq(providerProfiles.userId, userId));
  const heldForApproval = patch.profilePhotoUrl !== undefined && current?.status === "approved";
  if (heldForApproval) {
    await ctx.db
      .update(users)
      .set({ pendingProfileImageUrl: patch.profilePhotoUrl, pendingProfileImageAt: ctx.now(), updatedAt: ctx.now() })
      .where(eq(users.id, userId));
  }
  const [row] = await ctx.db
    .update(providerProfiles)
    .set({
      ...(patch.bio === undefined ? {} : { bio: publicBio(patch.bio) }),
      ...(patch.hourlyRate === undefined ? {} : { hourlyRateCents: patch.hourlyRate === null ? null : dollarsToCents(patch.hourlyRate) }),
      ...(patch.serviceTypes === undefined ? {} : { serviceTypes: patch.serviceTypes }),
      ...(patch.availability === undefined ? {} : { availability: patch.availability }),
      ...(patch.profilePhotoUrl === undefined || heldForApproval ? {} : { profilePhotoPath: patch.profilePhotoUrl }),
      updatedAt: ctx.now(),
    })
    .where(eq(providerProfiles.userId, userId))
    .returning({ id: providerProfiles.id });
  if (!row) throw notFound("No provider profile");
  return getProfile(ctx.db, userId);
}

// ---------------------------------------------------------------------------------------------
// Admin review: pending → under_review; pending or under_review → approved or rejected. Each move
// is one conditional UPDATE; the audit row and the applicant's notice commit with it.

// "revoke" takes an approved provider's approval away (docs/product.md, Moderation): they can no
// longer claim, and may apply again, which this same flow approves.
// "pause" puts an approved provider whose background check came back "consider" back under review
// (docs/decisions/064-background-checks.md): they cannot claim or offer until an admin approves
// them again, which needs a new clear check.
type Decision = "review" | "approve" | "reject" | "revoke" | "pause";

const FROM: Record<Decision, VerificationStatus[]> = {
  review: ["pending"],
  approve: ["pending", "under_review"],
  reject: ["pending", "under_review"],
  revoke: ["approved"],
  pause: ["approved"],
};
const TO: Record<Decision, VerificationStatus> = { review: "under_review", approve: "approved", reject: "rejected", revoke: "rejected", pause: "under_review" };

/**
 * `adminId` is null when no person decided (a background-check report pausing a provider); `db`
 * is the caller's transaction when the decision must commit with its cause.
 */
export async function decide(ctx: AppContext, adminId: string | null, userId: string, decision: Decision, reason: string | null, db: Db = ctx.db): Promise<void> {
  await db.transaction(async (tx) => {
    const now = ctx.now();
    const [row] = await tx
      .update(providerProfiles)
      .set({
        verificationStatus: TO[decision],
        reviewedBy: adminId,
        reviewedAt: now,
        updatedAt: now,
        ...(decision === "reject" || decision === "revoke" ? { rejectionReason: reason } : {}),
        ...(decision === "approve" ? { rejectionReason: null } : {}),
      })
      .where(and(eq(providerProfiles.userId, userId), inArray(providerProfiles.verificationStatus, FROM[decision])))
      .returning({ id: providerProfiles.id });
    if (!row) {
      const [existing] = await tx
        .select({ status: providerProfiles.verificationStatus })
        .from(providerProfiles)
        .where(eq(providerProfiles.userId, userId));
      if (!existing) throw notFound("No application for this user");
      if (decision === "revoke") throw conflict(`Only an approved provider's approval can be revoked; this application is ${existing.status.replace("_", " ")}.`);
      if (decision === "pause") return;
      throw conflict(`Cannot ${decision === "review" ? "mark under review" : decision} an application that is ${existing.status.replace("_", " ")}`);
    }
    if (decision === "approve") {
      // Approval needs a clear background check (docs/product.md, Background checks); throwing
      // here rolls the update above back.
      const check = await findLatestCheck(tx, userId);
      if (check?.state !== "clear") {
        throw conflict(
          check?.state === "pending"
            ? "This applicant's background check is still pending. Approve them once it comes back clear."
            : check?.state === "consider"
              ? "This applicant's latest background check needs review. Record a new clear check before approving them."
              : "This applicant has no background check yet. Record a clear check (or start one) before approving them.",
        );
      }
      // "both" when they have posted tasks; an admin stays an admin.
      // The approved application photo becomes the person's one photo (decision 021).
      const [approvedPhoto] = await tx
        .select({ path: providerProfiles.profilePhotoPath })
        .from(providerProfiles)
        .where(eq(providerProfiles.userId, userId));
      await tx
        .update(users)
        .set({
          ...(approvedPhoto?.path ? { profileImageUrl: approvedPhoto.path } : {}),
          role: sql`case when ${adminAccountSql} then 'admin'::user_role
            when ${users.role} = 'both' or exists (select 1 from ${tasks} where ${tasks.userId} = ${userId}) then 'both'::user_role
            else 'provider'::user_role end`,
          updatedAt: now,
        })
        .where(eq(users.id, userId));
    }
    await tx.insert(auditLog).values({
      actorId: adminId,
      action: `provider_application.${decision}`,
      targetType: "provider_application",
      targetId: userId,
      reason,
      details: { to: TO[decision] },
      createdAt: now,
    });
    if (decision === "approve") {
      await notifyUser(ctx, tx, {
        userId,
        kind: "application_decided",
        title: "Your provider application was approved",
        body: "Congratulations! You are now a verified Errandly provider and can claim tasks on the job board.",
      });
    } else if (decision === "revoke") {
      await notifyUser(ctx, tx, {
        userId,
        kind: "moderation",
        title: "Your provider approval was revoked",
        body: `An Errandly administrator revoked your approval as a provider because: ${reason ?? ""}. You can no longer claim tasks; you may apply again at ${ctx.env.PUBLIC_URL}/become-provider. ${MODERATION_APPEAL(`${ctx.env.PUBLIC_URL}/contact`)}`,
      });
    } else if (decision === "pause") {
      await notifyUser(ctx, tx, {
        userId,
        kind: "moderation",
        title: "Your provider account is paused",
        body: `Your background check came back needing review: ${reason ?? ""} Until an administrator clears it, you cannot claim tasks or make offers. ${BACKGROUND_CHECK_DISPUTE(`${ctx.env.PUBLIC_URL}/contact`)}`,
      });
    } else if (decision === "reject") {
      await notifyUser(ctx, tx, {
        userId,
        kind: "application_decided",
        title: "Your provider application was not approved",
        body: `Your provider application was rejected. Reason: ${reason ?? ""}\n\nYou can contact support or apply again at ${ctx.env.PUBLIC_URL}/become-provider.`,
      });
    }
  });
}
