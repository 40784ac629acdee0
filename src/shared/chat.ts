import { z } from "zod";
import { CHAT_MESSAGE_MAX_LENGTH, TASK_STATUSES } from "./constants.js";

// Contracts of the task chat (docs/product.md, Chat and notifications: messages and the realtime connection). The
// same schemas validate the REST bodies, every socket frame the server receives, and what the
// browser reads back.

/** Messages per user per minute, on REST and the socket together. */
export const CHAT_RATE_LIMIT_PER_MINUTE = 30;

export const chatContentSchema = z
  .string({ error: "content is required" })
  .trim()
  .min(1, { error: "content is required" })
  .max(CHAT_MESSAGE_MAX_LENGTH, { error: `content must be at most ${CHAT_MESSAGE_MAX_LENGTH} characters` })
  // PostgreSQL text cannot hold a NUL; refused here, it is a 400 on REST and an error frame on the
  // socket instead of a failed insert.
  .refine((s) => !s.includes("\u0000"), { error: "content cannot contain a null character" });

export const messageSchema = z.object({
  id: z.uuid(),
  taskId: z.uuid(),
  senderId: z.uuid(),
  recipientId: z.uuid(),
  content: z.string(),
  read: z.boolean(),
  createdAt: z.string(),
});
export type Message = z.infer<typeof messageSchema>;
export const messageListSchema = z.array(messageSchema);

export const sendMessageBodySchema = z.object({
  taskId: z.uuid({ error: "taskId must be a UUID" }),
  content: chatContentSchema,
});
export type SendMessageBody = z.input<typeof sendMessageBodySchema>;

export const markReadBodySchema = z.object({
  /** The messages the reader has seen; absent means every message to the reader in this task. */
  ids: z.array(z.uuid({ error: "ids must be UUIDs" })).max(500).optional(),
});

/** Frames the browser sends over /ws. */
export const clientFrameSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("auth"), taskId: z.uuid({ error: "taskId must be a UUID" }) }),
  z.object({ type: z.literal("message"), content: chatContentSchema }),
  z.object({ type: z.literal("subscribe_notifications") }),
  // The task page on screen (null: none): its public changes reach this socket too (docs/product.md, Live updates).
  z.object({ type: z.literal("watch_task"), taskId: z.uuid({ error: "taskId must be a UUID" }).nullable() }),
]);
export type ClientFrame = z.infer<typeof clientFrameSchema>;

/** Frames the server sends over /ws (the browser reads them with server-frames.ts). */
export const serverFrameSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("auth_success") }),
  z.object({ type: z.literal("error"), message: z.string() }),
  z.object({
    type: z.literal("message"),
    id: z.uuid(),
    taskId: z.uuid(),
    senderId: z.uuid(),
    recipientId: z.uuid(),
    content: z.string(),
    createdAt: z.string(),
  }),
  z.object({ type: z.literal("notification"), unreadCount: z.number().int() }),
  // A task changed (a transition or a money/review event on it): sent to its poster, its provider
  // (and one who just lost it) and admins; the page refetches what it shows
  // (docs/decisions/025-live-task-status.md).
  z.object({
    type: z.literal("task_updated"),
    taskId: z.uuid(),
    status: z.enum(TASK_STATUSES),
    /** What happened: a transition name of the lifecycle table, or tip, release, refund, dispute, review. */
    event: z.string(),
  }),
  // Tasks left the job board (removed) or one joined it (added), coalesced per instance; sent to every socket.
  z.object({ type: z.literal("job_board_changed"), removed: z.array(z.uuid()), added: z.boolean() }),
]);
export type ServerFrame = z.infer<typeof serverFrameSchema>;
