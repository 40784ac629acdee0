import type { ServerFrame } from "./chat.js";
import { TASK_STATUSES, type TaskStatus } from "./constants.js";

// The frames the server sends over /ws, read without zod: every signed-in page keeps the live
// socket open (the bell, the live task status), and zod's 25 KB came with it on pages that have no
// form (issue 17, docs/decisions/041-forms-loaded-on-first-use.md). It takes and refuses what
// serverFrameSchema (chat.ts) does, and keeps only the fields it names; server-frames.test.ts holds
// the two to the same answers.

/**
 * How the server closes a socket whose session ended (logout, expiry, signed out elsewhere): the
 * browser then stops reconnecting and asks who is signed in, instead of retrying with a cookie
 * that no longer opens anything (docs/product.md#chat-and-notifications).
 */
export const SESSION_ENDED_CLOSE = { code: 1008, reason: "Session ended" } as const;
/** The server's close when the instance shuts down: reconnect (to another instance) and refetch. */
export const SERVICE_RESTART_CLOSE = { code: 1012, reason: "Server restarting: reconnect" } as const;

// zod's z.uuid(): RFC 9562 versions 1 to 8 with the variant bits, and the nil and max UUIDs.
const UUID = /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;

const isString = (value: unknown): value is string => typeof value === "string";
const isUuid = (value: unknown): value is string => isString(value) && UUID.test(value);
const isStatus = (value: unknown): value is TaskStatus => (TASK_STATUSES as readonly unknown[]).includes(value);

/** A server frame from parsed socket data, or null for anything outside the contract. */
export function readServerFrame(data: unknown): ServerFrame | null {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return null;
  const f = data as Record<string, unknown>;
  switch (f.type) {
    case "auth_success":
      return { type: "auth_success" };
    case "error":
      return isString(f.message) ? { type: "error", message: f.message } : null;
    case "message":
      return isUuid(f.id) && isUuid(f.taskId) && isUuid(f.senderId) && isUuid(f.recipientId) && isString(f.content) && isString(f.createdAt)
        ? { type: "message", id: f.id, taskId: f.taskId, senderId: f.senderId, recipientId: f.recipientId, content: f.content, createdAt: f.createdAt }
        : null;
    case "notification":
      return typeof f.unreadCount === "number" && Number.isSafeInteger(f.unreadCount) ? { type: "notification", unreadCount: f.unreadCount } : null;
    case "task_updated":
      return isUuid(f.taskId) && isStatus(f.status) && isString(f.event) ? { type: "task_updated", taskId: f.taskId, status: f.status, event: f.event } : null;
    case "job_board_changed":
      return Array.isArray(f.removed) && f.removed.every(isUuid) && typeof f.added === "boolean"
        ? { type: "job_board_changed", removed: f.removed, added: f.added }
        : null;
    default:
      return null;
  }
}
