import { MAX_UNPAID_CLAIMS } from "../../../shared/constants.js";
import type { GeoPoint } from "../../../shared/felix-pricing.js";
import { dollarsToCents, lineItemsOf, priceTask } from "../../../shared/money.js";
import {
  DECLINED_PROVIDER_MESSAGE,
  evaluateTransition,
  openDisputeRefusal,
  findTransition,
  TASK_POSTING,
  TASK_REQUEST_POSTING,
  type TaskGuard,
  type TaskProcessStep,
  type TaskTransitionName,
} from "../../../shared/task-lifecycle.js";
import { BLOCKED_MESSAGE } from "../../../shared/moderation.js";
import { scheduleProblem, type TaskPrivate } from "../../../shared/tasks.js";
import { maskContactDetails } from "../../contact-masking.js";
import type { AppContext } from "../../context.js";
import type { Db } from "../../db/client.js";
import type { StoredStop } from "../../db/schema/tasks.js";
import { HttpError, conflict, forbidden, namedFieldError, notFound } from "../../http-errors.js";
import type { NamedOffer, TaskActionEvent, TaskRow } from "../../transition-actions.js";
import { approx, locateTypedPlace, type TypedPlace } from "./positions.js";
import {
  dueUnpaidClaims,
  findTask,
  lockAndCountUnpaidClaims,
  lockProviderOf,
  wasDeclined,
  blockedWithPoster,
  hasOpenDispute,
  taskViewer,
  requestColumns,
  type CreateTaskInput,
  type SessionUser,
  type TransitionActorInput,
} from "./repository.js";
import { privateView } from "./task-views.js";
import { insertTask, TASK_PLACE_COLUMNS, updateByTransition } from "./transition-statements.js";

export const TOO_MANY_UNPAID_CLAIMS =
  `You already have ${MAX_UNPAID_CLAIMS} claimed tasks waiting for their posters to pay. ` +
  "You can claim another once one of them is paid or its payment window ends.";

// The task table's transitions, posting first (docs/decisions/005-task-lifecycle-table.md,
// docs/decisions/045-transitions-name-their-actions.md): every change of a task, by a person, the
// payment-deadline timer or the payment system, is its row run as a plain loop in one database
// transaction: the row's guards, its conditional UPDATE, then each of its actions in order, by
// name. Only when the UPDATE matched nothing is the task read, to explain the refusal with
// evaluateTransition.

/** What a guard is handed: the transition's task, actor, transaction and instant. */
interface GuardInput {
  taskId: string;
  actor: TransitionActorInput;
  tx: Db;
  /** The row being run: a refusal may speak to its actor. */
  step: TaskProcessStep;
}

/** The table's guards (src/shared/task-lifecycle.ts, TaskGuard); each throws the refusal, rolling the transition back. */
const GUARDS: Record<TaskGuard, (ctx: AppContext, input: GuardInput) => Promise<void>> = {
  // A provider cannot tie up the board by claiming tasks nobody pays for. The lock makes the count
  // and the claim one step for that provider, so two claims at once cannot both pass it.
  unpaid_claim_limit: async (ctx, { actor, tx }) => {
    if (actor.kind === "person" && (await lockAndCountUnpaidClaims(ctx, actor.user.id, tx)) >= MAX_UNPAID_CLAIMS) {
      throw conflict(TOO_MANY_UNPAID_CLAIMS);
    }
  },
  // The one place the declined-provider rule is evaluated, after the claim's UPDATE: that UPDATE
  // holds the task row, so a claim racing the poster's decline waited for it, and this new
  // statement sees the declined row.
  not_declined: async (_ctx, { taskId, actor, tx }) => {
    if (actor.kind === "person" && (await wasDeclined(taskId, actor.user.id, tx))) throw conflict(DECLINED_PROVIDER_MESSAGE);
  },
  // A block between the poster and the provider keeps them from working together (docs/product.md, Moderation).
  not_blocked: async (_ctx, { taskId, actor, tx }) => {
    if (actor.kind === "person" && (await blockedWithPoster(taskId, actor.user.id, tx))) throw forbidden(BLOCKED_MESSAGE);
  },
  // While a reported problem is open the admin's resolution decides where the money goes, so the
  // parties cannot cancel or give the task back beside it (docs/product.md, Disputes). After the
  // UPDATE, which holds the task row that reporting locks too, so a report racing the cancel is seen.
  no_open_dispute: async (_ctx, { taskId, tx, step }) => {
    if (await hasOpenDispute(taskId, tx)) throw conflict(openDisputeRefusal(step.actor));
  },
};

async function runGuards(ctx: AppContext, step: TaskProcessStep, at: "before_update" | "after_update", input: Omit<GuardInput, "step">): Promise<void> {
  for (const { guard, at: when } of step.guards) if (when === at) await GUARDS[guard](ctx, { ...input, step });
}

/** The row's actions, in its order, each by the handler its feature registered (transition-actions.ts). */
async function runActions(ctx: AppContext, step: TaskProcessStep, event: TaskActionEvent): Promise<void> {
  for (const action of step.actions) await ctx.taskActions.run(action, event);
}

export interface TransitionOptions {
  /** An open transaction to run in (the payment system pays inside its own); one is opened otherwise. */
  tx?: Db;
  /** The instant of the transition; the app clock otherwise. */
  now?: Date;
  /** Why an admin moved the task (docs/decisions/059-moderation.md), or why a requested provider declined (decision 065), handed to the row's actions. */
  reason?: string;
  /** The offer the transition names, at the price its actor saw (accept_offer). */
  offer?: NamedOffer;
}

/** Moves the task, or returns null when the table's WHERE did not match. */
export async function transitionTask(
  ctx: AppContext,
  name: TaskTransitionName,
  taskId: string,
  actor: TransitionActorInput,
  options: TransitionOptions = {},
): Promise<TaskRow | null> {
  const now = options.now ?? ctx.now();
  const transition = findTransition(name);
  const run = async (tx: Db): Promise<TaskRow | null> => {
    await runGuards(ctx, transition, "before_update", { taskId, actor, tx });
    // A transition that releases the provider reads who it was under the row lock, so its actions
    // (the notice, the declined record) name the provider the UPDATE really released.
    const releases = (transition.effects as readonly string[]).includes("release_provider");
    const releasedProviderId = releases ? await lockProviderOf(taskId, tx) : null;
    const offer = options.offer ?? null;
    const row = await updateByTransition(ctx, name, taskId, actor, now, tx, offer?.id ?? null);
    if (!row) return null;
    await runGuards(ctx, transition, "after_update", { taskId, actor, tx });
    const actorId = actor.kind === "person" ? actor.user.id : null;
    await runActions(ctx, transition, { transition: name, task: row, actorId, releasedProviderId, offer, tx, now, ...(options.reason === undefined ? {} : { reason: options.reason }) });
    return row;
  };
  return options.tx ? run(options.tx) : ctx.db.transaction(run);
}

/** A person's transition: the moved task, or the precise refusal (404, 403, 409). */
export async function performTransition(
  ctx: AppContext,
  name: TaskTransitionName,
  taskId: string,
  user: SessionUser,
  options: Pick<TransitionOptions, "offer" | "reason"> = {},
): Promise<TaskRow> {
  const now = ctx.now();
  const moved = await transitionTask(ctx, name, taskId, { kind: "person", user }, { now, ...options });
  if (moved) return moved;
  const task = await findTask(ctx, taskId);
  if (!task) throw notFound("Task not found");
  const verdict = evaluateTransition(name, task, await taskViewer(ctx, user), now);
  if (!verdict.ok) throw new HttpError(verdict.status, verdict.message);
  // The row changed between our UPDATE and this read (and changed back): ask to retry.
  throw conflict("This task changed while you were acting on it. Please try again.");
}

/**
 * The payment-deadline timer ("tasks:expire-payments"). Candidates come from the partial index;
 * each one is then moved by the same conditional UPDATE as any transition, so several instances
 * can run this at once and a task paid at the last moment is never expired (the UPDATE re-checks
 * `unpaid`).
 */
export async function expireUnpaidClaims(ctx: AppContext, batch = 200): Promise<number> {
  const now = ctx.now();
  let expired = 0;
  for (const id of await dueUnpaidClaims(ctx, now, batch)) {
    if (await transitionTask(ctx, "expire", id, { kind: "system", actor: "timer" }, { now })) expired += 1;
  }
  return expired;
}

// ---------------------------------------------------------------------------------------------
// Posting: the initial transition (TASK_POSTING), priced and placed here, inserted by
// transition-statements.ts.

/**
 * The date needed follows the shared rule (docs/product.md#dates-and-hours), judged with the app
 * clock: a past date or a time outside 9 AM-6 PM is refused with 400, never dropped.
 */
export function assertSchedule(scheduledDate: string | null | undefined, now: Date): Date | null {
  if (!scheduledDate) return null;
  const problem = scheduleProblem(scheduledDate, now);
  if (problem) throw namedFieldError("scheduledDate", problem);
  return new Date(scheduledDate);
}

/**
 * A task's title and description as they are stored: anyone reads them on the job board and the
 * task page before anything is paid, so contact details are masked as in questions and offers
 * (docs/decisions/070-contact-masking.md). Posting and editing both store through it.
 */
export function maskedTaskText(body: { title: string; description: string }): { title: string; description: string } {
  return { title: maskContactDetails(body.title), description: maskContactDetails(body.description) };
}

/** Stores the task with server-computed fees; a provider who posts becomes "both". */
export async function createTask(ctx: AppContext, user: SessionUser, body: CreateTaskInput): Promise<TaskPrivate> {
  const now = ctx.now();
  const scheduledDate = assertSchedule(body.scheduledDate, now);
  // Client totals are ignored: the fee rule lives in shared/money.ts and is applied here.
  const price = priceTask(dollarsToCents(body.budget), body.urgency);
  const isRoute = Boolean(body.startLocation);
  const stops: StoredStop[] | null =
    isRoute && body.stops && body.stops.length > 0
      ? body.stops.map((s) => ({ address: s.address, city: s.city, state: s.state, notes: s.notes, lat: s.lat ?? null, lon: s.lon ?? null }))
      : null;
  const place = isRoute
    ? {
        location: null,
        city: null,
        state: null,
        lat: null,
        lon: null,
        startLocation: body.startLocation,
        startCity: body.startCity,
        startState: body.startState,
        startLat: body.startLat ?? null,
        startLon: body.startLon ?? null,
        endLocation: body.endLocation,
        endCity: body.endCity,
        endState: body.endState,
        endLat: body.endLat ?? null,
        endLon: body.endLon ?? null,
      }
    : { location: body.location, city: body.city, state: body.state, lat: body.lat ?? null, lon: body.lon ?? null };
  const position = await taskPosition(ctx, isRoute ? { lat: body.startLat, lon: body.startLon, location: body.startLocation, city: body.startCity, state: body.startState } : body);

  // Posting is the task table's initial transition (TASK_POSTING, or TASK_REQUEST_POSTING for one
  // provider first: decision 065): its INSERT, then its actions in order.
  const posting = body.request ? TASK_REQUEST_POSTING : TASK_POSTING;
  const row = await ctx.db.transaction(async (tx) => {
    const request = body.request ? await requestColumns(tx, user, body.request, now) : null;
    const inserted = await insertTask(tx, {
      status: posting.to,
      requestedProviderId: request?.requestedProviderId ?? null,
      requestExpiresAt: request?.requestExpiresAt ?? null,
      requestFallback: request?.requestFallback ?? null,
      userId: user.id,
      ...maskedTaskText(body),
      hiringMode: body.hiringMode,
      category: body.category,
      urgency: body.urgency,
      ...lineItemsOf(price),
      scheduledDate: scheduledDate?.toISOString() ?? null,
      ...Object.fromEntries(TASK_PLACE_COLUMNS.map((c) => [c, null])),
      ...place,
      stops: stops ? JSON.stringify(stops) : null,
      approxLat: approx(position?.lat),
      approxLon: approx(position?.lon),
      now: now.toISOString(),
    });
    await runActions(ctx, posting, { transition: posting.name, task: inserted, actorId: user.id, releasedProviderId: null, offer: null, tx, now });
    return inserted;
  });
  return privateView(ctx, row);
}

/**
 * Where the task is on the board: the first place's picked suggestion, else that place as typed
 * through the geocoder (positions.ts). A geocoder failure posts the task without a position, and
 * the scheduled job places it later (docs/product.md#tasks, "Where a task is").
 */
export async function taskPosition(ctx: AppContext, first: TypedPlace & { lat?: number | null; lon?: number | null }): Promise<GeoPoint | null> {
  if (typeof first.lat === "number" && typeof first.lon === "number") return { lat: first.lat, lon: first.lon };
  try {
    return await locateTypedPlace(ctx.geocoder, first);
  } catch (err) {
    ctx.log.warn({ err }, "geocoding a typed address failed; the task is posted without a position");
    return null;
  }
}
