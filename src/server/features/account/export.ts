import { and, eq, inArray, or, sql } from "drizzle-orm";
import type { AccountExport } from "../../../shared/account.js";
import { NOTIFICATION_KINDS } from "../../../shared/notifications.js";
import type { AppContext } from "../../context.js";
import { queryRows } from "../../db/client.js";
import { emailOptOuts, messages, notifications } from "../../db/schema/chat.js";
import { jobAlerts } from "../../db/schema/job-alerts.js";
import { ledgerEntries, ledgerTransactions, payments, payouts, tips } from "../../db/schema/payments.js";
import { providerProfiles } from "../../db/schema/providers.js";
import { reviews } from "../../db/schema/reviews.js";
import { tasks } from "../../db/schema/tasks.js";
import { securityEvents } from "../../db/schema/security.js";
import { auditLog, sessions, users } from "../../db/schema/users.js";

// GET /api/account/export: everything kept about the caller, as JSON. Each query names its columns,
// so another person's private data (their e-mail, their street address) cannot slip in; the other
// party of a task appears only as an id (docs/decisions/021-account-settings-deletion-and-export.md).

type Row = Record<string, unknown>;

/** Dates as ISO strings, so the file reads the same whatever serializes it. */
function plain<T extends object>(row: T): Row {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v]));
}

export async function exportAccount(ctx: AppContext, userId: string): Promise<AccountExport> {
  const { db } = ctx;
  const [profile] = await db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      profileImageUrl: users.profileImageUrl,
      pendingProfileImageUrl: users.pendingProfileImageUrl,
      role: users.role,
      signsInWithPassword: sql<boolean>`${users.passwordHash} is not null`,
      signsInWithSingleSignOn: sql<boolean>`${users.oidcSubject} is not null`,
      createdAt: users.createdAt,
      updatedAt: users.updatedAt,
    })
    .from(users)
    .where(eq(users.id, userId));

  const [application] = await db
    .select({
      verificationStatus: providerProfiles.verificationStatus,
      fullName: providerProfiles.fullName,
      email: providerProfiles.email,
      phone: providerProfiles.phone,
      address: providerProfiles.address,
      city: providerProfiles.city,
      state: providerProfiles.state,
      zipCode: providerProfiles.zipCode,
      serviceTypes: providerProfiles.serviceTypes,
      availability: providerProfiles.availability,
      bio: providerProfiles.bio,
      hourlyRateCents: providerProfiles.hourlyRateCents,
      // That an ID document is kept, never its bytes or where it lies.
      hasIdDocument: sql<boolean>`${providerProfiles.idDocumentPath} is not null`,
      profilePhotoPath: providerProfiles.profilePhotoPath,
      rejectionReason: providerProfiles.rejectionReason,
      reviewedAt: providerProfiles.reviewedAt,
      submittedAt: providerProfiles.submittedAt,
      payoutsEnabled: providerProfiles.payoutsEnabled,
      createdAt: providerProfiles.createdAt,
      updatedAt: providerProfiles.updatedAt,
    })
    .from(providerProfiles)
    .where(eq(providerProfiles.userId, userId));

  const taskCommon = {
    id: tasks.id,
    title: tasks.title,
    description: tasks.description,
    category: tasks.category,
    urgency: tasks.urgency,
    status: tasks.status,
    budgetCents: tasks.budgetCents,
    scheduledDate: tasks.scheduledDate,
    city: tasks.city,
    state: tasks.state,
    claimedAt: tasks.claimedAt,
    startedAt: tasks.startedAt,
    completedAt: tasks.completedAt,
    cancelledAt: tasks.cancelledAt,
    createdAt: tasks.createdAt,
  };
  // Their own tasks in full, addresses included; tasks they did without the poster's street address.
  const tasksPosted = await db
    .select({
      ...taskCommon,
      urgentFeeCents: tasks.urgentFeeCents,
      serviceFeeCents: tasks.serviceFeeCents,
      totalCents: tasks.totalCents,
      location: tasks.location,
      startLocation: tasks.startLocation,
      endLocation: tasks.endLocation,
      stops: tasks.stops,
      providerId: tasks.providerId,
      paymentCapturedAt: tasks.paymentCapturedAt,
    })
    .from(tasks)
    .where(eq(tasks.userId, userId));
  const tasksDone = await db
    .select({ ...taskCommon, posterId: tasks.userId })
    .from(tasks)
    .where(eq(tasks.providerId, userId));

  const messagesWritten = await db
    .select({ id: messages.id, taskId: messages.taskId, recipientId: messages.recipientId, content: messages.content, createdAt: messages.createdAt })
    .from(messages)
    .where(eq(messages.senderId, userId));

  const reviewColumns = {
    id: reviews.id,
    taskId: reviews.taskId,
    reviewerId: reviews.reviewerId,
    reviewedId: reviews.reviewedId,
    rating: reviews.rating,
    comment: reviews.comment,
    createdAt: reviews.createdAt,
  };
  const reviewsGiven = await db.select(reviewColumns).from(reviews).where(eq(reviews.reviewerId, userId));
  // Reviews are blind: one about them shows only once it is revealed (docs/product.md#reviews).
  const reviewsReceived = await queryRows<Row>(
    db,
    sql`select r.id, r.task_id as "taskId", r.reviewer_id as "reviewerId", r.reviewed_id as "reviewedId", r.rating, r.comment,
          r.created_at as "createdAt"
        from reviews r
        where r.reviewed_id = ${userId} and r.revealed_at is not null`,
  );

  const paymentRows = await db
    .select({
      id: payments.id,
      taskId: payments.taskId,
      amountCents: payments.amountCents,
      gateway: payments.gateway,
      status: payments.status,
      failureMessage: payments.failureMessage,
      createdAt: payments.createdAt,
      updatedAt: payments.updatedAt,
    })
    .from(payments)
    .where(eq(payments.posterId, userId));
  const tipColumns = {
    id: tips.id,
    taskId: tips.taskId,
    posterId: tips.posterId,
    providerId: tips.providerId,
    amountCents: tips.amountCents,
    status: tips.status,
    createdAt: tips.createdAt,
  };
  const tipsGiven = await db.select(tipColumns).from(tips).where(eq(tips.posterId, userId));
  const tipsReceived = await db.select(tipColumns).from(tips).where(eq(tips.providerId, userId));
  const payoutRows = await db
    .select({ id: payouts.id, amountCents: payouts.amountCents, status: payouts.status, createdAt: payouts.createdAt, paidAt: payouts.paidAt })
    .from(payouts)
    .where(eq(payouts.providerId, userId));

  // Their balance's entries, and the entries of the money they paid (captures and tips they made).
  const ledgerRows = await db
    .select({
      id: ledgerEntries.id,
      transactionId: ledgerEntries.transactionId,
      kind: ledgerTransactions.kind,
      taskId: ledgerTransactions.taskId,
      account: ledgerEntries.account,
      amountCents: ledgerEntries.amountCents,
      createdAt: ledgerEntries.createdAt,
    })
    .from(ledgerEntries)
    .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
    .where(
      or(
        eq(ledgerEntries.account, `provider:${userId}:balance`),
        and(eq(ledgerTransactions.createdBy, userId), inArray(ledgerTransactions.kind, ["capture", "tip"])),
      ),
    )
    .orderBy(ledgerEntries.id);

  const notificationRows = await db
    .select({
      id: notifications.id,
      kind: notifications.kind,
      title: notifications.title,
      body: notifications.body,
      taskId: notifications.taskId,
      read: notifications.read,
      createdAt: notifications.createdAt,
    })
    .from(notifications)
    .where(eq(notifications.userId, userId));
  const optOuts = new Set((await db.select({ kind: emailOptOuts.kind }).from(emailOptOuts).where(eq(emailOptOuts.userId, userId))).map((r) => r.kind));

  const jobAlertRows = await db
    .select({
      id: jobAlerts.id,
      categories: jobAlerts.categories,
      near: jobAlerts.near,
      radiusMiles: jobAlerts.radiusMiles,
      minBudgetCents: jobAlerts.minBudgetCents,
      createdAt: jobAlerts.createdAt,
    })
    .from(jobAlerts)
    .where(eq(jobAlerts.userId, userId));

  // No token hashes: the list a person sees in their settings, with the address it began at.
  const sessionRows = await db
    .select({
      id: sessions.id,
      userAgent: sessions.userAgent,
      createdIp: sessions.createdIp,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      idleExpiresAt: sessions.idleExpiresAt,
      absoluteExpiresAt: sessions.absoluteExpiresAt,
      firstFactor: sessions.firstFactor,
      secondFactor: sessions.secondFactor,
    })
    .from(sessions)
    .where(eq(sessions.userId, userId));

  const auditRows = await db
    .select({
      id: auditLog.id,
      action: auditLog.action,
      targetType: auditLog.targetType,
      reason: auditLog.reason,
      details: auditLog.details,
      byThemselves: sql<boolean>`${auditLog.actorId} is not distinct from ${userId}::uuid`,
      createdAt: auditLog.createdAt,
    })
    .from(auditLog)
    .where(eq(auditLog.targetId, userId));

  // The security log about the person (decision 050); an admin who acted is not named.
  const securityRows = await db
    .select({
      id: securityEvents.id,
      event: securityEvents.event,
      result: securityEvents.result,
      ip: securityEvents.ip,
      userAgent: securityEvents.userAgent,
      byAdmin: sql<boolean>`${securityEvents.actorId} is not null`,
      createdAt: securityEvents.createdAt,
    })
    .from(securityEvents)
    .where(eq(securityEvents.userId, userId));

  return {
    exportedAt: ctx.now().toISOString(),
    profile: plain(profile ?? {}),
    providerApplication: application ? plain(application) : null,
    tasksPosted: tasksPosted.map(plain),
    tasksDone: tasksDone.map(plain),
    messagesWritten: messagesWritten.map(plain),
    reviewsGiven: reviewsGiven.map(plain),
    reviewsReceived: reviewsReceived.map(plain),
    payments: paymentRows.map(plain),
    tipsGiven: tipsGiven.map(plain),
    tipsReceived: tipsReceived.map(plain),
    payouts: payoutRows.map(plain),
    ledgerEntries: ledgerRows.map(plain),
    notifications: notificationRows.map(plain),
    notificationPreferences: Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [`email:${kind}`, !optOuts.has(kind)])),
    jobAlerts: jobAlertRows.map(plain),
    sessions: sessionRows.map(plain),
    auditEntries: auditRows.map(plain),
    securityEvents: securityRows.map(plain),
  };
}
