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
import { pushOptIns } from "../../db/schema/push.js";
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
  const [emailRows, pushRows] = await Promise.all([
    db.select({ kind: emailOptOuts.kind }).from(emailOptOuts).where(eq(emailOptOuts.userId, userId)),
    db.select({ kind: pushOptIns.kind }).from(pushOptIns).where(eq(pushOptIns.userId, userId)),
  ]);
  const off = new Set(emailRows.map((r) => r.kind));
  const pushed = new Set(pushRows.map((r) => r.kind));
  const email = Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, !off.has(kind)])) as Record<NotificationKind, boolean>;
  const push = Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, pushed.has(kind)])) as Record<NotificationKind, boolean>;
  return { email, push };
}

type KindSwitches = Partial<Record<NotificationKind, boolean>>;

const switchedOn = (switches: KindSwitches, on: boolean) =>
  (Object.entries(switches) as [NotificationKind, boolean][]).filter(([, value]) => value === on).map(([kind]) => kind);

/** E-mail is kept per kind as opt-outs, push as opt-ins (docs/product.md#chat-and-notifications). */
export async function updatePreferences(db: Db, userId: string, changes: { email?: KindSwitches; push?: KindSwitches }): Promise<NotificationPreferences> {
  const email = changes.email ?? {};
  const push = changes.push ?? {};
  await db.transaction(async (tx) => {
    const emailOff = switchedOn(email, false);
    const emailOn = switchedOn(email, true);
    if (emailOff.length > 0) await tx.insert(emailOptOuts).values(emailOff.map((kind) => ({ userId, kind }))).onConflictDoNothing();
    if (emailOn.length > 0) await tx.delete(emailOptOuts).where(and(eq(emailOptOuts.userId, userId), inArray(emailOptOuts.kind, emailOn)));
    const pushOn = switchedOn(push, true);
    const pushOff = switchedOn(push, false);
    if (pushOn.length > 0) await tx.insert(pushOptIns).values(pushOn.map((kind) => ({ userId, kind }))).onConflictDoNothing();
    if (pushOff.length > 0) await tx.delete(pushOptIns).where(and(eq(pushOptIns.userId, userId), inArray(pushOptIns.kind, pushOff)));
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
