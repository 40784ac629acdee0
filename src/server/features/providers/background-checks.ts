import { and, desc, eq, isNull } from "drizzle-orm";
import { CHECKR_CONSIDER_REASON, type BackgroundCheck, type ManualCheckBody } from "../../../shared/background-checks.js";
import type { BackgroundChecks, CheckEvent } from "../../adapters/background-checks/background-checks.js";
import type { AppContext } from "../../context.js";
import type { Db } from "../../db/client.js";
import { backgroundCheckEvents, backgroundChecks } from "../../db/schema/background-checks.js";
import { providerProfiles } from "../../db/schema/providers.js";
import { auditLog, users } from "../../db/schema/users.js";
import { badRequest, conflict, HttpError, notFound } from "../../http-errors.js";
import { findLatestCheck } from "./repository.js";
import { decide } from "./service.js";

// Background checks (docs/product.md, Background checks; docs/decisions/064-background-checks.md):
// an admin records a manual check or starts a Checkr one; Checkr's webhook records its result.
// Every check and every result is an audit entry; a "consider" result pauses an approved provider.

async function applicantOf(db: Db, userId: string) {
  const [row] = await db
    .select({ status: providerProfiles.verificationStatus, state: providerProfiles.state, zipCode: providerProfiles.zipCode, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(providerProfiles)
    .innerJoin(users, eq(users.id, providerProfiles.userId))
    .where(eq(providerProfiles.userId, userId));
  if (!row) throw notFound("This person has not applied to be a provider, so there is nothing to check. Open an applicant from the admin dashboard.");
  return row;
}

/** An approved provider whose check needs review is paused with the check's reason, in the check's transaction. */
async function pauseIfApproved(ctx: AppContext, tx: Db, adminId: string | null, userId: string, reason: string): Promise<void> {
  const [row] = await tx.select({ status: providerProfiles.verificationStatus }).from(providerProfiles).where(eq(providerProfiles.userId, userId)).for("update");
  if (row?.status === "approved") await decide(ctx, adminId, userId, "pause", reason, tx);
}

export async function recordManualCheck(ctx: AppContext, adminId: string, userId: string, body: ManualCheckBody): Promise<BackgroundCheck> {
  const checkedAt = new Date(`${body.checkedOn}T00:00:00.000Z`);
  if (checkedAt.getTime() > ctx.now().getTime()) {
    const message = "The date of the check cannot be in the future. Enter the day the check was done.";
    throw badRequest(message, { checkedOn: message });
  }
  await ctx.db.transaction(async (tx) => {
    await applicantOf(tx, userId);
    const reason = body.result === "consider" && body.reason ? body.reason : null;
    const [check] = await tx
      .insert(backgroundChecks)
      .values({ userId, adapter: "manual", checkedWhat: body.checkedWhat, result: body.result, reason, recordedBy: adminId, completedAt: checkedAt, createdAt: ctx.now() })
      .returning({ id: backgroundChecks.id });
    await tx.insert(auditLog).values({
      actorId: adminId,
      action: "background_check.record",
      targetType: "provider_application",
      targetId: userId,
      reason,
      details: { checkId: check?.id, checkedWhat: body.checkedWhat, result: body.result, checkedOn: body.checkedOn },
      createdAt: ctx.now(),
    });
    if (reason !== null) await pauseIfApproved(ctx, tx, adminId, userId, reason);
  });
  return (await findLatestCheck(ctx.db, userId)) as BackgroundCheck;
}

export async function startCheck(ctx: AppContext, checks: BackgroundChecks, adminId: string, userId: string): Promise<BackgroundCheck> {
  if (checks.name !== "checkr") {
    throw conflict("No background-check service is connected, so checks are recorded by hand. Do the check, then use Record a check.");
  }
  const applicant = await applicantOf(ctx.db, userId);
  if ((await findLatestCheck(ctx.db, userId))?.state === "pending") {
    throw conflict("A background check for this applicant is already pending. Wait for its result before starting another.");
  }
  let started;
  try {
    started = await checks.start(applicant);
  } catch (error) {
    ctx.log.warn({ err: error }, "starting a Checkr background check failed");
    throw new HttpError(502, "The background-check service did not accept the request. Try again in a few minutes; if it keeps failing, record the check by hand.");
  }
  await ctx.db.transaction(async (tx) => {
    const [check] = await tx
      .insert(backgroundChecks)
      .values({
        userId,
        adapter: "checkr",
        checkedWhat: `Checkr package ${started.package}`,
        recordedBy: adminId,
        candidateId: started.candidateId,
        invitationId: started.invitationId,
        invitationUrl: started.invitationUrl,
        createdAt: ctx.now(),
      })
      .returning({ id: backgroundChecks.id });
    await tx.insert(auditLog).values({
      actorId: adminId,
      action: "background_check.start",
      targetType: "provider_application",
      targetId: userId,
      details: { checkId: check?.id, candidateId: started.candidateId, invitationId: started.invitationId, package: started.package },
      createdAt: ctx.now(),
    });
  });
  return (await findLatestCheck(ctx.db, userId)) as BackgroundCheck;
}

/**
 * A verified Checkr event, once per event id (a redelivery changes nothing). A completed report
 * with a result completes the candidate's pending check; anything else is only remembered.
 */
export async function handleCheckEvent(ctx: AppContext, event: CheckEvent): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [fresh] = await tx.insert(backgroundCheckEvents).values({ id: event.id, type: event.type, receivedAt: ctx.now() }).onConflictDoNothing().returning();
    if (!fresh) return;
    const report = event.report;
    if (!report || report.status !== "complete" || !report.result) return;
    const [pending] = await tx
      .select({ id: backgroundChecks.id, userId: backgroundChecks.userId })
      .from(backgroundChecks)
      .where(and(eq(backgroundChecks.candidateId, report.candidateId), isNull(backgroundChecks.result)))
      .orderBy(desc(backgroundChecks.createdAt))
      .limit(1)
      .for("update");
    if (!pending) return;
    const reason = report.result === "consider" ? CHECKR_CONSIDER_REASON : null;
    await tx
      .update(backgroundChecks)
      .set({ result: report.result, reason, reportId: report.id, completedAt: ctx.now() })
      .where(eq(backgroundChecks.id, pending.id));
    await tx.insert(auditLog).values({
      actorId: null,
      action: "background_check.result",
      targetType: "provider_application",
      targetId: pending.userId,
      reason,
      details: { checkId: pending.id, reportId: report.id, result: report.result, eventId: event.id },
      createdAt: ctx.now(),
    });
    if (reason !== null) await pauseIfApproved(ctx, tx, null, pending.userId, reason);
  });
}
