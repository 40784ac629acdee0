import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponseSchema, okResponseSchema } from "../../../shared/common.js";
import { resolveDisputeBodySchema } from "../../../shared/disputes.js";
import { adminFinanceSchema } from "../../../shared/payments.js";
import { requireUser } from "../../plugins/auth.js";
import { openDisputes, resolveDispute } from "./disputes.js";
import { adminFinance } from "./repository.js";
import type { PaymentsContext } from "./service.js";

// The admin's finance view (totals, the guarantee account, open disputes by age) and dispute
// resolution with any split; every resolution lands in the audit log.

const taskIdParams = z.object({ taskId: z.uuid({ error: "taskId must be a UUID" }) });

const adminRoutes: FastifyPluginAsyncZod<{ ctx: PaymentsContext }> = async (app, { ctx }) => {
  app.get(
    "/api/admin/finance",
    { config: { auth: "admin" }, schema: { tags: ["payments"], operationId: "getFinance", summary: "Returns the platform's money totals and disputes", response: { 200: adminFinanceSchema, 401: errorResponseSchema, 403: errorResponseSchema } } },
    async () => ({ ...(await adminFinance(ctx)), disputes: await openDisputes(ctx) }),
  );

  app.post(
    "/api/admin/disputes/:taskId/resolve",
    {
      config: { auth: "admin" },
      schema: {
        tags: ["payments"],
        operationId: "resolveDispute",
        summary: "Resolves a dispute with a refund to the poster and the rest released",
        params: taskIdParams,
        body: resolveDisputeBodySchema,
        response: {
          200: okResponseSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
          404: errorResponseSchema,
          409: errorResponseSchema,
        },
      },
    },
    async (request) => {
      await resolveDispute(ctx, request.params.taskId, requireUser(request), request.body);
      return { ok: true as const };
    },
  );
};

export default adminRoutes;
