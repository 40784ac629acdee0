import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponseSchema, okResponseSchema } from "../../../shared/common.js";
import { adminFinanceSchema, resolveDisputeBodySchema } from "../../../shared/payments.js";
import { requireUser } from "../../plugins/auth.js";
import type { PaymentsDeps } from "./deps.js";
import { resolveDispute } from "./escrow.js";
import { adminFinance } from "./reports.js";

// The admin's finance view and dispute resolution; every resolution lands in the audit log.

const taskIdParams = z.object({ taskId: z.uuid({ error: "taskId must be a UUID" }) });

const adminRoutes: FastifyPluginAsyncZod<{ deps: PaymentsDeps }> = async (app, { deps }) => {
  app.get(
    "/api/admin/finance",
    { config: { auth: "admin" }, schema: { tags: ["payments"], response: { 200: adminFinanceSchema, 401: errorResponseSchema, 403: errorResponseSchema } } },
    async () => adminFinance(deps.ctx.db),
  );

  app.post(
    "/api/admin/disputes/:taskId/resolve",
    {
      config: { auth: "admin" },
      schema: {
        tags: ["payments"],
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
      await resolveDispute(deps, request.params.taskId, requireUser(request).id, request.body);
      return { ok: true as const };
    },
  );
};

export default adminRoutes;
