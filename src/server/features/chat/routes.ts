import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { markReadBodySchema, messageListSchema, messageSchema, sendMessageBodySchema } from "../../../shared/chat.js";
import { BLOCKED_MESSAGE } from "../../../shared/moderation.js";
import { conflict, errorResponses, forbidden, tooManyRequests } from "../../http-errors.js";
import { requireUser } from "../../plugins/auth.js";
import { retryAfterSeconds } from "../../plugins/rate-limit.js";
import { viewerOf } from "../../policy.js";
import { ChatHub } from "./hub.js";
import {
  ADMIN_READ_ONLY_MESSAGE,
  CHAT_CLOSED_MESSAGE,
  chatAccess,
  chatBlocked,
  chatClosed,
  insertMessage,
  markRead,
  NO_PERMISSION_MESSAGE,
  participantChat,
  TOO_MANY_MESSAGES,
} from "./repository.js";
import { registerChatSocket } from "./socket.js";
import { noticeUnseenMessages } from "./unread-notices.js";

const taskIdParams = z.object({ taskId: z.uuid({ error: "taskId must be a UUID" }) });
const errors = errorResponses(400, 401, 403, 404);
const sendErrors = { ...errors, ...errorResponses(409, 429) };

const chatRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const hub = new ChatHub(ctx);
  await hub.start();
  app.addHook("onClose", () => hub.stop());
  registerChatSocket(app, hub);
  ctx.scheduler.register("chat:unseen-notices", () => noticeUnseenMessages(ctx));
  ctx.scheduler.register("chat:close-ended-sessions", () => hub.closeEndedSessions());
  ctx.metrics.level("errandly_open_sockets", "WebSocket connections open on this instance.", () => hub.socketCount());

  app.get(
    "/api/messages/:taskId",
    {
      config: { auth: "user" },
      schema: { tags: ["chat"], operationId: "listMessages", summary: "Lists the chat messages of a task", params: taskIdParams, response: { 200: messageListSchema, ...errors } },
    },
    async (request) => participantChat(ctx.db, request.params.taskId, viewerOf(requireUser(request))),
  );

  app.post(
    "/api/messages",
    {
      config: { auth: "user" },
      schema: {
        tags: ["chat"],
        operationId: "sendMessage",
        summary: "Sends a chat message about a task",
        body: sendMessageBodySchema,
        response: { 201: messageSchema, ...sendErrors },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const viewer = viewerOf(user);
      // Admins read chats but never write, even their own task's: asked first. Anyone else's message
      // is the one statement that checks they take part; only a refusal reads why.
      if (viewer.admin && (await chatAccess(ctx.db, request.body.taskId, viewer)) === "admin") throw forbidden(ADMIN_READ_ONLY_MESSAGE);
      const now = ctx.now();
      const sent = await insertMessage(ctx.db, { taskId: request.body.taskId, senderId: user.id, content: request.body.content, now });
      if (sent.kind === "sent") return reply.code(201).send(sent.message);
      if (sent.kind === "limited") {
        reply.header("retry-after", String(retryAfterSeconds(sent.resetAt, now)));
        throw tooManyRequests(TOO_MANY_MESSAGES);
      }
      // Not a participant (404 for no task, 403 saying why), or the task was cancelled.
      await chatAccess(ctx.db, request.body.taskId, viewer);
      if (await chatClosed(ctx.db, request.body.taskId)) throw conflict(CHAT_CLOSED_MESSAGE);
      throw forbidden((await chatBlocked(ctx.db, request.body.taskId)) ? BLOCKED_MESSAGE : NO_PERMISSION_MESSAGE);
    },
  );

  app.patch(
    "/api/messages/:taskId/read",
    {
      config: { auth: "user" },
      schema: {
        tags: ["chat"],
        operationId: "markMessagesRead",
        summary: "Marks a task's chat messages as read",
        params: taskIdParams,
        body: markReadBodySchema,
        response: { 200: z.object({ updated: z.number().int() }), ...errors },
      },
    },
    async (request) => {
      const viewer = viewerOf(requireUser(request));
      await chatAccess(ctx.db, request.params.taskId, viewer);
      return { updated: await markRead(ctx.db, request.params.taskId, viewer.id, request.body.ids) };
    },
  );
};

export default chatRoutes;
