import type { FastifyRequest } from "fastify";
import { aliasedTable, and, asc, desc, eq, inArray, isNotNull, isNull, not, or } from "drizzle-orm";
import { DELETED_USER, displayName } from "../../../shared/names.js";
import {
  MODERATION_APPEAL,
  type AdminReport,
  type BlockedPerson,
  type CreateReportBody,
  type ReportOutcome,
} from "../../../shared/moderation.js";
import { evaluateTransition, findTransition, type TaskTransitionName } from "../../../shared/task-lifecycle.js";
import type { AppContext } from "../../context.js";
import type { Db } from "../../db/client.js";
import { taskHasOpenDisputeSql } from "../../db/disputes.js";
import { messages } from "../../db/schema/chat.js";
import { reports, userBlocks } from "../../db/schema/moderation.js";
import { taskQuestions } from "../../db/schema/questions.js";
import { reviews } from "../../db/schema/reviews.js";
import { tasks } from "../../db/schema/tasks.js";
import { auditLog, sessions, users } from "../../db/schema/users.js";
import { HttpError, badRequest, conflict, forbidden, notFound } from "../../http-errors.js";
import { notifyUser } from "../../notify.js";
import { adminAccountSql, hasAdminRole, isAdminSession } from "../../policy.js";
import type { TaskRow } from "../../transition-actions.js";

type SessionUser = NonNullable<FastifyRequest["user"]>;

// Moderation (docs/product.md, Moderation; docs/decisions/059-moderation.md): people report and
// block; admins close reports, remove tasks, hide reviews and suspend accounts. Every admin action
// writes the audit log and tells the person concerned, with the way to appeal, in one transaction.

/** The admin's task rows of the lifecycle table, run by the tasks feature's one transition function (handed over by app.ts). */
export type AdminTaskTransition = (
  name: Extract<TaskTransitionName, "remove" | "release">,
  taskId: string,
  admin: SessionUser,
  options: { tx: Db; now: Date; reason: string },
) => Promise<TaskRow | null>;

export interface ModerationDeps {
  adminTransition: AdminTaskTransition;
}

const appeal = (ctx: AppContext) => MODERATION_APPEAL(`${ctx.env.PUBLIC_URL}/contact`);

async function audit(tx: Db, entry: { actorId: string; action: string; targetType: string; targetId: string; reason: string | null; details?: Record<string, unknown>; now: Date }): Promise<void> {
  await tx.insert(auditLog).values({ ...entry, details: entry.details ?? {}, createdAt: entry.now });
}

// ---------------------------------------------------------------------------------------------
// Reports

/** Who the reported thing is about, or 404 when it does not exist or the reporter cannot see it. */
async function subjectOf(db: Db, reporterId: string, body: CreateReportBody): Promise<string> {
  const missing = notFound("We could not find what you are reporting. It may have been deleted; refresh the page and try again.");
  switch (body.targetType) {
    case "user": {
      const [row] = await db.select({ id: users.id }).from(users).where(and(eq(users.id, body.targetId), isNull(users.deletedAt)));
      if (!row) throw missing;
      return row.id;
    }
    case "task": {
      const [row] = await db.select({ id: tasks.userId }).from(tasks).where(eq(tasks.id, body.targetId));
      if (!row) throw missing;
      return row.id;
    }
    case "message": {
      // Only the two people of a chat can see its messages, so only they can report one.
      const [row] = await db
        .select({ id: messages.senderId })
        .from(messages)
        .where(and(eq(messages.id, body.targetId), or(eq(messages.senderId, reporterId), eq(messages.recipientId, reporterId))));
      if (!row) throw missing;
      return row.id;
    }
    case "review": {
      // A review is seen once revealed, or by the two people of its task.
      const [row] = await db
        .select({ id: reviews.reviewerId })
        .from(reviews)
        .where(and(eq(reviews.id, body.targetId), or(isNotNull(reviews.revealedAt), eq(reviews.reviewedId, reporterId), eq(reviews.reviewerId, reporterId))));
      if (!row) throw missing;
      return row.id;
    }
    case "question": {
      // Public unless the poster or an admin hid it; then only the poster and its asker see it.
      const [row] = await db
        .select({ id: taskQuestions.askerId })
        .from(taskQuestions)
        .innerJoin(tasks, eq(tasks.id, taskQuestions.taskId))
        .where(and(eq(taskQuestions.id, body.targetId), or(isNull(taskQuestions.hiddenAt), eq(taskQuestions.askerId, reporterId), eq(tasks.userId, reporterId))));
      if (!row) throw missing;
      return row.id;
    }
  }
}

export async function createReport(ctx: AppContext, reporterId: string, body: CreateReportBody & { details: string }): Promise<{ id: string }> {
  const subjectId = await subjectOf(ctx.db, reporterId, body);
  if (subjectId === reporterId) throw badRequest("You cannot report yourself or your own content. To change it, edit or delete it instead.");
  const [row] = await ctx.db
    .insert(reports)
    .values({ reporterId, targetType: body.targetType, targetId: body.targetId, subjectId, reason: body.reason, details: body.details, createdAt: ctx.now() })
    .returning({ id: reports.id });
  if (!row) throw new Error("report not stored");
  return row;
}

const reporter = aliasedTable(users, "reporter");
const subject = aliasedTable(users, "subject");

/** A left-joined person's name; a person no longer there reads as a deleted account. */
function nameOf(person: { firstName: string | null; lastName: string | null } | null): string {
  return displayName(person?.firstName ? { firstName: person.firstName, lastName: person.lastName ?? "" } : DELETED_USER);
}

/** The queue: open reports oldest first, or closed ones newest first, each with the reported thing in context. */
export async function listReports(ctx: AppContext, status: "open" | "closed"): Promise<AdminReport[]> {
  const rows = await ctx.db
    .select({
      report: reports,
      reporter: { firstName: reporter.firstName, lastName: reporter.lastName },
      subject: { firstName: subject.firstName, lastName: subject.lastName, suspendedAt: subject.suspendedAt },
    })
    .from(reports)
    .leftJoin(reporter, eq(reporter.id, reports.reporterId))
    .leftJoin(subject, eq(subject.id, reports.subjectId))
    .where(status === "open" ? isNull(reports.closedAt) : isNotNull(reports.closedAt))
    .orderBy(status === "open" ? asc(reports.createdAt) : desc(reports.closedAt))
    .limit(200);
  const ids = (type: string) => rows.filter((r) => r.report.targetType === type).map((r) => r.report.targetId);
  const messageRows = ids("message").length
    ? await ctx.db.select({ id: messages.id, taskId: messages.taskId, content: messages.content }).from(messages).where(inArray(messages.id, ids("message")))
    : [];
  const reviewRows = ids("review").length
    ? await ctx.db
        .select({ id: reviews.id, taskId: reviews.taskId, rating: reviews.rating, comment: reviews.comment, hiddenAt: reviews.hiddenAt })
        .from(reviews)
        .where(inArray(reviews.id, ids("review")))
    : [];
  const questionRows = ids("question").length
    ? await ctx.db
        .select({ id: taskQuestions.id, taskId: taskQuestions.taskId, body: taskQuestions.body, answer: taskQuestions.answer })
        .from(taskQuestions)
        .where(inArray(taskQuestions.id, ids("question")))
    : [];
  const taskIds = [...ids("task"), ...messageRows.map((m) => m.taskId), ...reviewRows.map((r) => r.taskId), ...questionRows.map((q) => q.taskId)];
  const taskRows = taskIds.length
    ? await ctx.db
        .select({ id: tasks.id, title: tasks.title, status: tasks.status, description: tasks.description, totalCents: tasks.totalCents, paidAt: tasks.paymentCapturedAt })
        .from(tasks)
        .where(inArray(tasks.id, taskIds))
    : [];
  const taskById = new Map(taskRows.map((t) => [t.id, t]));
  return rows.map(({ report, reporter: who, subject: about }) => {
    const message = report.targetType === "message" ? messageRows.find((m) => m.id === report.targetId) : undefined;
    const review = report.targetType === "review" ? reviewRows.find((r) => r.id === report.targetId) : undefined;
    const question = report.targetType === "question" ? questionRows.find((q) => q.id === report.targetId) : undefined;
    const taskId = report.targetType === "task" ? report.targetId : (message?.taskId ?? review?.taskId ?? question?.taskId ?? null);
    const task = taskId ? taskById.get(taskId) : undefined;
    const excerpt =
      report.targetType === "message"
        ? (message?.content ?? null)
        : report.targetType === "review"
          ? review
            ? `${review.rating} of 5 stars${review.comment ? `: ${review.comment}` : ""}`
            : null
          : report.targetType === "task"
            ? (task?.description ?? null)
            : question
              ? `${question.body}${question.answer === null ? "" : `\nAnswer: ${question.answer}`}`
              : null;
    return {
      id: report.id,
      targetType: report.targetType,
      targetId: report.targetId,
      reason: report.reason as AdminReport["reason"],
      details: report.details,
      reporterId: report.reporterId,
      reporterName: nameOf(who),
      subjectId: report.subjectId,
      subjectName: nameOf(about),
      subjectSuspended: about?.suspendedAt != null,
      taskId: task ? taskId : null,
      taskTitle: task?.title ?? null,
      taskStatus: task?.status ?? null,
      taskPaidCents: task?.paidAt ? task.totalCents : null,
      excerpt,
      reviewHidden: review ? review.hiddenAt !== null : null,
      createdAt: report.createdAt.toISOString(),
      closedAt: report.closedAt?.toISOString() ?? null,
      outcome: report.outcome as ReportOutcome | null,
      outcomeNote: report.outcomeNote,
    };
  });
}

export async function closeReport(ctx: AppContext, adminId: string, reportId: string, outcome: ReportOutcome, note: string | null): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    const [row] = await tx
      .update(reports)
      .set({ closedAt: now, closedBy: adminId, outcome, outcomeNote: note })
      .where(and(eq(reports.id, reportId), isNull(reports.closedAt)))
      .returning({ id: reports.id });
    if (!row) {
      const [existing] = await tx.select({ id: reports.id }).from(reports).where(eq(reports.id, reportId));
      throw existing ? conflict("This report is already closed. Refresh the queue to see the open ones.") : notFound("Report not found");
    }
    await audit(tx, { actorId: adminId, action: "report.close", targetType: "report", targetId: reportId, reason: note, details: { outcome }, now });
  });
}

// ---------------------------------------------------------------------------------------------
// Blocks

export async function listBlocks(ctx: AppContext, userId: string): Promise<BlockedPerson[]> {
  const rows = await ctx.db
    .select({ userId: userBlocks.blockedId, firstName: users.firstName, lastName: users.lastName, blockedAt: userBlocks.createdAt })
    .from(userBlocks)
    .innerJoin(users, eq(users.id, userBlocks.blockedId))
    .where(eq(userBlocks.blockerId, userId))
    .orderBy(desc(userBlocks.createdAt));
  return rows.map((r) => ({ userId: r.userId, name: nameOf(r), blockedAt: r.blockedAt.toISOString() }));
}

export async function block(ctx: AppContext, userId: string, otherId: string): Promise<void> {
  if (userId === otherId) throw badRequest("You cannot block yourself.");
  const [other] = await ctx.db.select({ id: users.id }).from(users).where(and(eq(users.id, otherId), isNull(users.deletedAt)));
  if (!other) throw notFound("We could not find this person. Their account may have been deleted.");
  await ctx.db.insert(userBlocks).values({ blockerId: userId, blockedId: otherId, createdAt: ctx.now() }).onConflictDoNothing();
}

export async function unblock(ctx: AppContext, userId: string, otherId: string): Promise<void> {
  await ctx.db.delete(userBlocks).where(and(eq(userBlocks.blockerId, userId), eq(userBlocks.blockedId, otherId)));
}

// ---------------------------------------------------------------------------------------------
// Admin actions on tasks, reviews and accounts

/** Runs an admin row of the task table; a refusal is explained as any transition's (404, 409). */
async function adminTransition(ctx: AppContext, deps: ModerationDeps, tx: Db, name: "remove" | "release", taskId: string, admin: SessionUser, reason: string, now: Date): Promise<TaskRow> {
  const moved = await deps.adminTransition(name, taskId, admin, { tx, now, reason });
  if (moved) return moved;
  const [task] = await tx.select().from(tasks).where(eq(tasks.id, taskId));
  if (!task) throw notFound("Task not found");
  const verdict = evaluateTransition(name, task, { id: admin.id, isAdmin: isAdminSession(admin), providerVerified: false }, now);
  if (!verdict.ok) throw new HttpError(verdict.status, verdict.message);
  throw conflict("This task changed while you were acting on it. Please try again.");
}

export async function removeTask(ctx: AppContext, deps: ModerationDeps, admin: SessionUser, taskId: string, reason: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    const task = await adminTransition(ctx, deps, tx, "remove", taskId, admin, reason, now);
    await audit(tx, { actorId: admin.id, action: "task.remove", targetType: "task", targetId: taskId, reason, details: { paid: task.paymentCapturedAt !== null }, now });
  });
}

async function setReviewHidden(ctx: AppContext, adminId: string, reviewId: string, hide: boolean, reason: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    // The ratings trigger (drizzle/0013_moderation.sql) takes a hidden review out of its person's rating.
    const [row] = await tx
      .update(reviews)
      .set({ hiddenAt: hide ? now : null })
      .where(and(eq(reviews.id, reviewId), hide ? isNull(reviews.hiddenAt) : isNotNull(reviews.hiddenAt)))
      .returning({ reviewerId: reviews.reviewerId, taskId: reviews.taskId });
    if (!row) {
      const [existing] = await tx.select({ id: reviews.id }).from(reviews).where(eq(reviews.id, reviewId));
      if (!existing) throw notFound("Review not found");
      throw conflict(hide ? "This review is already hidden." : "This review is not hidden.");
    }
    await audit(tx, { actorId: adminId, action: hide ? "review.hide" : "review.unhide", targetType: "review", targetId: reviewId, reason, now });
    await notifyUser(ctx, tx, {
      userId: row.reviewerId,
      kind: "moderation",
      title: hide ? "Your review was hidden" : "Your review is visible again",
      body: hide
        ? `An Errandly administrator hid your review because: ${reason}. It no longer counts in the rating. ${appeal(ctx)}`
        : `An Errandly administrator made your review visible again: ${reason}.`,
      taskId: row.taskId,
    });
  });
}

export const hideReview = (ctx: AppContext, adminId: string, reviewId: string, reason: string) => setReviewHidden(ctx, adminId, reviewId, true, reason);
export const unhideReview = (ctx: AppContext, adminId: string, reviewId: string, reason: string) => setReviewHidden(ctx, adminId, reviewId, false, reason);

/**
 * Suspends an account at once: every session ends (the sessions trigger closes their sockets on
 * every instance, drizzle/0002), their tasks not yet completed are removed (paid ones refunded),
 * the tasks they claimed reopen (paid ones refunded), and sign-in is refused with the reason.
 */
export async function suspendUser(ctx: AppContext, deps: ModerationDeps, admin: SessionUser, userId: string, reason: string): Promise<void> {
  if (userId === admin.id) throw badRequest("You cannot suspend your own account.");
  await ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    const [row] = await tx
      .update(users)
      .set({ suspendedAt: now, suspensionReason: reason, updatedAt: now })
      .where(and(eq(users.id, userId), isNull(users.suspendedAt), isNull(users.deletedAt), not(adminAccountSql)))
      .returning({ id: users.id });
    if (!row) {
      const [existing] = await tx.select({ role: users.role, suspendedAt: users.suspendedAt, deletedAt: users.deletedAt }).from(users).where(eq(users.id, userId));
      if (!existing || existing.deletedAt) throw notFound("User not found");
      if (hasAdminRole(existing)) throw forbidden("An administrator cannot be suspended. Revoke their admin role first with the admin command line.");
      throw conflict("This account is already suspended.");
    }
    await tx.delete(sessions).where(eq(sessions.userId, userId));
    // A task with an open problem report keeps its money and people until an admin resolves the
    // dispute (the rows' no_open_dispute guard); the suspension itself does not wait for it
    // (docs/decisions/059-moderation.md).
    const undisputed = not(taskHasOpenDisputeSql());
    const removable = findTransition("remove").from as readonly string[];
    const posted = await tx
      .select({ id: tasks.id })
      .from(tasks)
      .where(and(eq(tasks.userId, userId), inArray(tasks.status, [...removable] as never), undisputed));
    for (const { id } of posted) await adminTransition(ctx, deps, tx, "remove", id, admin, reason, now);
    const releasable = findTransition("release").from as readonly string[];
    const claimed = await tx
      .select({ id: tasks.id })
      .from(tasks)
      .where(and(eq(tasks.providerId, userId), inArray(tasks.status, [...releasable] as never), undisputed));
    for (const { id } of claimed) await adminTransition(ctx, deps, tx, "release", id, admin, reason, now);
    await audit(tx, {
      actorId: admin.id,
      action: "user.suspend",
      targetType: "user",
      targetId: userId,
      reason,
      details: { removedTasks: posted.map((t) => t.id), releasedTasks: claimed.map((t) => t.id) },
      now,
    });
    await notifyUser(ctx, tx, {
      userId,
      kind: "moderation",
      title: "Your Errandly account is suspended",
      body: `An Errandly administrator suspended your account because: ${reason}. You have been signed out and cannot sign in while it is suspended; your open tasks were closed and any payments refunded, except a task with an open problem report, which an administrator settles. ${appeal(ctx)}`,
    });
  });
}

export async function liftSuspension(ctx: AppContext, adminId: string, userId: string, reason: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    const [row] = await tx
      .update(users)
      .set({ suspendedAt: null, suspensionReason: null, updatedAt: now })
      .where(and(eq(users.id, userId), isNotNull(users.suspendedAt)))
      .returning({ id: users.id });
    if (!row) {
      const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId));
      throw existing ? conflict("This account is not suspended.") : notFound("User not found");
    }
    await audit(tx, { actorId: adminId, action: "user.unsuspend", targetType: "user", targetId: userId, reason, now });
    await notifyUser(ctx, tx, {
      userId,
      kind: "moderation",
      title: "Your Errandly account is active again",
      body: `An Errandly administrator lifted the suspension of your account: ${reason}. You can sign in again at ${ctx.env.PUBLIC_URL}/login.`,
    });
  });
}
