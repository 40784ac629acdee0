import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { okResponseSchema, uuidParamSchema } from "../../../shared/common.js";
import { disputeMessageBodySchema, reportProblemBodySchema, taskDisputeAnswerSchema } from "../../../shared/disputes.js";
import { taskPhotoImageParamsSchema } from "../../../shared/task-photos.js";
import { dollarsToCents } from "../../../shared/money.js";
import {
  clientSecretSchema,
  createPaymentIntentBodySchema,
  earningsSchema,
  paymentConfigSchema,
  sandboxConfirmBodySchema,
  sandboxConfirmResultSchema,
  taskEscrowSchema,
  tipBodySchema,
  tipResultSchema,
} from "../../../shared/payments.js";
import { requireUser } from "../../plugins/auth.js";
import { rateLimit } from "../../plugins/rate-limit.js";
import { viewerOf } from "../../policy.js";
import { readDisputePhotoImage, type DisputePhotoDeps } from "./dispute-photos.js";
import { addDisputeMessage, reportProblem, taskDispute } from "./disputes.js";
import { earnings } from "./read-models.js";
import { approveRelease, confirmSandboxPayment, createPaymentIntent, taskEscrow, tipTask, type PaymentsContext } from "./service.js";
import { errorResponses } from "../../http-errors.js";

// The poster's side: pay a claimed task, approve the release, tip; either party's "report a problem"
// and its thread; and what the poster and provider see about a task's money.

const errors = errorResponses(400, 401, 403, 404, 409);

const paymentRoutes: FastifyPluginAsyncZod<{ ctx: PaymentsContext; photos: DisputePhotoDeps }> = async (app, { ctx, photos }) => {
  // Card testing is the abuse to stop here: a few tries per person, enough for typos.
  const cardLimit = rateLimit(ctx.db, ctx.now, {
    name: "payments:card",
    max: 20,
    windowMs: 15 * 60_000,
    key: (r) => r.user?.id ?? r.ip,
  });

  app.get(
    "/api/payments/config",
    { config: { auth: "public" }, schema: { tags: ["payments"], operationId: "getPaymentsConfig", summary: "Returns which payment provider the server uses", response: { 200: paymentConfigSchema } } },
    async () => ({ gateway: ctx.gateway.name, publishableKey: ctx.gateway.publishableKey }),
  );

  app.post(
    "/api/create-payment-intent",
    {
      config: { auth: "user", verifiedEmail: true },
      preHandler: cardLimit,
      schema: { tags: ["payments"], operationId: "createPaymentIntent", summary: "Starts paying a task into escrow", body: createPaymentIntentBodySchema, response: { 200: clientSecretSchema, ...errorResponses(429), ...errors } },
    },
    async (request) => ({
      clientSecret: await createPaymentIntent(ctx, requireUser(request).id, {
        taskId: request.body.taskId,
        amountCents: dollarsToCents(request.body.amount),
      }),
    }),
  );

  app.post(
    "/api/sandbox/payments/confirm",
    {
      config: { auth: "user", verifiedEmail: true },
      preHandler: cardLimit,
      schema: {
        tags: ["payments"],
        operationId: "confirmSandboxPayment",
        summary: "Confirms a payment in the sandbox provider",
        body: sandboxConfirmBodySchema,
        response: { 200: sandboxConfirmResultSchema, ...errorResponses(402, 429), ...errors },
      },
    },
    async (request) => {
      await confirmSandboxPayment(ctx, requireUser(request).id, request.body);
      return { status: "succeeded" as const };
    },
  );

  app.get(
    "/api/tasks/:id/escrow",
    { config: { auth: "user" }, schema: { tags: ["payments"], operationId: "getEscrow", summary: "Returns the money held for a task", params: uuidParamSchema, response: { 200: taskEscrowSchema, ...errors } } },
    async (request) => taskEscrow(ctx, request.params.id, viewerOf(requireUser(request))),
  );

  app.post(
    "/api/tasks/:id/approve-release",
    { config: { auth: "user" }, schema: { tags: ["payments"], operationId: "approveRelease", summary: "Releases the held money to the provider", params: uuidParamSchema, response: { 200: okResponseSchema, ...errors } } },
    async (request) => {
      await approveRelease(ctx, request.params.id, requireUser(request).id);
      return { ok: true as const };
    },
  );

  app.post(
    "/api/tasks/:id/report-problem",
    {
      config: { auth: "user" },
      schema: { tags: ["payments"], operationId: "reportProblem", summary: "Opens a dispute on a paid task; escrowed money waits for it", params: uuidParamSchema, body: reportProblemBodySchema, response: { 200: okResponseSchema, ...errors } },
    },
    async (request) => {
      await reportProblem(ctx, photos, request.params.id, requireUser(request).id, request.body);
      return { ok: true as const };
    },
  );

  app.get(
    "/api/tasks/:id/dispute",
    {
      config: { auth: "user" },
      schema: { tags: ["payments"], operationId: "getTaskDispute", summary: "Returns the task's dispute, its thread and where the money is", params: uuidParamSchema, response: { 200: taskDisputeAnswerSchema, ...errors } },
    },
    async (request) => taskDispute(ctx, request.params.id, viewerOf(requireUser(request))),
  );

  app.post(
    "/api/tasks/:id/dispute/messages",
    {
      config: { auth: "user" },
      schema: { tags: ["payments"], operationId: "addDisputeMessage", summary: "Adds a party's side or an admin's note to the open dispute", params: uuidParamSchema, body: disputeMessageBodySchema, response: { 200: okResponseSchema, ...errors } },
    },
    async (request) => {
      await addDisputeMessage(ctx, photos, request.params.id, viewerOf(requireUser(request)), request.body);
      return { ok: true as const };
    },
  );

  app.get(
    "/api/dispute-photos/:photoId/:size",
    {
      config: { auth: "user" },
      schema: { tags: ["payments"], operationId: "getDisputePhoto", summary: "Returns a dispute photo to the task's parties and admins", params: taskPhotoImageParamsSchema },
    },
    async (request, reply) => {
      const body = await readDisputePhotoImage(ctx, photos.storage, request.params.photoId, request.params.size, viewerOf(requireUser(request)));
      return (
        reply
          .header("content-type", "image/webp")
          // Evidence: kept by no shared cache, and by the browser only for this person (docs/security.md).
          .header("cache-control", "private, no-store")
          .header("x-content-type-options", "nosniff")
          .header("content-security-policy", "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'; sandbox")
          .send(body)
      );
    },
  );

  app.post(
    "/api/tasks/:id/tip",
    {
      config: { auth: "user", verifiedEmail: true },
      preHandler: cardLimit,
      schema: {
        tags: ["payments"],
        operationId: "tipProvider",
        summary: "Adds a tip for the provider",
        params: uuidParamSchema,
        body: tipBodySchema,
        response: { 200: tipResultSchema, ...errorResponses(429), ...errors },
      },
    },
    async (request) =>
      tipTask(ctx, request.params.id, requireUser(request).id, {
        amountCents: dollarsToCents(request.body.amount),
        idempotencyKey: request.body.idempotencyKey,
      }),
  );

  app.get(
    "/api/payments/earnings",
    { config: { auth: "user" }, schema: { tags: ["payments"], operationId: "getEarnings", summary: "Returns the signed-in provider's earnings", response: { 200: earningsSchema, ...errorResponses(401) } } },
    async (request) => earnings(ctx, requireUser(request).id),
  );
};

export default paymentRoutes;
