import { and, eq, sql } from "drizzle-orm";
import type { NotificationKind } from "../shared/notifications.js";
import type { AppContext } from "./context.js";
import type { MailAttachment } from "./db/schema/site.js";
import type { Db } from "./db/client.js";
import { SqlStatement } from "./db/prepared.js";
import { notifications } from "./db/schema/chat.js";
import { pushOptIns, pushOutbox, pushSubscriptions } from "./db/schema/push.js";

// One way to tell a user something: an in-app notification row, an e-mail through the outbox
// unless they turned that kind off, a Web Push to each of their devices for kinds they opted in to,
// and a NOTIFY so every instance can push the bell count.
// Call it with the transaction that made the change, so the notice commits with it.

export const NOTIFICATIONS_CHANNEL = "user_notifications";
/** Heard by every instance when pushes were queued: the first to claim them sends them (features/push/delivery.ts). */
export const PUSH_OUTBOX_CHANNEL = "push_outbox";

export interface NotifyInput {
  userId: string;
  kind: NotificationKind;
  title: string;
  body: string;
  taskId?: string | null;
  /** Set false for notices that should never e-mail (the chat feature sends its own, throttled). */
  email?: boolean;
  /** Files the e-mail carries (a task's .ics invitation); the bell and the push do not. */
  attachments?: MailAttachment[];
}

/**
 * The notice, its pushes and the bell's NOTIFY, and its e-mail (unless turned off) through the
 * mailer, in one statement: they were four round trips inside every transition's transaction
 * (docs/benchmarks.md, "Profiles of issue 16").
 */
const noticeCtes = sql`notice as (
    insert into ${notifications} (user_id, kind, title, body, task_id, created_at)
    values (${sql.placeholder("userId")}::uuid, ${sql.placeholder("kind")}, ${sql.placeholder("title")}, ${sql.placeholder("body")},
      ${sql.placeholder("taskId")}::uuid, coalesce(${sql.placeholder("createdAt")}::timestamptz, now()))
  ), push as (
    -- One push per device of the user, for kinds they opted in to (docs/decisions/062-web-push-and-installable-app.md).
    insert into ${pushOutbox} (subscription_id, kind, title, body, url)
    select s.id, ${sql.placeholder("kind")}, ${sql.placeholder("title")}, ${sql.placeholder("body")}, ${sql.placeholder("url")}
    from ${pushSubscriptions} s
    where s.user_id = ${sql.placeholder("userId")}::uuid
      and exists (select 1 from ${pushOptIns} p where p.user_id = s.user_id and p.kind = ${sql.placeholder("kind")})
    returning 1
  )`;
// pg_notify inside the transaction is delivered only if it commits.
const bellSelect = sql`pg_notify(${NOTIFICATIONS_CHANNEL}, ${sql.placeholder("payload")}),
  case when exists (select 1 from push) then pg_notify(${PUSH_OUTBOX_CHANNEL}, '') end as pushed`;

/** The same without a mail: a notice that never e-mails. */
export const quietNoticeStatement = new SqlStatement("notify_user_quiet", sql`with ${noticeCtes} select ${bellSelect}`);

export async function notifyUser(
  ctx: Pick<AppContext, "mailer" | "env"> & Partial<Pick<AppContext, "now">>,
  tx: Db,
  input: NotifyInput,
): Promise<void> {
  const values = {
    userId: input.userId,
    kind: input.kind,
    title: input.title,
    body: input.body,
    taskId: input.taskId ?? null,
    // The app clock, so throttles that compare notice times hold under the tests' clock too.
    createdAt: ctx.now ? ctx.now().toISOString() : null,
    payload: JSON.stringify({ userId: input.userId }),
    // A notice about a task opens the task; any other opens the dashboard.
    url: input.taskId ? `/task/${input.taskId}` : "/dashboard",
  };
  if (input.email === false) {
    await quietNoticeStatement.rows(tx, values);
    return;
  }
  const link = input.taskId ? `\n\nOpen the task: ${ctx.env.PUBLIC_URL}/task/${input.taskId}` : "";
  const text = `${input.body}${link}\n\nYou can turn these e-mails off in your notification settings: ${ctx.env.PUBLIC_URL}/settings/notifications`;
  await ctx.mailer.queueForUser(
    tx,
    { userId: input.userId, subject: input.title, text, kind: input.kind, ...(input.attachments ? { attachments: input.attachments } : {}) },
    { name: "notify_user", ctes: noticeCtes, select: bellSelect, values },
  );
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
