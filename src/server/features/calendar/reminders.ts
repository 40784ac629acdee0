import { eq, sql } from "drizzle-orm";
import { LATE_AFTER_MINUTES, NO_SHOW_AFTER_MINUTES, REMINDER_LEAD_MINUTES, formatDateTime } from "../../../shared/calendar.js";
import { displayName } from "../../../shared/names.js";
import type { NotificationKind } from "../../../shared/notifications.js";
import type { AppContext } from "../../context.js";
import { providerCalendarOf } from "../../db/calendar.js";
import { queryRows, type Db } from "../../db/client.js";
import { taskReminders } from "../../db/schema/calendar.js";
import { tasks } from "../../db/schema/tasks.js";
import { users } from "../../db/schema/users.js";
import { notifyUser } from "../../notify.js";
import { invitationAttachment, taskEvent, taskLocation, taskTimeZone, taskWhen } from "../../task-time.js";
import type { TaskRow } from "../../transition-actions.js";

// The reminders of a booked task (docs/product.md, "Time and turning up"; decision 074): both people
// the day before and the hour before, and the poster when the provider has not started 30 minutes
// after the start. The scheduler runs this on every instance: each notice is claimed by inserting its
// marker (task, kind, person, start) with ON CONFLICT DO NOTHING in the transaction that makes the
// notice, so a second instance, or the same one after a restart, finds it taken and sends nothing.

type ReminderKind = "day_before" | "hour_before" | "late";

interface Due {
  taskId: string;
  kind: ReminderKind;
  recipientId: string;
  startsAt: Date;
}

/** Notices claimed per run; the next run (every few seconds) takes the rest. */
const BATCH = 200;

/**
 * What is due at `now`: the day-before reminder from 24 hours to 1 hour before the start (not for a
 * task booked less than a day ahead: its booking notice was the reminder), the hour-before one in
 * the last hour, and the late notice from 30 minutes after the start for a day. Only claimed tasks:
 * a started task needs none, a released one is not on anyone's calendar.
 */
async function dueReminders(db: Db, now: Date): Promise<Due[]> {
  const at = now.toISOString();
  const rows = await queryRows<{ task_id: string; kind: ReminderKind; recipient_id: string; starts_at: Date | string }>(
    db,
    sql`with claimed as (
          select t.id, t.user_id, t.provider_id, t.scheduled_date, t.claimed_at from tasks t
          where t.status = 'claimed' and t.scheduled_date is not null and t.provider_id is not null
            and t.scheduled_date > ${at}::timestamptz - interval '1 day'
            and t.scheduled_date <= ${at}::timestamptz + make_interval(mins => ${REMINDER_LEAD_MINUTES.day_before}::int)
        ), due as (
          select c.id, 'day_before' as kind, c.scheduled_date, r.recipient_id from claimed c
            cross join lateral (values (c.user_id), (c.provider_id)) r(recipient_id)
            where c.scheduled_date > ${at}::timestamptz + make_interval(mins => ${REMINDER_LEAD_MINUTES.hour_before}::int)
              and c.claimed_at <= c.scheduled_date - make_interval(mins => ${REMINDER_LEAD_MINUTES.day_before}::int)
          union all
          select c.id, 'hour_before', c.scheduled_date, r.recipient_id from claimed c
            cross join lateral (values (c.user_id), (c.provider_id)) r(recipient_id)
            where c.scheduled_date > ${at}::timestamptz
              and c.scheduled_date <= ${at}::timestamptz + make_interval(mins => ${REMINDER_LEAD_MINUTES.hour_before}::int)
          union all
          select c.id, 'late', c.scheduled_date, c.user_id from claimed c
            where c.scheduled_date + make_interval(mins => ${NO_SHOW_AFTER_MINUTES}::int) <= ${at}::timestamptz
        )
        select d.id as task_id, d.kind, d.recipient_id, d.scheduled_date as starts_at from due d
        where not exists (select 1 from task_reminders r where r.task_id = d.id and r.kind = d.kind and r.recipient_id = d.recipient_id and r.starts_at = d.scheduled_date)
        order by d.scheduled_date
        limit ${BATCH}`,
  );
  return rows.map((r) => ({ taskId: r.task_id, kind: r.kind, recipientId: r.recipient_id, startsAt: new Date(r.starts_at) }));
}

/** Sends what is due; answers how many notices this instance sent. */
export async function sendDueReminders(ctx: AppContext): Promise<number> {
  const now = ctx.now();
  let sent = 0;
  for (const due of await dueReminders(ctx.db, now)) {
    const made = await ctx.db.transaction(async (tx) => {
      const [claimed] = await tx
        .insert(taskReminders)
        .values({ taskId: due.taskId, kind: due.kind, recipientId: due.recipientId, startsAt: due.startsAt, sentAt: now })
        .onConflictDoNothing()
        .returning({ taskId: taskReminders.taskId });
      if (!claimed) return false;
      // Read under the marker: the task as it is now (a start moved meanwhile is a new marker next run).
      const [task] = await tx.select().from(tasks).where(eq(tasks.id, due.taskId));
      if (!task || task.status !== "claimed" || task.scheduledDate?.getTime() !== due.startsAt.getTime()) return false;
      await tell(ctx, tx, task, due, now);
      return true;
    });
    if (made) sent += 1;
  }
  return sent;
}

async function nameOf(tx: Db, userId: string | null): Promise<string> {
  if (!userId) return "Your provider";
  const [row] = await tx.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, userId));
  return row ? displayName(row) : "Your provider";
}

async function tell(ctx: AppContext, tx: Db, task: TaskRow, due: Due, now: Date): Promise<void> {
  const toProvider = due.recipientId === task.providerId;
  const zone = toProvider && task.providerId ? ((await providerCalendarOf(tx, task.providerId))?.timeZone ?? taskTimeZone(task)) : taskTimeZone(task);
  const when = taskWhen(task, zone) ?? "";
  let kind: NotificationKind = "task_reminder";
  let title: string;
  let body: string;
  if (due.kind === "late") {
    kind = "provider_late";
    const provider = await nameOf(tx, task.providerId);
    title = "Your provider has not started yet";
    body =
      `${provider} has not started "${task.title}", booked for ${formatDateTime(due.startsAt, zone, { withZone: true })}. ` +
      `You can wait, propose a new time, or report a no-show on the task page: a no-show is refunded in full. ` +
      `A start more than ${LATE_AFTER_MINUTES} minutes late counts on their profile.`;
  } else {
    const soon = due.kind === "hour_before" ? "in about an hour" : "tomorrow";
    title = due.kind === "hour_before" ? "Your task starts in about an hour" : "Reminder: your task is tomorrow";
    if (toProvider) {
      const paid = task.paymentCapturedAt !== null;
      const where = paid ? `Address: ${taskLocation(task, true) ?? "see the task page"}.` : "The address shows on the task page once the poster pays.";
      body = `"${task.title}" starts ${soon}: ${when}. ${where} Tap "On my way" on the task page when you set off.`;
    } else {
      body = `${await nameOf(tx, task.providerId)} is booked for "${task.title}" ${soon}: ${when}.`;
    }
  }
  const event = due.kind === "late" ? null : taskEvent(task, toProvider ? "provider" : "poster", ctx.env.PUBLIC_URL, now);
  await notifyUser(ctx, tx, { userId: due.recipientId, kind, title, body, taskId: task.id, ...(event ? { attachments: [invitationAttachment(event)] } : {}) });
}
