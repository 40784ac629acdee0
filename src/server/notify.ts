import { and, eq, sql } from "drizzle-orm";
import type { NotificationKind } from "../shared/notifications.js";
import type { AppContext } from "./context.js";
import type { Db } from "./db/client.js";
import { SqlStatement } from "./db/prepared.js";
import { emailOptOuts, notifications } from "./db/schema/chat.js";
import { emailOutbox } from "./db/schema/site.js";
import { users } from "./db/schema/users.js";

// One way to tell a user something: an in-app notification row, an e-mail through the outbox
// unless they turned that kind off, and a NOTIFY so every instance can push the bell count.
// Call it with the transaction that made the change, so the notice commits with it.

export const NOTIFICATIONS_CHANNEL = "user_notifications";

export interface NotifyInput {
  userId: string;
  kind: NotificationKind;
  title: string;
  body: string;
  taskId?: string | null;
  /** Set false for notices that should never e-mail (the chat feature sends its own, throttled). */
  email?: boolean;
}

/**
 * The notice, its e-mail (unless turned off) and the bell's NOTIFY in one statement: they were four
 * round trips inside every transition's transaction (docs/benchmarks.md, "Profiles of issue 16").
 * `mailedTo` is the address written to the outbox, null when no mail was.
 */
export const notifyStatement = new SqlStatement<{ mailedTo: string | null }>(
  "notify_user",
  sql`with notice as (
      insert into ${notifications} (user_id, kind, title, body, task_id, created_at)
      values (${sql.placeholder("userId")}::uuid, ${sql.placeholder("kind")}, ${sql.placeholder("title")}, ${sql.placeholder("body")},
        ${sql.placeholder("taskId")}::uuid, coalesce(${sql.placeholder("createdAt")}::timestamptz, now()))
    ), mail as (
      insert into ${emailOutbox} ("to", subject, text, kind, status)
      select u.email, ${sql.placeholder("title")}, ${sql.placeholder("text")}, ${sql.placeholder("kind")}, ${sql.placeholder("status")}
      from ${users} u
      where ${sql.placeholder("email")}::boolean and u.id = ${sql.placeholder("userId")}::uuid
        and not exists (select 1 from ${emailOptOuts} o where o.user_id = u.id and o.kind = ${sql.placeholder("kind")})
      returning "to"
    )
    -- pg_notify inside the transaction is delivered only if it commits.
    select pg_notify(${NOTIFICATIONS_CHANNEL}, ${sql.placeholder("payload")}), (select "to" from mail) as mailed_to`,
);

export async function notifyUser(
  ctx: Pick<AppContext, "mailer" | "env"> & Partial<Pick<AppContext, "now">>,
  tx: Db,
  input: NotifyInput,
): Promise<void> {
  const link = input.taskId ? `\n\nOpen the task: ${ctx.env.PUBLIC_URL}/task/${input.taskId}` : "";
  const text = `${input.body}${link}\n\nYou can turn these e-mails off in your notification settings: ${ctx.env.PUBLIC_URL}/settings/notifications`;
  const [row] = await notifyStatement.rows(tx, {
    userId: input.userId,
    kind: input.kind,
    title: input.title,
    body: input.body,
    taskId: input.taskId ?? null,
    // The app clock, so throttles that compare notice times hold under the tests' clock too.
    createdAt: ctx.now ? ctx.now().toISOString() : null,
    email: input.email !== false,
    text,
    status: ctx.mailer.outboxStatus,
    payload: JSON.stringify({ userId: input.userId }),
  });
  if (row?.mailedTo) ctx.mailer.queued({ to: row.mailedTo, subject: input.title, text, kind: input.kind });
}

/** Unread in-app notifications of a user: the number on the bell. */
export async function unreadNotificationCount(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.read, false)));
  return Number(row?.n ?? 0);
}

/** Tells every instance that a user's bell changed (after a read, outside any transaction). */
export async function announceNotifications(ctx: Pick<AppContext, "database">, userId: string): Promise<void> {
  await ctx.database.notify(NOTIFICATIONS_CHANNEL, JSON.stringify({ userId }));
}
