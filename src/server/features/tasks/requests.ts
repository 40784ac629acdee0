import { and, eq, isNotNull, lte } from "drizzle-orm";
import type { TaskStatus } from "../../../shared/constants.js";
import { findTransition } from "../../../shared/task-lifecycle.js";
import type { AppContext } from "../../context.js";
import { tasks } from "../../db/schema/tasks.js";
import { notFound } from "../../http-errors.js";
import type { TaskRow } from "../../transition-actions.js";
import type { SessionUser } from "./repository.js";
import { performTransition, transitionTask } from "./service.js";

// Requesting a provider (docs/product.md, Requesting a provider; docs/decisions/065-requesting-a-provider.md):
// the provider's answer and the lapse of an unanswered request. Every change
// is a row of the task table run by transitionTask; the row the answer or the lapse takes is picked
// by the poster's choice, and its UPDATE re-checks that choice and the window.

/** The poster's choice for a decline or a lapse, read to pick the row; the row's UPDATE checks it again. */
async function fallbackOf(ctx: AppContext, taskId: string): Promise<"open" | "cancel"> {
  const [row] = await ctx.db.select({ fallback: tasks.requestFallback }).from(tasks).where(eq(tasks.id, taskId)).limit(1);
  if (!row) throw notFound("Task not found");
  return row.fallback ?? "open";
}

/** The requested provider declines, with an optional reason the poster reads. */
export async function declineRequest(ctx: AppContext, taskId: string, user: SessionUser, reason: string | undefined): Promise<TaskRow> {
  return performTransition(ctx, declineRow(await fallbackOf(ctx, taskId)), taskId, user, reason === undefined ? {} : { reason });
}

/** The row a decline takes, by the poster's choice for it; the row's UPDATE checks that choice again. */
export function declineRow(fallback: "open" | "cancel" | null): "decline_request" | "decline_request_cancel" {
  return fallback === "cancel" ? "decline_request_cancel" : "decline_request";
}

/**
 * The poster's Cancel (PATCH /api/tasks/{id}/cancel): a request still waiting leaves by its own row,
 * cancel_request, whose action tells the requested provider; any other task by cancel. The row is
 * picked from the status read here and its UPDATE checks that status again, so a cancel that loses
 * to the provider's accept is refused with 409 rather than cancelling the claim unannounced.
 */
export async function cancelAsPoster(ctx: AppContext, taskId: string, user: SessionUser): Promise<TaskRow> {
  const [row] = await ctx.db.select({ status: tasks.status }).from(tasks).where(eq(tasks.id, taskId)).limit(1);
  if (!row) throw notFound("Task not found");
  return performTransition(ctx, posterCancelRow(row.status), taskId, user);
}

/** The row a poster's cancel takes from `status`: a request still waiting has its own. */
export function posterCancelRow(status: TaskStatus): "cancel_request" | "cancel" {
  return (findTransition("cancel_request").from as readonly TaskStatus[]).includes(status) ? "cancel_request" : "cancel";
}

/** Requests past their window, oldest first (the partial index serves it). */
async function dueRequests(ctx: AppContext, now: Date, batch: number) {
  return ctx.db
    .select({ id: tasks.id, fallback: tasks.requestFallback })
    .from(tasks)
    .where(and(eq(tasks.status, "requested"), isNotNull(tasks.requestExpiresAt), lte(tasks.requestExpiresAt, now)))
    .orderBy(tasks.requestExpiresAt)
    .limit(batch);
}

/**
 * The request-lapse timer ("tasks:lapse-requests"): each due request moves by its row's conditional
 * UPDATE, so an accept or a cancel that committed first wins and the lapse finds nothing to move.
 */
export async function lapseDueRequests(ctx: AppContext, batch = 200): Promise<number> {
  const now = ctx.now();
  let lapsed = 0;
  for (const { id, fallback } of await dueRequests(ctx, now, batch)) {
    const name = fallback === "cancel" ? "lapse_request_cancel" : "lapse_request";
    if (await transitionTask(ctx, name, id, { kind: "system", actor: "timer" }, { now })) lapsed += 1;
  }
  return lapsed;
}
