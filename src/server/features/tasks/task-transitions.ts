import type { FastifyRequest } from "fastify";
import { and, eq, inArray, isNotNull, isNull, lte, ne, or, sql, type SQL } from "drizzle-orm";
import {
  findTransition,
  evaluateTransition,
  type SystemActor,
  type TaskCondition,
  type TaskEffect,
  type TaskTransitionName,
  type TaskViewer,
  type TransitionActor,
} from "../../../shared/task-lifecycle.js";
import type { AppContext } from "../../context.js";
import type { Db } from "../../db/client.js";
import { providerProfiles } from "../../db/schema/providers.js";
import { tasks } from "../../db/schema/tasks.js";
import { HttpError, conflict, notFound } from "../../http-errors.js";
import type { TaskRow } from "../../task-events.js";

// The server side of the lifecycle table (docs/decisions/005-task-lifecycle-table.md): each row of
// TASK_TRANSITIONS becomes ONE conditional UPDATE whose WHERE holds the `from` states, the actor
// and the named conditions, and whose SET holds `to` and the named effects. Two providers
// claiming at once therefore cannot both win: the second UPDATE finds status <> 'open' and
// returns nothing. Only then is the task read, to explain the refusal with evaluateTransition.

/** The signed-in user as the auth plugin resolved it (kept local: features do not import each other). */
export type SessionUser = NonNullable<FastifyRequest["user"]>;

type Actor = { kind: "person"; user: SessionUser } | { kind: "system"; actor: SystemActor };

type SetValues = Partial<typeof tasks.$inferInsert>;

/** SQL meaning of each named condition; the Record makes a new condition fail type checking here. */
const CONDITION_SQL: Record<TaskCondition, (now: Date) => SQL | undefined> = {
  paid: () => isNotNull(tasks.paymentCapturedAt),
  unpaid: () => isNull(tasks.paymentCapturedAt),
  deadline_passed: (now) => and(isNotNull(tasks.paymentDeadline), lte(tasks.paymentDeadline, now)),
  deadline_not_passed: (now) => or(isNull(tasks.paymentDeadline), sql`${tasks.paymentDeadline} > ${now.toISOString()}`),
};

function effectValues(effect: TaskEffect, actor: Actor, now: Date, windowMinutes: number): SetValues {
  switch (effect) {
    case "assign_provider":
      if (actor.kind !== "person") throw new Error("Only a person can be assigned as provider");
      return { providerId: actor.user.id };
    case "start_payment_window":
      return { paymentDeadline: new Date(now.getTime() + windowMinutes * 60_000) };
    case "record_payment":
      return { paymentCapturedAt: now };
    case "release_provider":
      return { providerId: null, paymentDeadline: null };
  }
}

/** When each transition happened, for the dashboard and audits. */
const STAMPS: Partial<Record<TaskTransitionName, keyof SetValues>> = {
  claim: "claimedAt",
  start: "startedAt",
  complete: "completedAt",
  cancel: "cancelledAt",
};

/** The table's actor kinds as SQL over the task row; system actors are checked in code. */
function actorPredicate(kind: TransitionActor, actor: Actor): SQL | undefined {
  if (actor.kind === "system") return kind === actor.actor ? undefined : sql`false`;
  const id = actor.user.id;
  switch (kind) {
    case "verified_provider":
      return and(
        ne(tasks.userId, id),
        sql`exists (select 1 from provider_profiles pp where pp.user_id = ${id} and pp.verification_status = 'approved')`,
      );
    case "assigned_provider":
      return eq(tasks.providerId, id);
    case "poster":
      return eq(tasks.userId, id);
    case "timer":
    case "payment_system":
      return sql`false`;
  }
}

export interface TransitionOptions {
  paymentWindowMinutes: number;
}

/**
 * The one conditional UPDATE of `name`, plus the task events, in one transaction. Returns the
 * moved row, or null when the WHERE did not match (wrong actor, state or condition, or a race lost).
 */
export async function tryTransition(
  ctx: Pick<AppContext, "db" | "taskEvents">,
  name: TaskTransitionName,
  taskId: string,
  actor: Actor,
  now: Date,
  options: TransitionOptions,
): Promise<TaskRow | null> {
  const transition = findTransition(name);
  let values: SetValues = { status: transition.to, updatedAt: now };
  for (const effect of transition.effects) values = { ...values, ...effectValues(effect, actor, now, options.paymentWindowMinutes) };
  const stamp = STAMPS[name];
  if (stamp) values = { ...values, [stamp]: now };
  const where = and(
    eq(tasks.id, taskId),
    inArray(tasks.status, [...transition.from]),
    actorPredicate(transition.actor, actor),
    ...transition.requires.map((r) => CONDITION_SQL[r.condition](now)),
  );
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx.update(tasks).set(values).where(where).returning();
    if (!row) return null;
    await ctx.taskEvents.emit({
      transition: name,
      task: row,
      actorId: actor.kind === "person" ? actor.user.id : null,
      tx,
      now,
    });
    return row;
  });
}

async function viewerOf(db: Db, user: SessionUser): Promise<TaskViewer> {
  const [profile] = await db
    .select({ status: providerProfiles.verificationStatus })
    .from(providerProfiles)
    .where(eq(providerProfiles.userId, user.id))
    .limit(1);
  return { id: user.id, role: user.role, isAdmin: user.role === "admin", providerVerified: profile?.status === "approved" };
}

/** A person's transition: the moved task, or the precise refusal (404, 403, 409). */
export async function performTransition(
  ctx: Pick<AppContext, "db" | "taskEvents" | "now" | "env">,
  name: TaskTransitionName,
  taskId: string,
  user: SessionUser,
): Promise<TaskRow> {
  const now = ctx.now();
  const moved = await tryTransition(ctx, name, taskId, { kind: "person", user }, now, {
    paymentWindowMinutes: ctx.env.PAYMENT_WINDOW_MINUTES,
  });
  if (moved) return moved;
  const [task] = await ctx.db.select().from(tasks).where(eq(tasks.id, taskId)).limit(1);
  if (!task) throw notFound("Task not found");
  const verdict = evaluateTransition(name, task, await viewerOf(ctx.db, user), now);
  if (!verdict.ok) throw new HttpError(verdict.status, verdict.message);
  // The row changed between our UPDATE and this read (and changed back): ask to retry.
  throw conflict("This task changed while you were acting on it. Please try again.");
}

/**
 * The payment-deadline timer. Candidates come from the partial index; each one is then moved by
 * the same conditional UPDATE as any transition, so several instances can run this at once and
 * a task paid at the last moment is never expired (the UPDATE re-checks `unpaid`).
 */
export async function expireUnpaidClaims(ctx: Pick<AppContext, "db" | "taskEvents" | "now" | "env">, batch = 200): Promise<number> {
  const now = ctx.now();
  const due = await ctx.db
    .select({ id: tasks.id })
    .from(tasks)
    .where(and(eq(tasks.status, "claimed"), isNull(tasks.paymentCapturedAt), lte(tasks.paymentDeadline, now)))
    .orderBy(tasks.paymentDeadline)
    .limit(batch);
  let expired = 0;
  for (const { id } of due) {
    const row = await tryTransition(ctx, "expire", id, { kind: "system", actor: "timer" }, now, {
      paymentWindowMinutes: ctx.env.PAYMENT_WINDOW_MINUTES,
    });
    if (row) expired += 1;
  }
  return expired;
}
