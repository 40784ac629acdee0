import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { backgroundCheckSchema, backgroundCheckServiceSchema, manualCheckBodySchema } from "../../../shared/background-checks.js";
import type { BackgroundChecks } from "../../adapters/background-checks/background-checks.js";
import { createBackgroundChecks } from "../../adapters/background-checks/create-background-checks.js";
import { errorResponses, notFound, unauthorized } from "../../http-errors.js";
import { requireUser } from "../../plugins/auth.js";
import { handleCheckEvent, recordManualCheck, startCheck } from "./background-checks.js";

// Background checks (docs/decisions/064-background-checks.md): the admin records or starts a
// check; Checkr's webhook reports the result.

const userParams = z.object({ userId: z.uuid({ error: "userId must be a UUID" }) });
const errors = errorResponses(400, 401, 403, 404, 409);

/**
 * Checkr's webhook. The signature covers the exact bytes Checkr sent, so this plugin (and only
 * this one, being encapsulated) keeps JSON bodies as a raw Buffer.
 */
const webhookRoutes: FastifyPluginAsyncZod<{ checks: BackgroundChecks }> = async (app, { checks }) => {
  const { ctx } = app;
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (_request, body, done) => done(null, body));
  app.post(
    "/api/background-checks/checkr/webhook",
    {
      config: { auth: "public" },
      schema: {
        tags: ["providers"],
        operationId: "receiveCheckrWebhook",
        summary: "Receives Checkr's signed background-check events",
        headers: z.object({ "x-checkr-signature": z.string().optional() }),
        response: { 200: z.object({ received: z.literal(true) }), ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      if (checks.name !== "checkr") throw notFound("No background-check service is connected, so there is no webhook here.");
      const signature = request.headers["x-checkr-signature"];
      if (!signature || !Buffer.isBuffer(request.body)) throw unauthorized("x-checkr-signature: a signed JSON body is required.");
      let event;
      try {
        event = checks.parseWebhook(request.body, signature);
      } catch {
        throw unauthorized("x-checkr-signature: the signature does not match this body. Check the webhook secret.");
      }
      await handleCheckEvent(ctx, event);
      return { received: true as const };
    },
  );
};

const backgroundCheckRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const checks = createBackgroundChecks(ctx.env);
  const admin = { auth: "admin" as const };

  // Which adapter runs checks, so the admin page offers "Start a check" only when a service is connected.
  app.get(
    "/api/admin/background-checks/service",
    {
      config: admin,
      schema: { tags: ["admin"], operationId: "getBackgroundCheckService", summary: "Says how background checks are done here", response: { 200: backgroundCheckServiceSchema, ...errors } },
    },
    async () => ({ service: checks.name }),
  );

  app.post(
    "/api/admin/providers/:userId/background-checks",
    {
      config: admin,
      schema: {
        tags: ["admin"],
        operationId: "recordBackgroundCheck",
        summary: "Records a background check an admin did by hand",
        params: userParams,
        body: manualCheckBodySchema,
        response: { 201: backgroundCheckSchema, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await recordManualCheck(ctx, requireUser(request).id, request.params.userId, request.body)),
  );

  app.post(
    "/api/admin/providers/:userId/background-checks/start",
    {
      config: admin,
      schema: {
        tags: ["admin"],
        operationId: "startBackgroundCheck",
        summary: "Starts a background check with the connected service",
        params: userParams,
        response: { 201: backgroundCheckSchema, ...errorResponses(502), ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await startCheck(ctx, checks, requireUser(request).id, request.params.userId)),
  );

  await app.register(webhookRoutes, { checks });
};

export default backgroundCheckRoutes;
