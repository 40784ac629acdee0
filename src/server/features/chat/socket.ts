import { isDatabaseUnavailable, SERVICE_UNAVAILABLE } from "../../plugins/errors.js";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { RawData, WebSocket } from "ws";
import { clientFrameSchema, type ClientFrame } from "../../../shared/chat.js";
import { BLOCKED_MESSAGE } from "../../../shared/moderation.js";
import { HttpError } from "../../http-errors.js";
import { unreadNotificationCount } from "../../notify.js";
import { isAdminSession } from "../../policy.js";
import { MAX_SOCKETS_PER_USER, send, type ChatHub, type Connection } from "./hub.js";
import {
  ADMIN_READ_ONLY_MESSAGE,
  CHAT_CLOSED_MESSAGE,
  chatAccess,
  chatBlocked,
  chatClosed,
  insertMessage,
  NO_PERMISSION_MESSAGE,
  TOO_MANY_MESSAGES,
} from "./repository.js";

// The realtime socket (/ws). The upgrade is refused unless it comes from our own origin (a socket
// is not covered by CORS, so this is the CSRF check) with a valid session cookie; every frame is
// then rate limited, validated and answered, and no frame can crash the process or slow others
// (docs/decisions/010-chat-fanout-and-notifications.md).

export const TOO_MANY_FRAMES = "Too many messages at once. Slow down, or this connection will be closed.";
export const TOO_MANY_SOCKETS = "Too many open connections: close another tab and try again.";

/** Frames a socket may send per second, and per user across their sockets on this instance. */
export const FRAMES_PER_SECOND = { socket: 20, user: 40 };
/** Over-limit frames tolerated after the warning, within GRACE_MS, before the socket is closed. */
const OVER_LIMIT_TOLERANCE = 50;
const GRACE_MS = 10_000;

/** A token bucket: `rate` tokens a second, holding at most one second's worth (the burst). */
class Bucket {
  private tokens: number;
  private at = performance.now();
  constructor(private readonly rate: number) {
    this.tokens = rate;
  }
  take(): boolean {
    const now = performance.now();
    this.tokens = Math.min(this.rate, this.tokens + ((now - this.at) / 1000) * this.rate);
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

export function originAllowed(request: FastifyRequest, publicUrl: string): boolean {
  const origin = request.headers.origin;
  if (!origin) return false;
  if (origin === new URL(publicUrl).origin) return true;
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}

function issueMessage(error: { issues: { message: string }[] }): string {
  return error.issues[0]?.message ?? "Invalid message";
}

function decode(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString("utf8");
  return Buffer.from(data as ArrayBuffer).toString("utf8");
}

async function handleFrame(app: FastifyInstance, hub: ChatHub, conn: Connection, frame: ClientFrame): Promise<void> {
  const { ctx } = app;
  if (frame.type === "subscribe_notifications") {
    hub.subscribeNotifications(conn);
    // Pushes keep lastUnread current, so only the first subscribe on a socket costs a query.
    conn.lastUnread ??= await unreadNotificationCount(ctx.db, conn.userId);
    send(conn.socket, { type: "notification", unreadCount: conn.lastUnread });
    return;
  }
  if (frame.type === "watch_task") {
    hub.watchTask(conn, frame.taskId);
    return;
  }
  if (frame.type === "auth") {
    // Already in that room: access is re-checked by every insert, so a repeat needs no query.
    if (conn.taskId === frame.taskId) {
      send(conn.socket, { type: "auth_success" });
      return;
    }
    const access = await chatAccess(ctx.db, frame.taskId, { id: conn.userId, admin: conn.admin });
    hub.joinRoom(conn, frame.taskId, access);
    send(conn.socket, { type: "auth_success" });
    return;
  }
  if (!conn.taskId) throw new HttpError(400, "Send an auth message with the taskId first");
  if (conn.access === "admin") throw new HttpError(403, ADMIN_READ_ONLY_MESSAGE);
  // The statement counts against the same limit as POST /api/messages, kept in the database so it holds across instances.
  const sent = await insertMessage(ctx.db, { taskId: conn.taskId, senderId: conn.userId, content: frame.content, now: ctx.now() });
  if (sent.kind === "limited") throw new HttpError(429, TOO_MANY_MESSAGES);
  if (sent.kind === "refused") {
    if (await chatClosed(ctx.db, conn.taskId)) throw new HttpError(409, CHAT_CLOSED_MESSAGE);
    if (await chatBlocked(ctx.db, conn.taskId)) throw new HttpError(403, BLOCKED_MESSAGE);
    // The provider was released (or the task changed hands): the room is closed to them now.
    hub.leaveRoom(conn);
    throw new HttpError(403, NO_PERMISSION_MESSAGE);
  }
}

export function registerChatSocket(app: FastifyInstance, hub: ChatHub): void {
  const userBuckets = new Map<string, { bucket: Bucket; sockets: number }>();
  const sessions = new WeakMap<FastifyRequest, NonNullable<FastifyRequest["user"]>>();

  app.get(
    "/ws",
    {
      websocket: true,
      // A socket lives for the page's life: it is not a request at work (plugins/admission.ts).
      config: { auth: "public", admission: false },
      // Runs before the upgrade: a refused socket gets a plain HTTP answer and never opens.
      preValidation: async (request, reply) => {
        if (!originAllowed(request, app.ctx.env.PUBLIC_URL)) {
          return reply.code(403).send({ message: "Cross-origin sockets are not allowed" });
        }
        // The auth plugin resolved the session in onRequest (the route is public, so it did not refuse).
        const user = request.user;
        if (!user) return reply.code(401).send({ message: "Unauthorized" });
        // A plain HTTP GET would get @fastify/websocket's empty 404; say what is expected instead.
        if (!request.ws) return reply.code(426).send({ message: "This address only accepts WebSocket connections" });
        sessions.set(request, user);
        return undefined;
      },
    },
    (socket: WebSocket, request) => {
      const user = sessions.get(request);
      if (!user) {
        socket.close(1008, "Unauthorized");
        return;
      }
      const conn: Connection = {
        socket,
        userId: user.id,
        sessionId: user.sessionId,
        admin: isAdminSession(user),
        taskId: null,
        access: null,
        notifications: false,
        alive: true,
      };
      if (!hub.add(conn)) {
        send(socket, { type: "error", message: TOO_MANY_SOCKETS });
        socket.close(1008, `At most ${MAX_SOCKETS_PER_USER} connections`);
        return;
      }
      const socketBucket = new Bucket(FRAMES_PER_SECOND.socket);
      const shared = userBuckets.get(conn.userId) ?? { bucket: new Bucket(FRAMES_PER_SECOND.user), sockets: 0 };
      shared.sockets += 1;
      userBuckets.set(conn.userId, shared);
      let warnedAt = -Infinity;
      let overSinceWarning = 0;
      /** Over the limit: the frame is dropped; the first time an error frame says so, and a socket that keeps going is closed. */
      const overLimit = () => {
        const now = performance.now();
        if (now - warnedAt > GRACE_MS) {
          warnedAt = now;
          overSinceWarning = 0;
          send(socket, { type: "error", message: TOO_MANY_FRAMES });
        } else if (++overSinceWarning > OVER_LIMIT_TOLERANCE) {
          socket.close(1008, "Too many frames");
        }
      };
      // Frames are handled one after another, so a socket's messages are stored in the order sent.
      let queue: Promise<void> = Promise.resolve();
      socket.on("message", (data: RawData) => {
        // Decided before anything is queued or parsed: a flood costs a counter, not memory or queries.
        if (socket.readyState !== 1) return;
        if (!socketBucket.take() || !shared.bucket.take()) {
          overLimit();
          return;
        }
        queue = queue.then(async () => {
          let json: unknown;
          try {
            json = JSON.parse(decode(data));
          } catch {
            send(socket, { type: "error", message: "Invalid message: not JSON" });
            return;
          }
          const parsed = clientFrameSchema.safeParse(json);
          if (!parsed.success) {
            send(socket, { type: "error", message: issueMessage(parsed.error) });
            return;
          }
          try {
            await handleFrame(app, hub, conn, parsed.data);
          } catch (err) {
            if (err instanceof HttpError && err.statusCode < 500) {
              send(socket, { type: "error", message: err.message });
              return;
            }
            // Once, at warn, and without the frame or the query: they may hold a user's message text.
            // A database out of reach (a pool or PgBouncer wait ran out under overload, an outage)
            // is said as the HTTP routes' 503 says it: nothing was stored, and trying again will work.
            const unavailable = isDatabaseUnavailable(err);
            app.log.warn({ frameType: parsed.data.type, code: (err as { code?: string }).code, unavailable }, "chat frame failed");
            send(socket, { type: "error", message: unavailable ? SERVICE_UNAVAILABLE : "Something went wrong. Please try again." });
          }
        });
      });
      socket.on("pong", () => {
        conn.alive = true;
      });
      const gone = () => {
        if (!hub.remove(conn)) return;
        shared.sockets -= 1;
        if (shared.sockets === 0) userBuckets.delete(conn.userId);
      };
      socket.on("close", gone);
      socket.on("error", gone);
    },
  );
}
