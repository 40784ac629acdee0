import type { FastifyRequest } from "fastify";
import { and, desc, eq, getTableColumns, isNull, lte, sql } from "drizzle-orm";
import type { z } from "zod";
import { BLOCKED_MESSAGE } from "../../../shared/moderation.js";
import type { SystemActor, TaskViewer } from "../../../shared/task-lifecycle.js";
import { REQUEST_MESSAGES, type TaskRequestInput } from "../../../shared/task-requests.js";
import type { createTaskBodySchema, openTasksQuerySchema } from "../../../shared/tasks.js";
import type { AppContext } from "../../context.js";
import { blockedBetweenSql } from "../../db/blocks.js";
import type { Db } from "../../db/client.js";
import { taskHasOpenDisputeSql } from "../../db/disputes.js";
import { providerProfiles } from "../../db/schema/providers.js";
import { taskDeclinedProviders, tasks, taskWithdrawals } from "../../db/schema/tasks.js";
import { users } from "../../db/schema/users.js";
import { forbidden, namedFieldError } from "../../http-errors.js";
import { isAdminSession } from "../../policy.js";
import type { TaskRow } from "../../transition-actions.js";


// The tasks feature's small reads and writes around a transition (the claim lock, the declined
// providers, the due claims), and the types the other files share. The rest of the tasks table
// lives by concern beside it: board-query.ts (the job board), task-views.ts (rows into API
// answers), transition-statements.ts (posting's INSERT and each transition's conditional UPDATE).

/** The signed-in user as the auth plugin resolved it (kept local: features do not import each other). */
export type SessionUser = NonNullable<FastifyRequest["user"]>;

/** Who performs a transition: a signed-in person, or the server itself (the timer, the payment system). */
export type TransitionActorInput = { kind: "person"; user: SessionUser } | { kind: "system"; actor: SystemActor };

export type CreateTaskInput = z.output<typeof createTaskBodySchema>;
export type OpenTasksInput = z.output<typeof openTasksQuerySchema>;

/** Every column of a task row: what posting, the task page and every transition answer. */
export const TASK_COLUMNS = getTableColumns(tasks);

/** Takes the provider's claim lock for this transaction and counts their claimed, unpaid tasks. */
export async function lockAndCountUnpaidClaims(ctx: AppContext, providerId: string, tx: Db = ctx.db): Promise<number> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`claims:${providerId}`}))`);
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(tasks)
    .where(and(eq(tasks.providerId, providerId), eq(tasks.status, "claimed"), isNull(tasks.paymentCapturedAt)));
  return row?.n ?? 0;
}

export async function findTask(ctx: AppContext, taskId: string, tx: Db = ctx.db): Promise<TaskRow | null> {
  const [task] = await tx.select().from(tasks).where(eq(tasks.id, taskId)).limit(1);
  return task ?? null;
}

/** The person as the lifecycle table sees them: their approved verification decides claiming, the policy the admin rows. */
export async function taskViewer(ctx: AppContext, user: SessionUser): Promise<TaskViewer> {
  const [profile] = await ctx.db
    .select({ status: providerProfiles.verificationStatus })
    .from(providerProfiles)
    .where(eq(providerProfiles.userId, user.id))
    .limit(1);
  return { id: user.id, isAdmin: isAdminSession(user), providerVerified: profile?.status === "approved" };
}

/** Claimed, unpaid tasks whose payment deadline has passed, oldest first (the partial index serves it). */
export async function dueUnpaidClaims(ctx: AppContext, now: Date, batch: number): Promise<string[]> {
  const due = await ctx.db
    .select({ id: tasks.id })
    .from(tasks)
    .where(and(eq(tasks.status, "claimed"), isNull(tasks.paymentCapturedAt), lte(tasks.paymentDeadline, now)))
    .orderBy(tasks.paymentDeadline)
    .limit(batch);
  return due.map((row) => row.id);
}

/** Locks the task row for this transaction and answers its provider (null when none or no task). */
export async function lockProviderOf(taskId: string, tx: Db): Promise<string | null> {
  const [row] = await tx.select({ providerId: tasks.providerId }).from(tasks).where(eq(tasks.id, taskId)).for("update");
  return row?.providerId ?? null;
}

/** Remembers that the poster declined this provider for this task (docs/decisions/024-declining-a-provider.md). */
export async function recordDeclinedProvider(taskId: string, providerId: string, now: Date, tx: Db): Promise<void> {
  await tx.insert(taskDeclinedProviders).values({ taskId, providerId, declinedAt: now }).onConflictDoNothing();
}

/** Records a provider's withdrawal from a claim (docs/decisions/058-withdrawing-and-editing.md). */
export async function recordWithdrawal(taskId: string, providerId: string, paid: boolean, now: Date, tx: Db): Promise<void> {
  await tx.insert(taskWithdrawals).values({ taskId, providerId, paid, withdrawnAt: now });
}

/** More open tasks than anyone is declined on; the bound keeps the answer small whatever happens. */
const DECLINED_TASKS_LISTED = 500;

/** The open tasks whose poster declined this provider: their job board leaves them out (decision 024). */
export async function declinedOpenTasks(db: Db, providerId: string): Promise<string[]> {
  const rows = await db
    .select({ taskId: taskDeclinedProviders.taskId })
    .from(taskDeclinedProviders)
    .innerJoin(tasks, eq(tasks.id, taskDeclinedProviders.taskId))
    .where(and(eq(taskDeclinedProviders.providerId, providerId), eq(tasks.status, "open")))
    .orderBy(desc(taskDeclinedProviders.declinedAt))
    .limit(DECLINED_TASKS_LISTED);
  return rows.map((row) => row.taskId);
}

/** Whether the task's poster and this person have blocked each other, either way (src/server/db/blocks.ts). */
export async function blockedWithPoster(taskId: string, userId: string, tx: Db): Promise<boolean> {
  const [row] = await tx
    .select({ blocked: blockedBetweenSql(tasks.userId, sql`${userId}::uuid`) })
    .from(tasks)
    .where(eq(tasks.id, taskId));
  return row?.blocked === true;
}

/** Whether a problem reported on this task is still open (docs/decisions/057-disputes-guarantee-late-cancellation.md). */
export async function hasOpenDispute(taskId: string, tx: Db): Promise<boolean> {
  const [row] = await tx.select({ open: taskHasOpenDisputeSql() }).from(tasks).where(eq(tasks.id, taskId));
  return row?.open === true;
}

export async function wasDeclined(taskId: string, providerId: string, tx: Db): Promise<boolean> {
  const [row] = await tx
    .select({ taskId: taskDeclinedProviders.taskId })
    .from(taskDeclinedProviders)
    .where(and(eq(taskDeclinedProviders.taskId, taskId), eq(taskDeclinedProviders.providerId, providerId)))
    .limit(1);
  return row !== undefined;
}

/** The request columns a posting writes: the window's end from the app clock. */
interface RequestColumns {
  requestedProviderId: string;
  requestExpiresAt: string;
  requestFallback: "open" | "cancel";
}

/**
 * Refuses a request the poster may not make: themselves (400), someone who is not an approved
 * provider (400), or someone either of them blocked (403, docs/product.md, Moderation).
 */
export async function requestColumns(tx: Db, poster: SessionUser, request: Required<Omit<TaskRequestInput, "startsAt">>, now: Date): Promise<RequestColumns> {
  if (request.providerId === poster.id) throw namedFieldError("request", REQUEST_MESSAGES.yourself);
  const [found] = await tx
    .select({ approved: sql<boolean>`${providerProfiles.verificationStatus} = 'approved'`, blocked: blockedBetweenSql(users.id, sql`${poster.id}::uuid`) })
    .from(users)
    .leftJoin(providerProfiles, eq(providerProfiles.userId, users.id))
    .where(eq(users.id, request.providerId))
    .limit(1);
  if (!found?.approved) throw namedFieldError("request", REQUEST_MESSAGES.notAProvider);
  if (found.blocked) throw forbidden(BLOCKED_MESSAGE);
  return {
    requestedProviderId: request.providerId,
    requestExpiresAt: new Date(now.getTime() + request.windowHours * 3_600_000).toISOString(),
    requestFallback: request.fallback,
  };
}
