import { formatTimeRange, overlapRefusal, PROPOSAL_IN_PAST, SLOT_TAKEN_MESSAGE } from "../../../shared/calendar.js";
import { expectedDurationMinutes } from "../../../shared/task-duration.js";
import { MAX_UNPAID_CLAIMS } from "../../../shared/constants.js";
import type { GeoPoint } from "../../../shared/felix-pricing.js";
import { dollarsToCents, lineItemsOf, priceTask } from "../../../shared/money.js";
import {
  DECLINED_PROVIDER_MESSAGE,
  evaluateTransition,
  openDisputeRefusal,
  findTransition,
  TASK_BOOKING,
  TASK_EFFECTS,
  TASK_POSTING,
  TASK_REQUEST_POSTING,
  type EffectField,
  type EffectValue,
  type TaskGuard,
  type TaskProcessStep,
  type TaskTransitionName,
  type TransitionInput,
} from "../../../shared/task-lifecycle.js";
import { BLOCKED_MESSAGE } from "../../../shared/moderation.js";
import { scheduleProblem, type TaskPrivate } from "../../../shared/tasks.js";
import { maskContactDetails } from "../../contact-masking.js";
import type { AppContext } from "../../context.js";
import { freeSlots, overlappingBooking, providerCalendarOf } from "../../db/calendar.js";
import type { Db } from "../../db/client.js";
import type { StoredStop } from "../../db/schema/tasks.js";
import { HttpError, conflict, forbidden, namedFieldError, notFound } from "../../http-errors.js";
import { placeTimeZone, taskTimeZone } from "../../task-time.js";
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
import { insertTask, paymentWindowEnd, TASK_PLACE_COLUMNS, updateByTransition } from "./transition-statements.js";

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
  /** Null for a posting row (book): its guards run before the INSERT. */
  taskId: string | null;
  actor: TransitionActorInput;
  tx: Db;
  /** The row being run: a refusal may speak to its actor. */
  step: TaskProcessStep;
  /** The provider the row assigns: the claimer, the requested provider who accepts, the provider a booking names. */
  providerId: string | null;
  now: Date;
  input: TransitionInput;
  /** A booking's chosen time and the task's length (book). */
  booking?: { startsAt: Date; durationMinutes: number };
}

/** A provider's unpaid claims stop the poster's booking too; the poster reads it in their words. */
const PROVIDER_TOO_BUSY =
  `This provider already has ${MAX_UNPAID_CLAIMS} claimed tasks waiting for their posters to pay, so they cannot be booked right now. ` +
  "Send the time as a request instead, or try again later.";

/** The table's guards (src/shared/task-lifecycle.ts, TaskGuard); each throws the refusal, rolling the transition back. */
const GUARDS: Record<TaskGuard, (ctx: AppContext, input: GuardInput) => Promise<void>> = {
  // A provider cannot tie up the board by claiming tasks nobody pays for. The lock makes the count
  // and the claim one step for that provider, so two claims at once cannot both pass it.
  unpaid_claim_limit: async (ctx, { actor, tx, providerId }) => {
    if (actor.kind === "person" && providerId !== null && (await lockAndCountUnpaidClaims(ctx, providerId, tx)) >= MAX_UNPAID_CLAIMS) {
      throw conflict(providerId === actor.user.id ? TOO_MANY_UNPAID_CLAIMS : PROVIDER_TOO_BUSY);
    }
  },
  // The one place the declined-provider rule is evaluated, after the claim's UPDATE: that UPDATE
  // holds the task row, so a claim racing the poster's decline waited for it, and this new
  // statement sees the declined row.
  not_declined: async (_ctx, { taskId, actor, tx }) => {
    if (actor.kind === "person" && taskId !== null && (await wasDeclined(taskId, actor.user.id, tx))) throw conflict(DECLINED_PROVIDER_MESSAGE);
  },
  // A block between the poster and the provider keeps them from working together (docs/product.md, Moderation).
  not_blocked: async (_ctx, { taskId, actor, tx }) => {
    if (actor.kind === "person" && taskId !== null && (await blockedWithPoster(taskId, actor.user.id, tx))) throw forbidden(BLOCKED_MESSAGE);
  },
  // While a reported problem is open the admin's resolution decides where the money goes, so the
  // parties cannot cancel or give the task back beside it (docs/product.md, Disputes). After the
  // UPDATE, which holds the task row that reporting locks too, so a report racing the cancel is seen.
  no_open_dispute: async (_ctx, { taskId, tx, step }) => {
    if (taskId !== null && (await hasOpenDispute(taskId, tx))) throw conflict(openDisputeRefusal(step.actor));
  },
  // A booking is the provider's free slot, taken at once (decision 074): the same SQL as the slots
  // the poster chose from, read under the provider's claim lock that unpaid_claim_limit took, so two
  // bookings of one day cannot both pass the daily most. An overlap is refused by the database too.
  instant_booking: async (_ctx, { tx, providerId, booking, now }) => {
    if (providerId === null || !booking) throw new Error("instant_booking needs the provider and the chosen time");
    const calendar = await providerCalendarOf(tx, providerId);
    if (!calendar?.instantBooking) throw conflict("This provider no longer takes instant bookings. Choose the time again to send it as a request.");
    const slots = await freeSlots(tx, providerId, booking.durationMinutes, now);
    if (!slots.some((slot) => slot.startsAt.getTime() === booking.startsAt.getTime())) throw conflict(SLOT_TAKEN_MESSAGE);
  },
  // A new time that has passed, or that the provider's other booked tasks take, is refused before
  // it is proposed; accepting it is what moves the booking, under the database's no-overlap rule.
  proposed_time_free: async (ctx, { taskId, tx, input, actor, now }) => {
    if (taskId === null || input.proposedStartAt === undefined) throw new Error("proposed_time_free needs the task and the new time");
    const startsAt = new Date(input.proposedStartAt);
    if (startsAt.getTime() <= now.getTime()) throw namedFieldError("startsAt", PROPOSAL_IN_PAST);
    const task = await findTask(ctx, taskId, tx);
    if (!task?.providerId) return; // the UPDATE refuses it: no provider, no claimed task
    const taken = await overlappingBooking(tx, task.providerId, startsAt, task.durationMinutes, task.id);
    if (!taken) return;
    const byProvider = actor.kind === "person" && actor.user.id === task.providerId;
    const zone = (await providerCalendarOf(tx, task.providerId))?.timeZone ?? taskTimeZone(task);
    throw conflict(overlapRefusal(byProvider ? "provider" : "poster", "time", formatTimeRange(taken.startsAt, taken.endsAt, zone)));
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
  /** The new start it proposes, the arrival it estimates (decision 074). */
  input?: TransitionInput;
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
  const input = options.input ?? {};
  // The provider a claim or an accepted request assigns is the actor (guards count their claims).
  const assigns = (transition.effects as readonly string[]).includes("assign_provider");
  const guardInput = { taskId, actor, now, input, providerId: assigns && actor.kind === "person" ? actor.user.id : null };
  const run = async (tx: Db): Promise<TaskRow | null> => {
    await runGuards(ctx, transition, "before_update", { ...guardInput, tx });
    // A transition that releases the provider reads who it was under the row lock, so its actions
    // (the notice, the declined record) name the provider the UPDATE really released.
    const releases = (transition.effects as readonly string[]).includes("release_provider");
    const releasedProviderId = releases ? await lockProviderOf(taskId, tx) : null;
    const offer = options.offer ?? null;
    const row = await updateByTransition(ctx, name, taskId, actor, now, tx, offer?.id ?? null, input);
    if (!row) return null;
    await runGuards(ctx, transition, "after_update", { ...guardInput, tx });
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
  options: Pick<TransitionOptions, "offer" | "reason" | "input"> = {},
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
  const { request } = body;
  // A request that carries a chosen time is dated by it (the body's schema refuses two different dates).
  const scheduledDate = assertSchedule(request?.startsAt ?? body.scheduledDate, now);
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
  // Its time on a provider's calendar (decision 074): the poster's estimate, else Felix's hours,
  // fixed now; and the zone of its place, which its time is told in.
  const estimatedMinutes = body.estimatedHours == null ? null : Math.round(body.estimatedHours * 60);
  const durationMinutes = expectedDurationMinutes({ estimatedMinutes, category: body.category, title: body.title, description: body.description });
  const timeZone = placeTimeZone({ lat: position?.lat, lon: position?.lon, state: isRoute ? body.startState : body.state });

  const row = await ctx.db.transaction(async (tx) => {
    const requested = request ? await requestColumns(tx, user, request, now) : null;
    // Posting is the task table's initial transition: TASK_POSTING, TASK_REQUEST_POSTING for one
    // provider first (decision 065), or TASK_BOOKING when the request books their free time at once
    // (decision 074); its guards, its INSERT, then its actions in order.
    // Only a chosen slot is checked against the calendar: a request with the date needed alone is sent as before it.
    const chosen = request?.startsAt !== undefined && scheduledDate !== null;
    const posting = requested && chosen ? await datedRequestStep(tx, requested.requestedProviderId, scheduledDate, durationMinutes, now) : requested ? TASK_REQUEST_POSTING : TASK_POSTING;
    if (posting === TASK_BOOKING && requested && scheduledDate) {
      const guards = { taskId: null, actor: { kind: "person", user } as const, tx, now, input: {}, providerId: requested.requestedProviderId, booking: { startsAt: scheduledDate, durationMinutes } };
      await runGuards(ctx, posting, "before_update", guards);
    }
    const booked = posting === TASK_BOOKING;
    const inserted = await insertTask(tx, {
      status: posting.to,
      requestedProviderId: requested?.requestedProviderId ?? null,
      // A booking is no longer waiting for an answer.
      requestExpiresAt: booked ? null : (requested?.requestExpiresAt ?? null),
      requestFallback: booked ? null : (requested?.requestFallback ?? null),
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
      timeZone,
      durationMinutes,
      estimatedMinutes,
      ...postingEffects(ctx, posting, requested?.requestedProviderId ?? null, now),
      now: now.toISOString(),
    });
    await runActions(ctx, posting, { transition: posting.name, task: inserted, actorId: user.id, releasedProviderId: null, offer: null, tx, now });
    return inserted;
  });
  return privateView(ctx, row);
}

/**
 * The row a request with a chosen time takes: book when the provider takes instant bookings (its
 * guard checks the time is still a free slot), else post_request, carrying the time, once it is
 * one of their free slots (decision 074).
 */
async function datedRequestStep(tx: Db, providerId: string, startsAt: Date, durationMinutes: number, now: Date): Promise<typeof TASK_BOOKING | typeof TASK_REQUEST_POSTING> {
  if ((await providerCalendarOf(tx, providerId))?.instantBooking) return TASK_BOOKING;
  const slots = await freeSlots(tx, providerId, durationMinutes, now);
  if (!slots.some((slot) => slot.startsAt.getTime() === startsAt.getTime())) throw conflict(SLOT_TAKEN_MESSAGE);
  return TASK_REQUEST_POSTING;
}

/** The INSERT's values of a posting row's effects (book: the requested provider and the payment window), as the UPDATEs' are made from TASK_EFFECTS. */
function postingEffects(ctx: AppContext, step: TaskProcessStep, requestedProviderId: string | null, now: Date): Record<"providerId" | "paymentDeadline" | "claimedAt", string | null> {
  const values: Record<"providerId" | "paymentDeadline" | "claimedAt", string | null> = { providerId: null, paymentDeadline: null, claimedAt: step.to === "claimed" ? now.toISOString() : null };
  for (const effect of step.effects) {
    for (const [field, value] of Object.entries(TASK_EFFECTS[effect]) as [EffectField, EffectValue][]) {
      if (field === "providerId" && value === "requested_provider") values.providerId = requestedProviderId;
      else if (field === "paymentDeadline" && value === "window_end") values.paymentDeadline = paymentWindowEnd(ctx, now).toISOString();
      else throw new Error(`A posting row cannot have the effect ${effect}`);
    }
  }
  return values;
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
