import type { WebSocket } from "ws";
import { and, gt, inArray } from "drizzle-orm";
import { z } from "zod";
import type { ServerFrame } from "../../../shared/chat.js";
import type { AppContext } from "../../context.js";
import { sessions } from "../../db/schema/users.js";
import { NOTIFICATIONS_CHANNEL, unreadNotificationCount } from "../../notify.js";
import { CHAT_CHANNEL, messageById, type ChatAccess } from "./repository.js";

// The sockets of THIS instance, by task room and by user. Nothing is sent from the code path that
// stored a message: every instance (this one included) hears the commit through LISTEN and pushes
// to its own sockets, so one code path serves one instance and many alike
// (docs/decisions/010-chat-fanout-and-notifications.md).

export interface Connection {
  socket: WebSocket;
  userId: string;
  /** The session the socket was opened with; re-checked on every heartbeat. */
  sessionId: string;
  role: string;
  taskId: string | null;
  access: ChatAccess | null;
  notifications: boolean;
  alive: boolean;
}

const HEARTBEAT_MS = 30_000;

const notifiedMessageSchema = z.object({
  id: z.string(),
  taskId: z.string(),
  senderId: z.string(),
  recipientId: z.string(),
  content: z.string(),
  createdAt: z.string(),
});

function parseJson(payload: string): unknown {
  try {
    return JSON.parse(payload);
  } catch {
    return null;
  }
}

export class ChatHub {
  private readonly rooms = new Map<string, Set<Connection>>();
  private readonly users = new Map<string, Set<Connection>>();
  private unsubscribers: (() => Promise<void>)[] = [];
  private heartbeat: NodeJS.Timeout | null = null;

  constructor(private readonly ctx: AppContext) {}

  async start(): Promise<void> {
    this.unsubscribers = [
      await this.ctx.database.listen(CHAT_CHANNEL, (payload) => void this.onChatMessage(payload)),
      await this.ctx.database.listen(NOTIFICATIONS_CHANNEL, (payload) => void this.onNotification(payload)),
    ];
    this.ctx.database.onListenerRestored(() => this.resync());
    // A peer that vanished without a close frame is dropped after one missed ping.
    this.heartbeat = setInterval(() => this.ping(), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  async stop(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    await Promise.all(this.unsubscribers.map((u) => u().catch(() => undefined)));
    this.unsubscribers = [];
  }

  joinRoom(conn: Connection, taskId: string, access: ChatAccess): void {
    this.leaveRoom(conn);
    conn.taskId = taskId;
    conn.access = access;
    let room = this.rooms.get(taskId);
    if (!room) {
      room = new Set();
      this.rooms.set(taskId, room);
    }
    room.add(conn);
  }

  leaveRoom(conn: Connection): void {
    if (!conn.taskId) return;
    const room = this.rooms.get(conn.taskId);
    room?.delete(conn);
    if (room?.size === 0) this.rooms.delete(conn.taskId);
    conn.taskId = null;
    conn.access = null;
  }

  subscribeNotifications(conn: Connection): void {
    conn.notifications = true;
    let set = this.users.get(conn.userId);
    if (!set) {
      set = new Set();
      this.users.set(conn.userId, set);
    }
    set.add(conn);
  }

  remove(conn: Connection): void {
    this.leaveRoom(conn);
    const set = this.users.get(conn.userId);
    set?.delete(conn);
    if (set?.size === 0) this.users.delete(conn.userId);
  }

  /** Number of open sockets in task rooms on this instance (for tests and the benchmark). */
  roomSocketCount(): number {
    let n = 0;
    for (const room of this.rooms.values()) n += room.size;
    return n;
  }

  private async onChatMessage(payload: string): Promise<void> {
    try {
      const parsed = parseJson(payload) as { id?: unknown; taskId?: unknown } | null;
      if (!parsed || typeof parsed.id !== "string" || typeof parsed.taskId !== "string") return;
      const room = this.rooms.get(parsed.taskId);
      if (!room || room.size === 0) return;
      // A short message travels whole in the payload; a long one only by id (NOTIFY's 8000-byte cap).
      const inline = notifiedMessageSchema.safeParse(parsed);
      const message = inline.success ? inline.data : await messageById(this.ctx.db, parsed.id);
      if (!message) return;
      const frame: ServerFrame = {
        type: "message",
        id: message.id,
        taskId: message.taskId,
        senderId: message.senderId,
        recipientId: message.recipientId,
        content: message.content,
        createdAt: message.createdAt,
      };
      // Only the two people the message is between (and moderating admins): a provider released from
      // the task may still have a socket in its room, and must not see the new provider's chat.
      for (const conn of this.rooms.get(parsed.taskId) ?? []) {
        if (conn.access === "admin" || conn.userId === message.senderId || conn.userId === message.recipientId) {
          send(conn.socket, frame);
        }
      }
    } catch (err) {
      this.ctx.log.error({ err }, "chat fan-out failed");
    }
  }

  private async onNotification(payload: string): Promise<void> {
    try {
      const parsed = parseJson(payload) as { userId?: unknown } | null;
      if (!parsed || typeof parsed.userId !== "string") return;
      const conns = this.users.get(parsed.userId);
      if (!conns || conns.size === 0) return;
      const unreadCount = await unreadNotificationCount(this.ctx.db, parsed.userId);
      for (const conn of conns) send(conn.socket, { type: "notification", unreadCount });
    } catch (err) {
      this.ctx.log.error({ err }, "notification push failed");
    }
  }

  /**
   * The LISTEN connection was lost and is back (the database restarted): messages and notices
   * stored meanwhile were never pushed. Closing every socket with 1012 (service restart) makes
   * each client reconnect with its jittered backoff and refetch after re-authenticating, as it
   * does after any drop, so nothing stays missing (test/faults/database-outage.faults.ts).
   */
  private resync(): void {
    const conns = new Set<Connection>();
    for (const group of [...this.rooms.values(), ...this.users.values()]) for (const conn of group) conns.add(conn);
    this.ctx.log.warn({ sockets: conns.size }, "realtime channel restored; asking clients to reconnect");
    for (const conn of conns) conn.socket.close(1012, "Reconnect to catch up");
  }

  /** Closes sockets whose session has ended (logout, expiry) since they were opened; a scheduled job. */
  async closeEndedSessions(): Promise<void> {
    const conns = new Set<Connection>();
    for (const group of [...this.rooms.values(), ...this.users.values()]) for (const conn of group) conns.add(conn);
    if (conns.size === 0) return;
    const ids = [...new Set([...conns].map((c) => c.sessionId))];
    // Ended means deleted (logout) or past either expiry, the same rule that refuses it on REST.
    const now = this.ctx.now();
    const live = await this.ctx.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(inArray(sessions.id, ids), gt(sessions.idleExpiresAt, now), gt(sessions.absoluteExpiresAt, now)));
    const alive = new Set(live.map((r) => r.id));
    for (const conn of conns) if (!alive.has(conn.sessionId)) conn.socket.close(1008, "Session ended");
  }

  private ping(): void {
    const seen = new Set<Connection>();
    for (const group of [...this.rooms.values(), ...this.users.values()]) {
      for (const conn of group) {
        if (seen.has(conn)) continue;
        seen.add(conn);
        if (!conn.alive) {
          conn.socket.terminate();
          continue;
        }
        conn.alive = false;
        conn.socket.ping();
      }
    }
  }
}

export function send(socket: WebSocket, frame: ServerFrame): void {
  // 1 = OPEN; a socket closing meanwhile just misses the frame and refetches on reconnect.
  if (socket.readyState === 1) socket.send(JSON.stringify(frame));
}
