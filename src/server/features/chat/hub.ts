import type { WebSocket } from "ws";
import { and, eq, gt, inArray } from "drizzle-orm";
import { z } from "zod";
import type { ServerFrame } from "../../../shared/chat.js";
import { SESSION_ENDED_CLOSE } from "../../../shared/server-frames.js";
import type { AppContext } from "../../context.js";
import { sessions } from "../../db/schema/users.js";
import { NOTIFICATIONS_CHANNEL, unreadNotificationCount } from "../../notify.js";
import { parseTaskUpdate, shownToEveryone, TASK_UPDATES_CHANNEL } from "../../task-updates.js";
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
  /** Admin powers of that session (src/server/policy.ts), decided at connect: an admin on one factor has none. */
  admin: boolean;
  taskId: string | null;
  access: ChatAccess | null;
  notifications: boolean;
  /** The task page this socket's tab shows, whoever's it is: it hears that task's public changes. */
  watching?: string | null;
  /** The unread count last sent on this socket: a repeated subscribe is answered without a query. */
  lastUnread?: number;
  alive: boolean;
  /** Fires at the session's expiry to close the socket (see watchExpiry). */
  expiryTimer?: NodeJS.Timeout;
}

const HEARTBEAT_MS = 30_000;
/** Open sockets one user may hold on one instance (a browser opens one per tab). */
export const MAX_SOCKETS_PER_USER = 10;
/** Channel the sessions table's delete trigger notifies (drizzle/0002_session_ended_notify.sql). */
const SESSION_ENDED_CHANNEL = "session_ended";
/** setTimeout's ceiling is about 24.8 days; a later expiry is re-checked once this has passed. */
const MAX_TIMER_MS = 3_600_000;

const notifiedMessageSchema = z.object({
  id: z.string(),
  taskId: z.string(),
  senderId: z.string(),
  recipientId: z.string(),
  content: z.string(),
  createdAt: z.string(),
});

/**
 * Job-board changes heard within this window go out as one frame per socket: a burst of claims
 * costs each connected browser one frame, not one per claim (docs/decisions/025-live-task-status.md).
 */
export const BOARD_COALESCE_MS = 250;

function parseJson(payload: string): unknown {
  try {
    return JSON.parse(payload);
  } catch {
    return null;
  }
}

export class ChatHub {
  private readonly rooms = new Map<string, Set<Connection>>();
  /** Sockets that asked for notification pushes, by user. */
  private readonly users = new Map<string, Set<Connection>>();
  /** Every open socket of this instance, joined or not, by user and by session. */
  private readonly sockets = new Map<string, Set<Connection>>();
  private readonly bySession = new Map<string, Set<Connection>>();
  /** Admins' sockets (two-factor sessions): admins hear every task's updates. */
  private readonly admins = new Set<Connection>();
  /** Sockets by the task page their tab shows (Connection.watching). */
  private readonly watchers = new Map<string, Set<Connection>>();
  /** Job-board changes waiting for the next coalesced frame. */
  private boardRemoved = new Set<string>();
  private boardAdded = false;
  private boardTimer: NodeJS.Timeout | null = null;
  private unsubscribers: (() => Promise<void>)[] = [];
  private heartbeat: NodeJS.Timeout | null = null;

  constructor(private readonly ctx: AppContext) {}

  async start(): Promise<void> {
    this.unsubscribers = [
      await this.ctx.database.listen(CHAT_CHANNEL, (payload) => void this.onChatMessage(payload)),
      await this.ctx.database.listen(NOTIFICATIONS_CHANNEL, (payload) => void this.onNotification(payload)),
      await this.ctx.database.listen(SESSION_ENDED_CHANNEL, (sessionId) => this.closeSession(sessionId)),
      await this.ctx.database.listen(TASK_UPDATES_CHANNEL, (payload) => this.onTaskUpdate(payload)),
    ];
    this.ctx.database.onListenerRestored(() => this.resync());
    // A peer that vanished without a close frame is dropped after one missed ping.
    this.heartbeat = setInterval(() => this.ping(), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  async stop(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.boardTimer) clearTimeout(this.boardTimer);
    await Promise.all(this.unsubscribers.map((u) => u().catch(() => undefined)));
    this.unsubscribers = [];
  }

  /** Registers an open socket; false when its user already holds MAX_SOCKETS_PER_USER here. */
  add(conn: Connection): boolean {
    const mine = this.sockets.get(conn.userId) ?? new Set<Connection>();
    if (mine.size >= MAX_SOCKETS_PER_USER) return false;
    mine.add(conn);
    this.sockets.set(conn.userId, mine);
    const session = this.bySession.get(conn.sessionId) ?? new Set<Connection>();
    session.add(conn);
    this.bySession.set(conn.sessionId, session);
    if (conn.admin) this.admins.add(conn);
    void this.watchExpiry(conn);
    return true;
  }

  /**
   * Closes the socket the moment its session expires, whether or not it ever sent a frame. A
   * deleted session (sign-out) closes it through the session_ended notification instead; this timer
   * covers expiry, and re-reads the expiry when it fires because use extends the idle one.
   */
  private async watchExpiry(conn: Connection): Promise<void> {
    try {
      const [row] = await this.ctx.db
        .select({ idle: sessions.idleExpiresAt, absolute: sessions.absoluteExpiresAt })
        .from(sessions)
        .where(eq(sessions.id, conn.sessionId));
      if (conn.socket.readyState > 1) return;
      const endsAt = row ? Math.min(row.idle.getTime(), row.absolute.getTime()) : 0;
      const delay = endsAt - this.ctx.now().getTime();
      if (delay <= 0) {
        conn.socket.close(SESSION_ENDED_CLOSE.code, SESSION_ENDED_CLOSE.reason);
        return;
      }
      conn.expiryTimer = setTimeout(() => void this.watchExpiry(conn), Math.min(delay, MAX_TIMER_MS));
      conn.expiryTimer.unref();
    } catch (err) {
      // The database is away: the heartbeat and the session sweep close it later instead.
      this.ctx.log.warn({ code: (err as { code?: string }).code }, "socket expiry check failed");
    }
  }

  private closeSession(sessionId: string): void {
    for (const conn of this.bySession.get(sessionId) ?? []) conn.socket.close(SESSION_ENDED_CLOSE.code, SESSION_ENDED_CLOSE.reason);
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

  /**
   * The tab now shows task `taskId` (null: no task page). Nothing is read: what it will hear is
   * what that task's public page shows anyone (see onTaskUpdate).
   */
  watchTask(conn: Connection, taskId: string | null): void {
    if (conn.watching) {
      const watchers = this.watchers.get(conn.watching);
      watchers?.delete(conn);
      if (watchers?.size === 0) this.watchers.delete(conn.watching);
    }
    conn.watching = taskId;
    if (!taskId) return;
    let watchers = this.watchers.get(taskId);
    if (!watchers) {
      watchers = new Set();
      this.watchers.set(taskId, watchers);
    }
    watchers.add(conn);
  }

  /** Forgets a closed socket; false if it was already forgotten (close and error both call it). */
  remove(conn: Connection): boolean {
    if (!this.sockets.get(conn.userId)?.has(conn)) return false;
    this.leaveRoom(conn);
    this.watchTask(conn, null);
    this.admins.delete(conn);
    if (conn.expiryTimer) clearTimeout(conn.expiryTimer);
    for (const [map, key] of [
      [this.users, conn.userId],
      [this.sockets, conn.userId],
      [this.bySession, conn.sessionId],
    ] as const) {
      const set = map.get(key);
      set?.delete(conn);
      if (set?.size === 0) map.delete(key);
    }
    return true;
  }

  /** Open sockets on this instance, joined to a room or not (for /metrics). */
  socketCount(): number {
    let n = 0;
    for (const group of this.sockets.values()) n += group.size;
    return n;
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
      const readers = [...(this.rooms.get(parsed.taskId) ?? [])].filter(
        (conn) => conn.access === "admin" || conn.userId === message.senderId || conn.userId === message.recipientId,
      );
      sendToAll(readers, frame);
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
      for (const conn of conns) {
        conn.lastUnread = unreadCount;
        send(conn.socket, { type: "notification", unreadCount });
      }
    } catch (err) {
      this.ctx.log.error({ err }, "notification push failed");
    }
  }

  /**
   * A task changed (src/server/task-updates.ts): its poster, its provider, a provider who just lost
   * it, and admins hear it on every socket they hold here, subscribed or not. A socket whose tab
   * shows the task's page hears only the changes that page shows anyone (`shownToEveryone`): its
   * status, questions, photos and edits, never a payment or a dispute.
   */
  private onTaskUpdate(payload: string): void {
    try {
      const update = parseTaskUpdate(payload);
      if (!update) return;
      const { taskId, status, event, board, userIds } = update;
      const frame: ServerFrame = { type: "task_updated", taskId, status, event };
      const targets = new Set<Connection>(this.admins);
      for (const userId of userIds) for (const conn of userId ? (this.sockets.get(userId) ?? []) : []) targets.add(conn);
      if (shownToEveryone(event)) for (const conn of this.watchers.get(taskId) ?? []) targets.add(conn);
      sendToAll(targets, frame);
      if (board) this.queueBoardChange(taskId, board);
    } catch (err) {
      this.ctx.log.error({ err }, "task update push failed");
    }
  }

  /** A task that changed on the board (its photos) is refetched like one that joined it. */
  private queueBoardChange(taskId: string, change: "removed" | "added" | "changed"): void {
    if (change === "removed") this.boardRemoved.add(taskId);
    else {
      this.boardRemoved.delete(taskId);
      this.boardAdded = true;
    }
    if (this.boardTimer) return;
    this.boardTimer = setTimeout(() => this.flushBoard(), BOARD_COALESCE_MS);
    this.boardTimer.unref();
  }

  /** One frame to every socket here: the board is public, so the ids of tasks that left it tell nobody anything new. */
  private flushBoard(): void {
    this.boardTimer = null;
    const frame: ServerFrame = { type: "job_board_changed", removed: [...this.boardRemoved], added: this.boardAdded };
    this.boardRemoved = new Set();
    this.boardAdded = false;
    sendToAll(this.allSockets(), frame);
  }

  /**
   * The LISTEN connection was lost and is back (the database restarted): messages and notices
   * stored meanwhile were never pushed. Closing every socket with 1012 (service restart) makes
   * each client reconnect with its jittered backoff and refetch after re-authenticating, as it
   * does after any drop, so nothing stays missing (test/faults/database-outage.faults.ts).
   */
  private resync(): void {
    const conns = this.allSockets();
    this.ctx.log.warn({ sockets: conns.size }, "realtime channel restored; asking clients to reconnect");
    for (const conn of conns) conn.socket.close(1012, "Reconnect to catch up");
  }

  /** Closes sockets whose session has ended (logout, expiry) since they were opened; a scheduled job. */
  async closeEndedSessions(): Promise<void> {
    const conns = this.allSockets();
    if (conns.size === 0) return;
    const ids = [...new Set([...conns].map((c) => c.sessionId))];
    // Ended means deleted (logout) or past either expiry, the same rule that refuses it on REST.
    const now = this.ctx.now();
    const live = await this.ctx.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(inArray(sessions.id, ids), gt(sessions.idleExpiresAt, now), gt(sessions.absoluteExpiresAt, now)));
    const alive = new Set(live.map((r) => r.id));
    for (const conn of conns) if (!alive.has(conn.sessionId)) conn.socket.close(SESSION_ENDED_CLOSE.code, SESSION_ENDED_CLOSE.reason);
  }

  private allSockets(): Set<Connection> {
    const all = new Set<Connection>();
    for (const group of this.sockets.values()) for (const conn of group) all.add(conn);
    return all;
  }

  private ping(): void {
    for (const conn of this.allSockets()) {
      if (!conn.alive) {
        conn.socket.terminate();
        continue;
      }
      conn.alive = false;
      conn.socket.ping();
    }
  }
}

/**
 * One frame to many sockets, written once: one JSON.stringify per message, not one per socket
 * (issue 43's chat profile; docs/decisions/076-responses-written-without-zod.md, "Chat frames").
 */
function sendToAll(conns: Iterable<Connection>, frame: ServerFrame): void {
  let text: string | null = null;
  for (const { socket } of conns) {
    if (socket.readyState !== 1) continue;
    text ??= JSON.stringify(frame);
    socket.send(text);
  }
}

export function send(socket: WebSocket, frame: ServerFrame): void {
  // 1 = OPEN; a socket closing meanwhile just misses the frame and refetches on reconnect.
  if (socket.readyState === 1) socket.send(JSON.stringify(frame));
}
