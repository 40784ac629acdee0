import { MAX_UNPAID_CLAIMS } from "../../../shared/constants.js";
import { DECLINED_PROVIDER_MESSAGE, evaluateTransition, findTransition, type TaskTransitionName } from "../../../shared/task-lifecycle.js";
import type { AppContext } from "../../context.js";
import type { Db } from "../../db/client.js";
import { HttpError, conflict, notFound } from "../../http-errors.js";
import type { TaskRow } from "../../task-events.js";
import {
  dueUnpaidClaims,
  findTask,
  lockAndCountUnpaidClaims,
  lockProviderOf,
  recordDeclinedProvider,
  wasDeclined,
  taskViewer,
  updateByTransition,
  type SessionUser,
  type TransitionActorInput,
} from "./repository.js";

export const TOO_MANY_UNPAID_CLAIMS =
  `You already have ${MAX_UNPAID_CLAIMS} claimed tasks waiting for their posters to pay. ` +
  "You can claim another once one of them is paid or its payment window ends.";


// The one transition function (docs/decisions/005-task-lifecycle-table.md): every change of a
// task, by a person, the payment-deadline timer or the payment system, is the table row's
// conditional UPDATE plus its task events, in one database transaction. Only when the UPDATE
// matched nothing is the task read, to explain the refusal with evaluateTransition.

export interface TransitionOptions {
  /** An open transaction to run in (the payment system pays inside its own); one is opened otherwise. */
  tx?: Db;
  /** The instant of the transition; the app clock otherwise. */
  now?: Date;
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
  const run = async (tx: Db): Promise<TaskRow | null> => {
    // A provider cannot tie up the board by claiming tasks nobody pays for. The lock makes the count
    // and the claim one step for that provider, so two claims at once cannot both pass it.
    if (name === "claim" && actor.kind === "person" && (await lockAndCountUnpaidClaims(ctx, actor.user.id, tx)) >= MAX_UNPAID_CLAIMS) {
      throw conflict(TOO_MANY_UNPAID_CLAIMS);
    }
    // A transition that releases the provider reads who it was under the row lock, so its notice
    // and the declined record name the provider the UPDATE really released.
    const releases = (findTransition(name).effects as readonly string[]).includes("release_provider");
    const releasedProviderId = releases ? await lockProviderOf(taskId, tx) : null;
    const row = await updateByTransition(ctx, name, taskId, actor, now, tx);
    if (!row) return null;
    // The one place the declined-provider rule is evaluated, after the claim's UPDATE: that UPDATE
    // holds the task row, so a claim racing the poster's decline waited for it, and this new
    // statement sees the declined row. Throwing rolls the claim back.
    if (name === "claim" && actor.kind === "person" && (await wasDeclined(taskId, actor.user.id, tx))) {
      throw conflict(DECLINED_PROVIDER_MESSAGE);
    }
    if (name === "decline" && releasedProviderId !== null) await recordDeclinedProvider(taskId, releasedProviderId, now, tx);
    await ctx.taskEvents.emit({
      transition: name,
      task: row,
      actorId: actor.kind === "person" ? actor.user.id : null,
      releasedProviderId,
      tx,
      now,
    });
    return row;
  };
  return options.tx ? run(options.tx) : ctx.db.transaction(run);
}

/** A person's transition: the moved task, or the precise refusal (404, 403, 409). */
export async function performTransition(ctx: AppContext, name: TaskTransitionName, taskId: string, user: SessionUser): Promise<TaskRow> {
  const now = ctx.now();
  const moved = await transitionTask(ctx, name, taskId, { kind: "person", user }, { now });
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
