import { and, eq } from "drizzle-orm";
import { dollarsToCents, lineItemsOf, priceTask } from "../../../shared/money.js";
import { expectedDurationMinutes } from "../../../shared/task-duration.js";
import type { editTaskBodySchema, TaskPrivate } from "../../../shared/tasks.js";
import type { z } from "zod";
import type { AppContext } from "../../context.js";
import { tasks } from "../../db/schema/tasks.js";
import { conflict, fieldError, forbidden, notFound } from "../../http-errors.js";
import { placeTimeZone } from "../../task-time.js";
import { recordTaskEvent, type TaskRow } from "../../transition-actions.js";
import { approx } from "./positions.js";
import { findTask, type SessionUser } from "./repository.js";
import { assertSchedule, maskedTaskText, taskPosition } from "./service.js";
import { privateView } from "./task-views.js";

// The poster edits an open task (docs/decisions/058-withdrawing-and-editing.md). Not a transition:
// the status stays "open". The price is computed by the one fee function, as at posting; a claim
// fixes the price, so once a provider has claimed nothing can change (409). Job alerts were sent
// at posting and are not sent again.

export type EditTaskInput = z.output<typeof editTaskBodySchema>;

export const CLAIMED_TASK_NOT_EDITABLE =
  "A provider has claimed this task, so it can no longer be edited: they claimed it at this price and with these details. Message them in the task's chat, or cancel the task.";
const NOT_OPEN = "Only an open task can be edited.";

function refusal(task: TaskRow) {
  return conflict(task.status === "claimed" || task.status === "in_progress" ? CLAIMED_TASK_NOT_EDITABLE : NOT_OPEN);
}

/** The place columns an edit writes: none for a route task (it keeps its places), or the one place and its position. */
async function editedPlace(ctx: AppContext, current: TaskRow, body: EditTaskInput): Promise<Partial<TaskRow>> {
  if (current.startLocation !== null) return {};
  if (!body.location) throw fieldError("location", "Location is required. Enter the address where the task happens.");
  const picked = typeof body.lat === "number" && typeof body.lon === "number";
  const moved = picked || body.location !== current.location || body.city !== current.city || body.state !== current.state;
  if (!moved) return {};
  // Placed like a posting: the picked suggestion, else the typed place through the geocoder.
  const position = await taskPosition(ctx, body);
  return {
    location: body.location,
    city: body.city,
    state: body.state,
    lat: picked ? (body.lat ?? null) : null,
    lon: picked ? (body.lon ?? null) : null,
    approxLat: approx(position?.lat),
    approxLon: approx(position?.lon),
    timeZone: placeTimeZone({ lat: position?.lat, lon: position?.lon, state: body.state }),
  };
}

/**
 * Changes the task when it is still open and the caller posted it. `onChanged` tells the job
 * board's cache, inside the transaction (before anyone can read the change).
 */
export async function editTask(ctx: AppContext, user: SessionUser, taskId: string, body: EditTaskInput, onChanged: (task: TaskRow) => void): Promise<TaskPrivate> {
  const now = ctx.now();
  const current = await findTask(ctx, taskId);
  if (!current) throw notFound("Task not found");
  if (current.userId !== user.id) throw forbidden("Only the task owner can edit this task");
  if (current.status !== "open") throw refusal(current);
  // A date kept as it was is not judged again: a task posted for this morning stays editable this afternoon.
  const sameDate = body.scheduledDate && current.scheduledDate && Date.parse(body.scheduledDate) === current.scheduledDate.getTime();
  const scheduledDate = sameDate ? current.scheduledDate : assertSchedule(body.scheduledDate, now);
  // A new price: the line items are set again, by the fee rules in force (decision 073).
  const price = priceTask(dollarsToCents(body.budget), current.urgency);
  const place = await editedPlace(ctx, current, body);
  // The length follows the new words or estimate (decision 074); an estimate left out keeps the one given at posting.
  const estimatedMinutes = body.estimatedHours === undefined ? current.estimatedMinutes : body.estimatedHours === null ? null : Math.round(body.estimatedHours * 60);
  const durationMinutes = expectedDurationMinutes({ estimatedMinutes, category: current.category, title: body.title, description: body.description });
  const row = await ctx.db.transaction(async (tx) => {
    // Conditional on "open": a claim that committed since the read above wins, and the edit is refused.
    const [updated] = await tx
      .update(tasks)
      .set({
        ...maskedTaskText(body),
        ...lineItemsOf(price),
        scheduledDate,
        estimatedMinutes,
        durationMinutes,
        ...place,
        editedAt: now,
        updatedAt: now,
      })
      .where(and(eq(tasks.id, taskId), eq(tasks.userId, user.id), eq(tasks.status, "open")))
      .returning();
    if (!updated) return null;
    onChanged(updated);
    // Open boards and the task's page refresh (decision 025); its row says "added" because the card
    // may now belong on pages it was not on (a new budget, a new title for a search).
    await recordTaskEvent(ctx.taskEventActions, "edited", { taskId, actorId: user.id, tx, now });
    return updated;
  });
  if (!row) {
    const latest = await findTask(ctx, taskId);
    throw latest ? refusal(latest) : notFound("Task not found");
  }
  return privateView(ctx, row);
}
