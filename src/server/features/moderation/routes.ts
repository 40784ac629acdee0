import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { okResponseSchema, uuidParamSchema } from "../../../shared/common.js";
import {
  adminReportSchema,
  blockedPersonSchema,
  closeReportBodySchema,
  createReportBodySchema,
  moderationReasonBodySchema,
  reportCreatedSchema,
  reportsQuerySchema,
  userIdParamSchema,
} from "../../../shared/moderation.js";
import { requireUser } from "../../plugins/auth.js";
import { rateLimit } from "../../plugins/rate-limit.js";
import {
  block,
  closeReport,
  createReport,
  hideReview,
  liftSuspension,
  listBlocks,
  listReports,
  removeTask,
  suspendUser,
  unblock,
  unhideReview,
  type ModerationDeps,
} from "./service.js";
import { errorResponses } from "../../http-errors.js";

// Reports, blocks and the admin's moderation tools (docs/product.md, Moderation).

const errors = errorResponses(400, 401, 403, 404, 409);
const tags = ["moderation"];

const moderationRoutes: FastifyPluginAsyncZod<ModerationDeps> = async (app, deps) => {
  const { ctx } = app;
  const user = { auth: "user" as const };
  const admin = { auth: "admin" as const };
  // Like every other write a person makes in bulk: a ceiling per person, so reports cannot flood the queue.
  const reportLimit = rateLimit(ctx.db, ctx.now, { name: "report-create", max: 20, windowMs: 3_600_000, key: (r) => requireUser(r).id });
  const blockLimit = rateLimit(ctx.db, ctx.now, { name: "block-change", max: 60, windowMs: 3_600_000, key: (r) => requireUser(r).id });

  app.post(
    "/api/reports",
    {
      config: user,
      preHandler: reportLimit,
      schema: { tags, operationId: "createReport", summary: "Reports a user, task, chat message or review to the admins", body: createReportBodySchema, response: { 201: reportCreatedSchema, ...errors, ...errorResponses(429) } },
    },
    async (request, reply) => reply.code(201).send(await createReport(ctx, requireUser(request).id, request.body)),
  );

  app.get(
    "/api/blocks",
    { config: user, schema: { tags, operationId: "listBlocks", summary: "Lists the people the caller has blocked", response: { 200: z.array(blockedPersonSchema), ...errors } } },
    async (request) => listBlocks(ctx, requireUser(request).id),
  );

  app.put(
    "/api/blocks/:userId",
    {
      config: user,
      preHandler: blockLimit,
      schema: { tags, operationId: "blockUser", summary: "Blocks a person: no chat, no claims and hidden from each other", params: userIdParamSchema, response: { 200: okResponseSchema, ...errors, ...errorResponses(429) } },
    },
    async (request) => {
      await block(ctx, requireUser(request).id, request.params.userId);
      return { ok: true as const };
    },
  );

  app.delete(
    "/api/blocks/:userId",
    {
      config: user,
      preHandler: blockLimit,
      schema: { tags, operationId: "unblockUser", summary: "Unblocks a person the caller blocked", params: userIdParamSchema, response: { 200: okResponseSchema, ...errors, ...errorResponses(429) } },
    },
    async (request) => {
      await unblock(ctx, requireUser(request).id, request.params.userId);
      return { ok: true as const };
    },
  );

  app.get(
    "/api/admin/reports",
    { config: admin, schema: { tags, operationId: "listReports", summary: "Lists reports with the reported thing in context", querystring: reportsQuerySchema, response: { 200: z.array(adminReportSchema), ...errors } } },
    async (request) => listReports(ctx, request.query.status),
  );

  app.post(
    "/api/admin/reports/:id/close",
    { config: admin, schema: { tags, operationId: "closeReport", summary: "Closes a report with its outcome", params: uuidParamSchema, body: closeReportBodySchema, response: { 200: okResponseSchema, ...errors } } },
    async (request) => {
      await closeReport(ctx, requireUser(request).id, request.params.id, request.body.outcome, request.body.note || null);
      return { ok: true as const };
    },
  );

  app.post(
    "/api/admin/tasks/:id/remove",
    { config: admin, schema: { tags, operationId: "removeTask", summary: "Removes a task, refunding a paid one in full", params: uuidParamSchema, body: moderationReasonBodySchema, response: { 200: okResponseSchema, ...errors } } },
    async (request) => {
      await removeTask(ctx, deps, requireUser(request), request.params.id, request.body.reason);
      return { ok: true as const };
    },
  );

  app.post(
    "/api/admin/reviews/:id/hide",
    { config: admin, schema: { tags, operationId: "hideReview", summary: "Hides a review and takes it out of the rating", params: uuidParamSchema, body: moderationReasonBodySchema, response: { 200: okResponseSchema, ...errors } } },
    async (request) => {
      await hideReview(ctx, requireUser(request).id, request.params.id, request.body.reason);
      return { ok: true as const };
    },
  );

  app.post(
    "/api/admin/reviews/:id/unhide",
    { config: admin, schema: { tags, operationId: "unhideReview", summary: "Shows a hidden review again", params: uuidParamSchema, body: moderationReasonBodySchema, response: { 200: okResponseSchema, ...errors } } },
    async (request) => {
      await unhideReview(ctx, requireUser(request).id, request.params.id, request.body.reason);
      return { ok: true as const };
    },
  );

  app.post(
    "/api/admin/users/:id/suspend",
    {
      config: admin,
      schema: { tags, operationId: "suspendUser", summary: "Suspends an account, ending its sessions and closing its tasks", params: uuidParamSchema, body: moderationReasonBodySchema, response: { 200: okResponseSchema, ...errors } },
    },
    async (request) => {
      await suspendUser(ctx, deps, requireUser(request), request.params.id, request.body.reason);
      return { ok: true as const };
    },
  );

  app.post(
    "/api/admin/users/:id/unsuspend",
    { config: admin, schema: { tags, operationId: "liftSuspension", summary: "Lifts an account's suspension", params: uuidParamSchema, body: moderationReasonBodySchema, response: { 200: okResponseSchema, ...errors } } },
    async (request) => {
      await liftSuspension(ctx, requireUser(request).id, request.params.id, request.body.reason);
      return { ok: true as const };
    },
  );
};

export default moderationRoutes;
