import { eq } from "drizzle-orm";
import { formatDateTime, formatTimeRange, LATE_AFTER_MINUTES, overlapRefusal } from "../../../shared/calendar.js";
import { displayName } from "../../../shared/names.js";
import type { TaskProcessName } from "../../../shared/task-lifecycle.js";
import type { AppContext } from "../../context.js";
import { providerCalendarOf, type BookedRange } from "../../db/calendar.js";
import type { Db } from "../../db/client.js";
import { users } from "../../db/schema/users.js";
import { sendNotice } from "../../declared-notices.js";
import { conflict } from "../../http-errors.js";
import { invitationAttachment, taskEvent, taskLocation, taskTimeZone, taskWhen } from "../../task-time.js";
import type { TaskRow } from "../../transition-actions.js";
import { BookingOverlap, bookTaskTime, freeTaskTime, providerZone, recordNoShow } from "./repository.js";

// The calendar feature's actions, one typed registration each (docs/decisions/083-every-consequence-in-its-row.md):
// the task table's calendar.book, calendar.move, calendar.free and no_show.record (decision 074), and
// the reminders' notices, each sent as its task event's row declares (TASK_EVENT_NOTICES).

/** The zone a reminder is read in: the provider's calendar's for them, else the task's place's (decision 074). */
async function readerZone(tx: Db, task: TaskRow, toProvider: boolean): Promise<string> {
  const calendar = toProvider && task.providerId ? await providerCalendarOf(tx, task.providerId) : null;
  return calendar?.timeZone ?? taskTimeZone(task);
}

async function nameOf(tx: Db, userId: string | null): Promise<string> {
  if (!userId) return "Your provider";
  const [row] = await tx.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, userId));
  return row ? displayName(row) : "Your provider";
}

/** What an overlap is called, for the person whose transition met it (decision 074). */
async function overlapMessage(db: Db, task: TaskRow, actorId: string | null, transition: TaskProcessName, taken: BookedRange | null): Promise<string> {
  const providerId = task.providerId;
  const byProvider = actorId !== null && actorId === providerId;
  const what = transition === "accept_time" ? "time" : transition === "accept_offer" ? "offer" : "claim";
  const when = taken && providerId ? formatTimeRange(taken.startsAt, taken.endsAt, await providerZone(db, providerId, task)) : "that time";
  return overlapRefusal(byProvider ? "provider" : "poster", what, when);
}

/**
 * The task table's calendar actions (the database's no-overlap refusal becomes the transition's 409
 * with its sentence) and the reminders' task events (src/shared/task-events.ts).
 */
export function registerCalendarActions(ctx: AppContext): void {
  const book = async ({ task, tx, actorId, transition }: { task: TaskRow; tx: Db; actorId: string | null; transition: TaskProcessName }) => {
    try {
      await bookTaskTime(tx, task);
    } catch (err) {
      if (!(err instanceof BookingOverlap)) throw err;
      throw conflict(await overlapMessage(tx, task, actorId, transition, err.taken));
    }
  };
  ctx.taskActions.handle("calendar.book", book);
  // An accepted new time moves the booked range in one statement, under the same constraint.
  ctx.taskActions.handle("calendar.move", book);
  ctx.taskActions.handle("calendar.free", ({ task, tx }) => freeTaskTime(tx, task.id));
  ctx.taskActions.handle("no_show.record", ({ task, tx, now }) => recordNoShow(tx, task, now));
  // The reminders (reminders.ts claims each one): the day before and the hour before, to each side.
  ctx.taskEventActions.handle("notify.task_reminder", async (event) => {
    const { reminder, tx, now } = event;
    if (!reminder || reminder.kind === "late") throw new Error(`${event.event} ran without its day-before or hour-before reminder`);
    const { task, recipientId } = reminder;
    const toProvider = recipientId === task.providerId;
    const when = taskWhen(task, await readerZone(tx, task, toProvider)) ?? "";
    const soon = reminder.kind === "hour_before" ? "in about an hour" : "tomorrow";
    let body: string;
    if (toProvider) {
      const paid = task.paymentCapturedAt !== null;
      const where = paid ? `Address: ${taskLocation(task, true) ?? "see the task page"}.` : "The address shows on the task page once the poster pays.";
      body = `"${task.title}" starts ${soon}: ${when}. ${where} Tap "On my way" on the task page when you set off.`;
    } else {
      body = `${await nameOf(tx, task.providerId)} is booked for "${task.title}" ${soon}: ${when}.`;
    }
    const invitation = taskEvent(task, toProvider ? "provider" : "poster", ctx.env.PUBLIC_URL, now);
    await sendNotice(ctx, tx, "notify.task_reminder", toProvider ? "provider" : "poster", {
      userId: recipientId,
      title: reminder.kind === "hour_before" ? "Your task starts in about an hour" : "Reminder: your task is tomorrow",
      body,
      taskId: task.id,
      ...(invitation ? { attachments: [invitationAttachment(invitation)] } : {}),
    });
  });
  // The poster, when the provider has not started 30 minutes after the start.
  ctx.taskEventActions.handle("notify.poster_provider_late", async (event) => {
    const { reminder, tx } = event;
    if (reminder?.kind !== "late") throw new Error(`${event.event} ran without its late reminder`);
    const { task } = reminder;
    const zone = await readerZone(tx, task, false);
    await sendNotice(ctx, tx, "notify.poster_provider_late", "poster", {
      userId: reminder.recipientId,
      title: "Your provider has not started yet",
      body:
        `${await nameOf(tx, task.providerId)} has not started "${task.title}", booked for ${formatDateTime(reminder.startsAt, zone, { withZone: true })}. ` +
        `You can wait, propose a new time, or report a no-show on the task page: a no-show is refunded in full. ` +
        `A start more than ${LATE_AFTER_MINUTES} minutes late counts on their profile.`,
      taskId: task.id,
    });
  });
}
