import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { ActiveProvider, AuditEntry, OutboxEntry, ProviderProfile } from "../../../shared/providers.js";
import type { VerificationStatus } from "../../../shared/constants.js";
import { centsToDollars } from "../../../shared/money.js";
import type { AppContext } from "../../context.js";
import { providerProfiles } from "../../db/schema/providers.js";
import { emailOutbox } from "../../db/schema/site.js";
import { tasks } from "../../db/schema/tasks.js";
import { auditLog, users } from "../../db/schema/users.js";
import { conflict, notFound } from "../../http-errors.js";
import { notifyUser } from "../../notify.js";
import { profileWithUser, toProfileView } from "./profiles.js";

// Admin review (spec §4): pending → under_review; pending or under_review → approved or rejected.
// Each move is one conditional UPDATE; the audit row and the applicant's notice commit with it.

type Decision = "review" | "approve" | "reject";

const FROM: Record<Decision, VerificationStatus[]> = {
  review: ["pending"],
  approve: ["pending", "under_review"],
  reject: ["pending", "under_review"],
};
const TO: Record<Decision, VerificationStatus> = { review: "under_review", approve: "approved", reject: "rejected" };

export async function listApplications(ctx: AppContext, statuses: VerificationStatus[]): Promise<ProviderProfile[]> {
  const rows = await ctx.db
    .select(profileWithUser)
    .from(providerProfiles)
    .innerJoin(users, eq(users.id, providerProfiles.userId))
    .where(inArray(providerProfiles.verificationStatus, statuses))
    .orderBy(providerProfiles.submittedAt)
    .limit(500);
  return rows.map((r) => toProfileView(r.profile, r.user));
}

export async function listActiveProviders(ctx: AppContext): Promise<ActiveProvider[]> {
  const current = ctx.db
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
  const rows = await ctx.db
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
  return rows.map((r) => ({
    ...toProfileView(r.profile, r.user),
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

export async function decide(ctx: AppContext, adminId: string, userId: string, decision: Decision, reason: string | null): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    const [row] = await tx
      .update(providerProfiles)
      .set({
        verificationStatus: TO[decision],
        reviewedBy: adminId,
        reviewedAt: now,
        updatedAt: now,
        ...(decision === "reject" ? { rejectionReason: reason } : {}),
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
      throw conflict(`Cannot ${decision === "review" ? "mark under review" : decision} an application that is ${existing.status.replace("_", " ")}`);
    }
    if (decision === "approve") {
      // "both" when they have posted tasks; an admin stays an admin.
      await tx
        .update(users)
        .set({
          role: sql`case when ${users.role} = 'admin' then 'admin'::user_role
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

export async function listAudit(ctx: AppContext): Promise<AuditEntry[]> {
  const rows = await ctx.db
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

export async function listOutbox(ctx: AppContext): Promise<OutboxEntry[]> {
  const rows = await ctx.db.select().from(emailOutbox).orderBy(desc(emailOutbox.createdAt)).limit(200);
  return rows.map((r) => ({
    id: r.id,
    to: r.to,
    subject: r.subject,
    text: r.text,
    kind: r.kind,
    status: r.status,
    error: r.error,
    attempts: r.attempts,
    nextAttemptAt: r.nextAttemptAt?.toISOString() ?? null,
    sentAt: r.sentAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
  }));
}
