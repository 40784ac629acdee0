import { and, inArray, isNotNull, isNull, or, sql, type SQL } from "drizzle-orm";
import { toSnakeCase } from "drizzle-orm/casing";
import {
  findTransition,
  NO_SHOW_AFTER_MINUTES,
  TASK_EFFECTS,
  type EffectField,
  type EffectValue,
  type TaskCondition,
  type TaskEffect,
  type TaskTransitionName,
  type TransitionActor,
  type TransitionInput,
} from "../../../shared/task-lifecycle.js";
import type { AppContext } from "../../context.js";
import type { Db } from "../../db/client.js";
import { RowStatement } from "../../db/prepared.js";
import { tasks } from "../../db/schema/tasks.js";
import { users } from "../../db/schema/users.js";
import { isAdminSession } from "../../policy.js";
import type { TaskRow } from "../../transition-actions.js";
import { TASK_COLUMNS, type TransitionActorInput } from "./repository.js";


// The statements of the task table's transitions (docs/decisions/005-task-lifecycle-table.md):
// posting's INSERT, and each row of TASK_TRANSITIONS as ONE conditional UPDATE generated from the
// row (docs/decisions/045-transitions-name-their-actions.md).

/** Every column a posting may leave empty: a task has either a place or a route. */
export const TASK_PLACE_COLUMNS = [
  "location", "city", "state", "lat", "lon",
  "startLocation", "startCity", "startState", "startLat", "startLon",
  "endLocation", "endCity", "endState", "endLat", "endLon",
] as const;

/**
 * Posting in one statement, written once: the task (every value a placeholder, the place's columns
 * null when the body has none) and, for a provider who posts, their role "both". Drizzle built
 * this insert again on every post, the largest part of a post's server CPU (docs/benchmarks.md,
 * "Profiles of issue 16").
 */
export const insertTaskStatement = new RowStatement("task_insert", TASK_COLUMNS, (returning) => {
  const p = (name: string) => sql.placeholder(name);
  const columns = [
    "userId", "hiringMode", "title", "description", "category", "urgency", "budgetCents", "urgentFeeCents", "serviceFeeCents", "totalCents", "providerShareCents", "platformCommissionCents", "scheduledDate",
    ...TASK_PLACE_COLUMNS, "stops", "approxLat", "approxLon", "status", "requestedProviderId", "requestExpiresAt", "requestFallback",
    // Time (decision 074); a booking posts the task claimed, with its provider and payment window.
    "timeZone", "durationMinutes", "estimatedMinutes", "providerId", "paymentDeadline", "claimedAt",
  ] as const;
  return sql`with promoted as (
      update ${users} set role = 'both', updated_at = ${p("now")}::timestamptz where ${users.id} = ${p("userId")}::uuid and ${users.role} = 'provider'
    )
    insert into ${tasks} (${sql.join(columns.map((c) => sql.identifier(toSnakeCase(c))), sql`, `)}, created_at, updated_at)
    values (${sql.join(columns.map((c) => p(c)), sql`, `)}, ${p("now")}::timestamptz, ${p("now")}::timestamptz)
    returning ${returning}`;
});
// ---------------------------------------------------------------------------------------------
// Transitions: each row of TASK_TRANSITIONS as ONE conditional UPDATE whose WHERE holds the `from`
// states, the actor and the named conditions, and whose SET holds `to` and the named effects. Two
// providers claiming at once therefore cannot both win: the second UPDATE finds status <> 'open'
// and returns nothing.

/** The values a transition's UPDATE sets: column -> SQL (placeholders, or a constant of the table). */
type SetValues = Partial<Record<keyof typeof tasks.$inferInsert, SQL>>;

const p = sql.placeholder;

/** SQL meaning of each named condition, with the instant as the "now" placeholder; the Record makes a new condition fail type checking here. */
const CONDITION_SQL: Record<TaskCondition, SQL | undefined> = {
  paid: isNotNull(tasks.paymentCapturedAt),
  takes_claims: sql`${tasks.hiringMode} = 'first_to_claim'`,
  takes_offers: sql`${tasks.hiringMode} = 'offers'`,
  claimed_by_provider: sql`(${tasks.hiringMode} = 'first_to_claim' and ${tasks.providerId} is distinct from ${tasks.requestedProviderId})`,
  unpaid: isNull(tasks.paymentCapturedAt),
  deadline_passed: and(isNotNull(tasks.paymentDeadline), sql`${tasks.paymentDeadline} <= ${p("now")}::timestamptz`),
  deadline_not_passed: or(isNull(tasks.paymentDeadline), sql`${tasks.paymentDeadline} > ${p("now")}::timestamptz`),
  request_window_open: sql`${tasks.requestExpiresAt} > ${p("now")}::timestamptz`,
  request_window_passed: sql`${tasks.requestExpiresAt} <= ${p("now")}::timestamptz`,
  falls_back_open: sql`${tasks.requestFallback} = 'open'`,
  falls_back_cancel: sql`${tasks.requestFallback} = 'cancel'`,
  has_proposal: isNotNull(tasks.proposedStartAt),
  provider_late: sql`${tasks.scheduledDate} + make_interval(mins => ${sql.raw(String(NO_SHOW_AFTER_MINUTES))}) <= ${p("now")}::timestamptz`,
};

/**
 * What each value of the table's effects is in SQL: placeholders actorId (the person), now, deadline
 * (the payment window's end) and offerId (the offer a transition names; null when it names none).
 */
const EFFECT_VALUE_SQL: Record<NonNullable<EffectValue>, SQL> = {
  actor: sql`${p("actorId")}::uuid`,
  now: sql`${p("now")}::timestamptz`,
  window_end: sql`${p("deadline")}::timestamptz`,
  // Null when the offer is no longer open: the offers.accept action then refuses and rolls back.
  offer_provider: sql`(select o.provider_id from task_offers o where o.id = ${p("offerId")}::uuid and o.task_id = ${tasks.id} and o.status = 'open')`,
  requested_provider: sql`${tasks.requestedProviderId}`,
  proposed_time: sql`${p("proposedStartAt")}::timestamptz`,
  // SET reads the row as it was, so the proposal moves to the start while its own column is cleared.
  proposal: sql`${tasks.proposedStartAt}`,
  arrival_estimate: sql`${p("arrivalEstimateAt")}::timestamptz`,
};

/** The SET values of the table's effects (TASK_EFFECTS), the same record applyEffects reads. */
function effectValues(effect: TaskEffect, actor: TransitionActorInput): SetValues {
  const values: SetValues = {};
  for (const [field, value] of Object.entries(TASK_EFFECTS[effect]) as [EffectField, EffectValue][]) {
    if (value === "actor" && actor.kind !== "person") throw new Error("Only a person can be assigned as provider");
    values[field] = value === null ? sql`null` : EFFECT_VALUE_SQL[value];
  }
  return values;
}

/** When each transition happened, for the dashboard and audits. */
const STAMPS: Partial<Record<TaskTransitionName, keyof SetValues>> = {
  claim: "claimedAt",
  accept_offer: "claimedAt",
  accept_request: "claimedAt",
  decline_request_cancel: "cancelledAt",
  lapse_request_cancel: "cancelledAt",
  cancel_request: "cancelledAt",
  start: "startedAt",
  complete: "completedAt",
  cancel: "cancelledAt",
  resolve_dispute: "cancelledAt",
  report_no_show: "cancelledAt",
};

/** The table's actor kinds as SQL over the task row, the person as the actorId placeholder; system actors are matched by name. */
function actorPredicate(kind: TransitionActor, actor: TransitionActorInput): SQL | undefined {
  if (actor.kind === "system") return kind === actor.actor ? undefined : sql`false`;
  const id = sql`${p("actorId")}::uuid`;
  switch (kind) {
    case "verified_provider":
      return and(
        sql`${tasks.userId} <> ${id}`,
        sql`exists (select 1 from provider_profiles pp where pp.user_id = ${id} and pp.verification_status = 'approved')`,
      );
    case "assigned_provider":
      return sql`${tasks.providerId} = ${id}`;
    case "poster":
      return sql`${tasks.userId} = ${id}`;
    case "admin":
      // Whether the person is an admin is the policy's answer for their session (an admin role on
      // two factors: src/server/policy.ts), not their role column.
      return sql`${p("actorIsAdmin")}::boolean`;
    case "requested_provider":
      return and(
        sql`${tasks.requestedProviderId} = ${id}`,
        sql`exists (select 1 from provider_profiles pp where pp.user_id = ${id} and pp.verification_status = 'approved')`,
      );
    case "party":
      return sql`(${tasks.userId} = ${id} or ${tasks.providerId} = ${id})`;
    case "proposal_recipient":
      return sql`(${tasks.userId} = ${id} or ${tasks.providerId} = ${id}) and ${tasks.proposedById} is distinct from ${id}`;
    case "timer":
    case "payment_system":
      return sql`false`;
  }
}

/**
 * A transition's conditional UPDATE for one kind of actor (a person, or a system actor by name),
 * written once from the lifecycle table and then only executed: drizzle built it on every
 * transition (docs/decisions/039-hot-statements-written-once.md).
 */
function transitionStatement(name: TaskTransitionName, actor: TransitionActorInput) {
  const key = `${name}_${actor.kind === "system" ? actor.actor : "person"}`;
  const made = transitionStatements.get(key);
  if (made) return made;
  const transition = findTransition(name);
  let values: SetValues = { status: sql`${transition.to}::task_status`, updatedAt: sql`${p("now")}::timestamptz` };
  for (const effect of transition.effects) values = { ...values, ...effectValues(effect, actor) };
  const stamp = STAMPS[name];
  if (stamp) values = { ...values, [stamp]: sql`${p("now")}::timestamptz` };
  const where = and(
    sql`${tasks.id} = ${p("taskId")}::uuid`,
    inArray(tasks.status, [...transition.from]),
    actorPredicate(transition.actor, actor),
    ...transition.requires.map((r) => CONDITION_SQL[r.condition]),
  );
  const set = sql.join(
    Object.entries(values).map(([column, value]) => sql`${sql.identifier(toSnakeCase(column))} = ${value}`),
    sql`, `,
  );
  const statement = new RowStatement(`task_${key}`, TASK_COLUMNS, (returning) => sql`update ${tasks} set ${set} where ${where} returning ${returning}`);
  transitionStatements.set(key, statement);
  return statement;
}

/** The same for every database (the text has no database in it): one per transition and kind of actor, per process. */
const transitionStatements = new Map<string, RowStatement<typeof TASK_COLUMNS>>();

/**
 * The conditional UPDATE of transition `name`, in `tx`: the moved row, or null when the WHERE did
 * not match (wrong actor, state or condition, or a race lost).
 */
export async function updateByTransition(
  ctx: AppContext,
  name: TaskTransitionName,
  taskId: string,
  actor: TransitionActorInput,
  now: Date,
  tx: Db = ctx.db,
  offerId: string | null = null,
  input: TransitionInput = {},
): Promise<TaskRow | null> {
  const instant = (v: Date | string | null | undefined) => (v == null ? null : new Date(v).toISOString());
  const [row] = await transitionStatement(name, actor).rows(tx, {
    taskId,
    now: now.toISOString(),
    actorId: actor.kind === "person" ? actor.user.id : null,
    actorIsAdmin: actor.kind === "person" && isAdminSession(actor.user),
    offerId,
    deadline: paymentWindowEnd(ctx, now).toISOString(),
    proposedStartAt: instant(input.proposedStartAt),
    arrivalEstimateAt: instant(input.arrivalEstimateAt),
  });
  return row ?? null;
}

/** The end of a payment window that starts `now`: a claim's, an accepted offer's or request's, a booking's. */
export function paymentWindowEnd(ctx: AppContext, now: Date): Date {
  return new Date(now.getTime() + ctx.env.PAYMENT_WINDOW_MINUTES * 60_000);
}

/** Posting's INSERT in `tx` (each column of the statement a named value, and `now`): the new task. */
export async function insertTask(tx: Db, values: Record<string, unknown>): Promise<TaskRow> {
  const [inserted] = await insertTaskStatement.rows(tx, values);
  if (!inserted) throw new Error("task insert returned no row");
  return inserted;
}
