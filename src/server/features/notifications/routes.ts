import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  markNotificationsReadBodySchema,
  notificationListSchema,
  notificationPreferencesSchema,
  updateNotificationPreferencesSchema,
} from "../../../shared/notifications.js";
import { announceNotifications } from "../../notify.js";
import { requireUser } from "../../plugins/auth.js";
import { getPreferences, listNotifications, markNotificationsRead, updatePreferences } from "./repository.js";
import { registerTaskNotices } from "./actions.js";
import { errorResponses } from "../../http-errors.js";

const notificationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  registerTaskNotices(ctx);

  app.get(
    "/api/notifications",
    {
      config: { auth: "user" },
      schema: { tags: ["notifications"], operationId: "listNotifications", summary: "Lists the signed-in person's notifications", response: { 200: notificationListSchema, ...errorResponses(401) } },
    },
    async (request) => listNotifications(ctx.db, requireUser(request).id),
  );

  app.post(
    "/api/notifications/read",
    {
      config: { auth: "user" },
      schema: {
        tags: ["notifications"],
        operationId: "markNotificationsRead",
        summary: "Marks notifications as read",
        body: markNotificationsReadBodySchema,
        response: { 200: notificationListSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      await markNotificationsRead(ctx.db, user.id, request.body.ids);
      // The user's other tabs and devices update their bell too.
      await announceNotifications(ctx, user.id);
      return listNotifications(ctx.db, user.id);
    },
  );

  app.get(
    "/api/notifications/preferences",
    {
      config: { auth: "user" },
      schema: { tags: ["notifications"], operationId: "getNotificationPreferences", summary: "Returns which e-mails and pushes the person wants", response: { 200: notificationPreferencesSchema, ...errorResponses(401) } },
    },
    async (request) => getPreferences(ctx.db, requireUser(request).id),
  );

  app.put(
    "/api/notifications/preferences",
    {
      config: { auth: "user" },
      schema: {
        tags: ["notifications"],
        operationId: "setNotificationPreferences",
        summary: "Sets which e-mails and pushes the person wants",
        body: updateNotificationPreferencesSchema,
        response: { 200: notificationPreferencesSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => updatePreferences(ctx.db, requireUser(request).id, request.body),
  );
};

export default notificationsRoutes;
