import type { FastifyInstance, FastifyRequest } from "fastify";
import type { RawData, WebSocket } from "ws";
import { CHAT_RATE_LIMIT_PER_MINUTE, clientFrameSchema, type ClientFrame } from "../../../shared/chat.js";
import { HttpError } from "../../http-errors.js";
import { unreadNotificationCount } from "../../notify.js";
import { userFromRequest } from "../../plugins/auth.js";
import { hit } from "../../plugins/rate-limit.js";
import { send, type ChatHub, type Connection } from "./hub.js";
import { ADMIN_READ_ONLY_MESSAGE, chatAccess, insertMessage, NO_PERMISSION_MESSAGE } from "./repository.js";

// The /ws endpoint of spec §7. The upgrade is refused unless it comes from our own origin (a
// socket is not covered by CORS, so this is the CSRF check) with a valid session cookie; every
// frame is then validated and answered, and no frame can crash the process.

export const CHAT_RATE_WINDOW_MS = 60_000;
export const TOO_MANY_MESSAGES = "Too many messages. Please wait a moment before sending more.";

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
    send(conn.socket, { type: "notification", unreadCount: await unreadNotificationCount(ctx.db, conn.userId) });
    return;
  }
  if (frame.type === "auth") {
    const access = await chatAccess(ctx.db, frame.taskId, { id: conn.userId, role: conn.role });
    hub.joinRoom(conn, frame.taskId, access);
    send(conn.socket, { type: "auth_success" });
    return;
  }
  if (!conn.taskId) throw new HttpError(400, "Send an auth message with the taskId first");
  if (conn.access === "admin") throw new HttpError(403, ADMIN_READ_ONLY_MESSAGE);
  // Same counter as POST /api/messages, kept in the database so it holds across instances.
  const { count } = await hit(ctx.db, `chat:${conn.userId}`, CHAT_RATE_WINDOW_MS, ctx.now());
  if (count > CHAT_RATE_LIMIT_PER_MINUTE) throw new HttpError(429, TOO_MANY_MESSAGES);
  const stored = await insertMessage(ctx.db, { taskId: conn.taskId, senderId: conn.userId, content: frame.content, now: ctx.now() });
  if (!stored) {
    // The provider was released (or the task changed hands): the room is closed to them now.
    hub.leaveRoom(conn);
    throw new HttpError(403, NO_PERMISSION_MESSAGE);
  }
}

export function registerChatSocket(app: FastifyInstance, hub: ChatHub): void {
  const sessions = new WeakMap<FastifyRequest, NonNullable<Awaited<ReturnType<typeof userFromRequest>>>>();

  app.get(
    "/ws",
    {
      websocket: true,
      config: { auth: "public" },
      // Runs before the upgrade: a refused socket gets a plain HTTP answer and never opens.
      preValidation: async (request, reply) => {
        if (!originAllowed(request, app.ctx.env.PUBLIC_URL)) {
          return reply.code(403).send({ message: "Cross-origin sockets are not allowed" });
        }
        const user = await userFromRequest(app, request);
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
        role: user.role,
        taskId: null,
        access: null,
        notifications: false,
        alive: true,
      };
      // Frames are handled one after another, so a socket's messages are stored in the order sent.
      let queue: Promise<void> = Promise.resolve();
      socket.on("message", (data: RawData) => {
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
            app.log.error({ err }, "chat frame failed");
            send(socket, { type: "error", message: "Something went wrong. Please try again." });
          }
        });
      });
      socket.on("pong", () => {
        conn.alive = true;
      });
      socket.on("close", () => hub.remove(conn));
      socket.on("error", () => hub.remove(conn));
    },
  );
}
