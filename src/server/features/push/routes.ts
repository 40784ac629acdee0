import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { okResponseSchema } from "../../../shared/common.js";
import { pushKeySchema, pushSubscriptionBodySchema, pushUnsubscribeBodySchema } from "../../../shared/push.js";
import { conflict, errorResponses } from "../../http-errors.js";
import { PUSH_OUTBOX_CHANNEL } from "../../notify.js";
import { requireUser } from "../../plugins/auth.js";
import { deliverQueuedPushes, PushDrain } from "./delivery.js";
import { assertPushServiceEndpoint, deleteSubscription, saveSubscription } from "./repository.js";

// Web Push: the server's key, and each device a person turns notifications on for
// (docs/product.md#chat-and-notifications, docs/decisions/062-web-push-and-installable-app.md).

const errors = errorResponses(400, 401, 403);

const pushRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const drain = new PushDrain(() => deliverQueuedPushes(ctx, ctx.push), ctx.log);
  // Pushes go out within seconds of the commit that queued them, from whichever instance claims them first.
  const unlisten = await ctx.database.listen(PUSH_OUTBOX_CHANNEL, () => drain.kick());
  ctx.scheduler.register("push:deliver", () => deliverQueuedPushes(ctx, ctx.push));
  app.addHook("onClose", async () => {
    await unlisten();
    await drain.settled();
  });

  app.get(
    "/api/push/key",
    {
      config: { auth: "user" },
      schema: { tags: ["push"], operationId: "getPushKey", summary: "Returns the key browsers subscribe to pushes with", response: { 200: pushKeySchema, ...errorResponses(401) } },
    },
    () => ({ publicKey: ctx.push.publicKey }),
  );

  app.post(
    "/api/push/subscriptions",
    {
      config: { auth: "user" },
      schema: {
        tags: ["push"],
        operationId: "addPushSubscription",
        summary: "Turns on pushes for this device",
        body: pushSubscriptionBodySchema,
        response: { 200: okResponseSchema, ...errors, ...errorResponses(409) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      if (ctx.push.mode === "disabled") {
        throw conflict("Notifications on devices are turned off on this server. You still get them in the app and by e-mail.");
      }
      assertPushServiceEndpoint(request.body.endpoint, ctx.env);
      await saveSubscription(ctx.db, user.id, request.body);
      return { ok: true as const };
    },
  );

  app.delete(
    "/api/push/subscriptions",
    {
      config: { auth: "user" },
      schema: {
        tags: ["push"],
        operationId: "deletePushSubscription",
        summary: "Turns off pushes for this device",
        body: pushUnsubscribeBodySchema,
        response: { 200: okResponseSchema, ...errors },
      },
    },
    async (request) => {
      await deleteSubscription(ctx.db, requireUser(request).id, request.body.endpoint);
      return { ok: true as const };
    },
  );
};

export default pushRoutes;
