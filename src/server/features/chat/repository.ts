import { and, asc, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import { CHAT_RATE_LIMIT_PER_MINUTE, type Message } from "../../../shared/chat.js";
import { blockedBetweenSql } from "../../db/blocks.js";
import type { Db } from "../../db/client.js";
import { SqlStatement } from "../../db/prepared.js";
import { messages } from "../../db/schema/chat.js";
import { tasks } from "../../db/schema/tasks.js";
import { forbidden, notFound } from "../../http-errors.js";
import { hitPlaceholders, hitSql } from "../../plugins/rate-limit.js";
import type { Viewer } from "../../policy.js";
import { contentPlaceholders, storedContentSql } from "./masked-content.js";

export const CHAT_CHANNEL = "chat_messages";

/**
 * NOTIFY payloads are capped at 8000 bytes. A message whose content fits in this many bytes
 * travels whole (JSON escaping can at most double plain text, plus the envelope); a longer one
 * travels as {id, taskId} and each instance reads the row.
 */
export const INLINE_CONTENT_BYTES = 3500;

export const NO_PROVIDER_MESSAGE = "Chat will be available once a provider claims this task";
export const NO_PERMISSION_MESSAGE = "You don't have permission to view this chat";
export const ADMIN_READ_ONLY_MESSAGE = "Admins can read this chat but not write in it";
/** A cancelled task's chat stays readable and takes no new messages (docs/product.md, Chat and notifications). */
export const CHAT_CLOSED_MESSAGE = "This task was cancelled; the chat is closed.";

export type ChatAccess = "participant" | "admin";

/**
 * Who may see a task's chat: its poster and its assigned provider, once there is one; admins (on two
 * factors: src/server/policy.ts) read it for moderation but cannot write
 * (docs/decisions/010-chat-fanout-and-notifications.md, 068).
 */
export async function chatAccess(db: Db, taskId: string, user: Viewer): Promise<ChatAccess> {
  const [task] = await db
    .select({ userId: tasks.userId, providerId: tasks.providerId })
    .from(tasks)
    .where(eq(tasks.id, taskId))
    .limit(1);
  if (!task) throw notFound("Task not found");
  if (user.admin) return "admin";
  assertParticipant(task, user.id);
  return "participant";
}

/** The poster and the assigned provider, once there is one, may use the chat; anyone else is refused saying why. */
function assertParticipant(task: { userId: string; providerId: string | null }, userId: string): void {
  if (!task.providerId) {
    if (task.userId === userId) throw forbidden(NO_PROVIDER_MESSAGE);
    throw forbidden(NO_PERMISSION_MESSAGE);
  }
  if (task.userId !== userId && task.providerId !== userId) throw forbidden(NO_PERMISSION_MESSAGE);
}

type MessageRow = typeof messages.$inferSelect;

export function toMessage(row: MessageRow): Message {
  return {
    id: row.id,
    taskId: row.taskId,
    senderId: row.senderId,
    recipientId: row.recipientId,
    content: row.content,
    read: row.read,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * The chat as the viewer may see it: a participant sees the messages they sent or received (after a
 * re-claim the new provider does not read the previous provider's conversation); admins see all.
 */
export async function listMessages(db: Db, taskId: string, viewer: { id: string; access: ChatAccess }): Promise<Message[]> {
  const mine = viewer.access === "admin" ? undefined : or(eq(messages.senderId, viewer.id), eq(messages.recipientId, viewer.id));
  const rows = await db
    .select()
    .from(messages)
    .where(and(eq(messages.taskId, taskId), mine))
    .orderBy(asc(messages.createdAt), asc(messages.id));
  return rows.map(toMessage);
}

/**
 * GET /api/messages/{taskId} in one statement, written once: the task's parties (who may read) and
 * the messages the viewer sent or received, instead of one round trip for each (docs/benchmarks.md,
 * "Profiles of issue 16"). Admins read through chatAccess and listMessages.
 */
export const participantChatStatement = new SqlStatement<{
  userId: string;
  providerId: string | null;
  id: string | null;
  senderId: string;
  recipientId: string;
  content: string;
  read: boolean;
  createdAt: Date;
}>(
  "chat_for_participant",
  sql`select t.user_id, t.provider_id, m.id, m.sender_id, m.recipient_id, m.content, m.read, m.created_at
      from ${tasks} t
      left join ${messages} m on m.task_id = t.id and (m.sender_id = ${sql.placeholder("viewerId")}::uuid or m.recipient_id = ${sql.placeholder("viewerId")}::uuid)
      where t.id = ${sql.placeholder("taskId")}::uuid
      order by m.created_at, m.id`,
);

/** The chat of a task for a person who is not an admin, with the refusals chatAccess gives. */
export async function participantChat(db: Db, taskId: string, viewer: Viewer): Promise<Message[]> {
  if (viewer.admin) return listMessages(db, taskId, { id: viewer.id, access: await chatAccess(db, taskId, viewer) });
  const rows = await participantChatStatement.rows(db, { taskId, viewerId: viewer.id });
  const task = rows[0];
  if (!task) throw notFound("Task not found");
  assertParticipant(task, viewer.id);
  return rows.flatMap((r) =>
    r.id === null
      ? []
      : [{ id: r.id, taskId, senderId: r.senderId, recipientId: r.recipientId, content: r.content, read: r.read, createdAt: r.createdAt.toISOString() }],
  );
}

export async function messageById(db: Db, id: string): Promise<Message | null> {
  const [row] = await db.select().from(messages).where(eq(messages.id, id)).limit(1);
  return row ? toMessage(row) : null;
}

/** Whether the task's chat is closed to new messages (the task was cancelled). */
export async function chatClosed(db: Db, taskId: string): Promise<boolean> {
  const [task] = await db.select({ status: tasks.status }).from(tasks).where(eq(tasks.id, taskId)).limit(1);
  return task?.status === "cancelled";
}

/** Whether the task's two people have blocked each other, either way: no chat between them (docs/product.md, Moderation). */
export async function chatBlocked(db: Db, taskId: string): Promise<boolean> {
  const [task] = await db
    .select({ blocked: blockedBetweenSql(tasks.userId, tasks.providerId) })
    .from(tasks)
    .where(and(eq(tasks.id, taskId), isNotNull(tasks.providerId)))
    .limit(1);
  return task?.blocked === true;
}

interface InsertedRow {
  rateCount: number;
  rateWindowStartedAt: Date;
  id: string | null;
  taskId: string;
  senderId: string;
  recipientId: string;
  content: string;
  read: boolean;
  createdAt: Date;
}

/**
 * Counts, stores and announces a message in ONE statement, so a message is one commit
 * (docs/decisions/010-chat-fanout-and-notifications.md): the sender's rate-limit counter goes up
 * (plugins/rate-limit.ts, whose upsert this embeds); the insert only happens within the limit and
 * while the sender is still a participant (a released provider loses the chat at once); and
 * pg_notify is delivered when the statement commits, so no instance can push a message that was
 * not stored. The counter's row always comes back; the message's columns are null when nothing
 * was stored.
 */
export const insertMessageStatement = new SqlStatement<InsertedRow>(
  "chat_insert_message",
  sql`with hit as (${hitSql}),
      ins as (
        insert into messages (task_id, sender_id, recipient_id, content, created_at)
        select t.id, ${sql.placeholder("senderId")}::uuid,
               case when t.user_id = ${sql.placeholder("senderId")}::uuid then t.provider_id else t.user_id end,
               ${storedContentSql(sql`t.payment_captured_at`)}, ${sql.placeholder("now")}::timestamptz
        from tasks t, hit
        where t.id = ${sql.placeholder("taskId")}::uuid and t.provider_id is not null and t.status <> 'cancelled'
          and (t.user_id = ${sql.placeholder("senderId")}::uuid or t.provider_id = ${sql.placeholder("senderId")}::uuid)
          and not ${blockedBetweenSql(sql`t.user_id`, sql`t.provider_id`)}
          and hit.count <= ${CHAT_RATE_LIMIT_PER_MINUTE}
        returning id, task_id, sender_id, recipient_id, content, read, created_at
      )
      select hit.count as rate_count, hit.window_started_at as rate_window_started_at, ins.*,
        case when ins.id is null then null else pg_notify(${CHAT_CHANNEL},
          case when octet_length(ins.content) <= ${INLINE_CONTENT_BYTES}
            then json_build_object('id', ins.id, 'taskId', ins.task_id, 'senderId', ins.sender_id,
                   'recipientId', ins.recipient_id, 'content', ins.content,
                   'createdAt', to_char(ins.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text
            else json_build_object('id', ins.id, 'taskId', ins.task_id)::text
          end) end as notified
      from hit left join ins on true`,
);

/** The counter's key and window shared by both ways of sending (POST /api/messages and the socket). */
export const CHAT_RATE_WINDOW_MS = 60_000;
export const TOO_MANY_MESSAGES = "Too many messages. Please wait a moment before sending more.";

export type SendOutcome = { kind: "sent"; message: Message } | { kind: "limited"; resetAt: Date } | { kind: "refused" };

/** One message from `senderId`: stored and announced, over the rate limit, or refused (the caller asks why). */
export async function insertMessage(db: Db, input: { taskId: string; senderId: string; content: string; now: Date }): Promise<SendOutcome> {
  const [row] = await insertMessageStatement.rows(db, {
    ...hitPlaceholders(`chat:${input.senderId}`, CHAT_RATE_WINDOW_MS, input.now),
    taskId: input.taskId,
    senderId: input.senderId,
    ...contentPlaceholders(input.content),
    now: input.now.toISOString(),
  });
  if (!row) throw new Error("the chat statement returned no counter row");
  if (row.id !== null) {
    const { id, taskId, senderId, recipientId, content, read, createdAt } = row;
    return { kind: "sent", message: { id, taskId, senderId, recipientId, content, read, createdAt: createdAt.toISOString() } };
  }
  if (Number(row.rateCount) > CHAT_RATE_LIMIT_PER_MINUTE) return { kind: "limited", resetAt: new Date(row.rateWindowStartedAt.getTime() + CHAT_RATE_WINDOW_MS) };
  return { kind: "refused" };
}

/** Marks messages to the reader as read; only the recipient's own messages can change. */
export async function markRead(db: Db, taskId: string, readerId: string, ids: string[] | undefined): Promise<number> {
  const conditions = [eq(messages.taskId, taskId), eq(messages.recipientId, readerId), eq(messages.read, false)];
  if (ids) {
    if (ids.length === 0) return 0;
    conditions.push(inArray(messages.id, ids));
  }
  const rows = await db.update(messages).set({ read: true }).where(and(...conditions)).returning({ id: messages.id });
  return rows.length;
}
