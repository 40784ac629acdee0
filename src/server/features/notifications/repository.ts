import { and, desc, eq, inArray, sql } from "drizzle-orm";
import {
  NOTIFICATION_KINDS,
  type Notification,
  type NotificationKind,
  type NotificationList,
  type NotificationPreferences,
} from "../../../shared/notifications.js";
import type { Db } from "../../db/client.js";
import { averageRatingSql, toRating } from "../../db/ratings.js";
import { emailOptOuts, notifications } from "../../db/schema/chat.js";
import { users } from "../../db/schema/users.js";
import { unreadNotificationCount } from "../../notify.js";

export const NOTIFICATION_LIST_LIMIT = 50;

function isKind(value: string): value is NotificationKind {
  return (NOTIFICATION_KINDS as readonly string[]).includes(value);
}

export async function listNotifications(db: Db, userId: string): Promise<NotificationList> {
  const rows = await db
    .select()
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(NOTIFICATION_LIST_LIMIT);
  const list: Notification[] = rows.flatMap((row) =>
    isKind(row.kind)
      ? [{ id: row.id, kind: row.kind, title: row.title, body: row.body, taskId: row.taskId, read: row.read, createdAt: row.createdAt.toISOString() }]
      : [],
  );
  return { notifications: list, unreadCount: await unreadNotificationCount(db, userId) };
}

export async function markNotificationsRead(db: Db, userId: string, ids: string[] | undefined): Promise<void> {
  const conditions = [eq(notifications.userId, userId), eq(notifications.read, false)];
  if (ids) {
    if (ids.length === 0) return;
    conditions.push(inArray(notifications.id, ids));
  }
  await db.update(notifications).set({ read: true }).where(and(...conditions));
}

export async function getPreferences(db: Db, userId: string): Promise<NotificationPreferences> {
  const rows = await db.select({ kind: emailOptOuts.kind }).from(emailOptOuts).where(eq(emailOptOuts.userId, userId));
  const off = new Set(rows.map((r) => r.kind));
  const email = Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, !off.has(kind)])) as Record<NotificationKind, boolean>;
  return { email };
}

export async function updatePreferences(db: Db, userId: string, email: Partial<Record<NotificationKind, boolean>>): Promise<NotificationPreferences> {
  const entries = Object.entries(email) as [NotificationKind, boolean][];
  const off = entries.filter(([, on]) => !on).map(([kind]) => kind);
  const on = entries.filter(([, value]) => value).map(([kind]) => kind);
  await db.transaction(async (tx) => {
    if (off.length > 0) {
      await tx.insert(emailOptOuts).values(off.map((kind) => ({ userId, kind }))).onConflictDoNothing();
    }
    if (on.length > 0) {
      await tx.delete(emailOptOuts).where(and(eq(emailOptOuts.userId, userId), inArray(emailOptOuts.kind, on)));
    }
  });
  return getPreferences(db, userId);
}

export interface ProviderSummary {
  firstName: string;
  lastName: string;
  rating: number | null;
  completedTasks: number;
}

/** What the claim notice says about the provider: revealed-review average and tasks completed as provider. */
export async function providerSummary(db: Db, providerId: string): Promise<ProviderSummary | null> {
  const [row] = await db
    .select({
      firstName: users.firstName,
      lastName: users.lastName,
      rating: averageRatingSql(users.ratingSum, users.ratingCount),
      completedTasks: sql<number>`(select count(*)::int from tasks c where c.provider_id = "users"."id" and c.status = 'completed')`,
    })
    .from(users)
    .where(eq(users.id, providerId))
    .limit(1);
  if (!row) return null;
  return { firstName: row.firstName, lastName: row.lastName, rating: toRating(row.rating), completedTasks: Number(row.completedTasks) };
}
