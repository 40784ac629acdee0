import { eq, sql } from "drizzle-orm";
import { NO_SHOW_AFTER_MINUTES, REMINDER_LEAD_MINUTES } from "../../../shared/calendar.js";
import type { AppContext } from "../../context.js";
import { queryRows, type Db } from "../../db/client.js";
import { taskReminders } from "../../db/schema/calendar.js";
import { tasks } from "../../db/schema/tasks.js";
import { recordTaskEvent } from "../../transition-actions.js";

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
      // The notice is its task event's (src/shared/task-events.ts; the calendar's actions.ts words it).
      await recordTaskEvent(ctx.taskEventActions, due.kind === "late" ? "provider_late" : "reminder_due", {
        taskId: task.id,
        actorId: null,
        tx,
        now,
        reminder: { task, kind: due.kind, recipientId: due.recipientId, startsAt: due.startsAt },
      });
      return true;
    });
    if (made) sent += 1;
  }
  return sent;
}
