import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { okResponseSchema } from "../../../shared/common.js";
import {
  activeProviderSchema,
  applicationsQuerySchema,
  auditEntrySchema,
  outboxEntrySchema,
  providerProfileSchema,
  rejectBodySchema,
} from "../../../shared/providers.js";
import { moderationReasonBodySchema } from "../../../shared/moderation.js";
import { requireUser } from "../../plugins/auth.js";
import { listActiveProviders, listApplications, listAudit, listOutbox } from "./repository.js";
import { decide } from "./service.js";
import { errorResponses } from "../../http-errors.js";

const userParams = z.object({ userId: z.uuid({ error: "userId must be a UUID" }) });
const errors = errorResponses(400, 401, 403, 404, 409);

const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const admin = { auth: "admin" as const };

  // Both open lists by default (the dashboard's two tabs); ?status= narrows to one.
  app.get(
    "/api/admin/applications/pending",
    {
      config: admin,
      schema: { tags: ["admin"], operationId: "listPendingApplications", summary: "Lists the provider applications waiting for review", querystring: applicationsQuerySchema, response: { 200: z.array(providerProfileSchema), ...errors } },
    },
    async (request) => {
      const { status } = request.query;
      return listApplications(ctx.db, status === "all" ? ["pending", "under_review"] : [status]);
    },
  );

  app.get(
    "/api/admin/providers/active",
    { config: admin, schema: { tags: ["admin"], operationId: "listActiveProviders", summary: "Lists the approved providers", response: { 200: z.array(activeProviderSchema), ...errors } } },
    async () => listActiveProviders(ctx.db),
  );

  app.post(
    "/api/admin/applications/:userId/approve",
    { config: admin, schema: { tags: ["admin"], operationId: "approveApplication", summary: "Approves a provider application", params: userParams, response: { 200: okResponseSchema, ...errors } } },
    async (request) => {
      await decide(ctx, requireUser(request).id, request.params.userId, "approve", null);
      return { ok: true as const };
    },
  );

  app.post(
    "/api/admin/applications/:userId/reject",
    {
      config: admin,
      schema: { tags: ["admin"], operationId: "rejectApplication", summary: "Rejects a provider application", params: userParams, body: rejectBodySchema, response: { 200: okResponseSchema, ...errors } },
    },
    async (request) => {
      await decide(ctx, requireUser(request).id, request.params.userId, "reject", request.body.reason);
      return { ok: true as const };
    },
  );

  app.post(
    "/api/admin/applications/:userId/review",
    { config: admin, schema: { tags: ["admin"], operationId: "reviewApplication", summary: "Marks a provider application as under review", params: userParams, response: { 200: okResponseSchema, ...errors } } },
    async (request) => {
      await decide(ctx, requireUser(request).id, request.params.userId, "review", null);
      return { ok: true as const };
    },
  );

  // Moderation (docs/product.md, Moderation): an approved provider loses the approval; applying again goes through the review above.
  app.post(
    "/api/admin/providers/:userId/revoke",
    {
      config: admin,
      schema: { tags: ["moderation"], operationId: "revokeProviderApproval", summary: "Revokes an approved provider's approval", params: userParams, body: moderationReasonBodySchema, response: { 200: okResponseSchema, ...errors } },
    },
    async (request) => {
      await decide(ctx, requireUser(request).id, request.params.userId, "revoke", request.body.reason);
      return { ok: true as const };
    },
  );

  app.get(
    "/api/admin/audit-log",
    { config: admin, schema: { tags: ["admin"], operationId: "listAuditLog", summary: "Lists the administrators' recorded actions", response: { 200: z.array(auditEntrySchema), ...errors } } },
    async () => listAudit(ctx.db),
  );

  app.get(
    "/api/admin/outbox",
    { config: admin, schema: { tags: ["admin"], operationId: "listOutbox", summary: "Lists the e-mails in the outbox", response: { 200: z.array(outboxEntrySchema), ...errors } } },
    async () => listOutbox(ctx.db),
  );
};

export default adminRoutes;
