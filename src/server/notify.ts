import { and, eq, sql } from "drizzle-orm";
import type { NotificationKind } from "../shared/notifications.js";
import type { AppContext } from "./context.js";
import type { Db } from "./db/client.js";
import { emailOptOuts, notifications } from "./db/schema/chat.js";
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

export async function notifyUser(
  ctx: Pick<AppContext, "mailer" | "env"> & Partial<Pick<AppContext, "now">>,
  tx: Db,
  input: NotifyInput,
): Promise<void> {
  await tx.insert(notifications).values({
    // The app clock, so throttles that compare notice times hold under the tests' clock too.
    ...(ctx.now ? { createdAt: ctx.now() } : {}),
    userId: input.userId,
    kind: input.kind,
    title: input.title,
    body: input.body,
    taskId: input.taskId ?? null,
  });
  if (input.email !== false) {
    const [row] = await tx
      .select({ email: users.email, optedOut: emailOptOuts.kind })
      .from(users)
      .leftJoin(emailOptOuts, and(eq(emailOptOuts.userId, users.id), eq(emailOptOuts.kind, input.kind)))
      .where(eq(users.id, input.userId))
      .limit(1);
    if (row && !row.optedOut) {
      const link = input.taskId ? `\n\nOpen the task: ${ctx.env.PUBLIC_URL}/task/${input.taskId}` : "";
      await ctx.mailer.queue(tx, {
        to: row.email,
        subject: input.title,
        text: `${input.body}${link}\n\nYou can turn these e-mails off in your notification settings: ${ctx.env.PUBLIC_URL}/settings/notifications`,
        kind: input.kind,
      });
    }
  }
  // pg_notify inside the transaction is delivered only if it commits.
  await tx.execute(sql`select pg_notify(${NOTIFICATIONS_CHANNEL}, ${JSON.stringify({ userId: input.userId })})`);
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
