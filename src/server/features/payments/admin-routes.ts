import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { okResponseSchema } from "../../../shared/common.js";
import { resolveDisputeBodySchema } from "../../../shared/disputes.js";
import { adminFinanceSchema } from "../../../shared/payments.js";
import { ledgerPageSchema, ledgerSearchQuerySchema } from "../../../shared/receipts.js";
import { requireUser } from "../../plugins/auth.js";
import { csvStream } from "./csv.js";
import { openDisputes, resolveDispute } from "./disputes.js";
import { LEDGER_CSV_HEADER, ledgerCsvRows, searchLedger } from "./ledger-search.js";
import { adminFinance } from "./read-models.js";
import type { PaymentsContext } from "./service.js";
import { errorResponses } from "../../http-errors.js";

// The admin's finance view (totals, the guarantee account, open disputes by age) and dispute
// resolution with any split; every resolution lands in the audit log.

const taskIdParams = z.object({ taskId: z.uuid({ error: "taskId must be a UUID" }) });

const adminRoutes: FastifyPluginAsyncZod<{ ctx: PaymentsContext }> = async (app, { ctx }) => {
  app.get(
    "/api/admin/finance",
    { config: { auth: "admin" }, schema: { tags: ["payments"], operationId: "getFinance", summary: "Returns the platform's money totals and disputes", response: { 200: adminFinanceSchema, ...errorResponses(401, 403) } } },
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
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request) => {
      await resolveDispute(ctx, request.params.taskId, requireUser(request), request.body);
      return { ok: true as const };
    },
  );

  const ledgerErrors = errorResponses(400, 401, 403);
  app.get(
    "/api/admin/ledger",
    {
      config: { auth: "admin" },
      schema: { tags: ["payments"], operationId: "searchLedger", summary: "Searches ledger entries by account, task or date", querystring: ledgerSearchQuerySchema, response: { 200: ledgerPageSchema, ...ledgerErrors } },
    },
    async (request) => searchLedger(ctx, request.query),
  );

  app.get(
    "/api/admin/ledger.csv",
    { config: { auth: "admin" }, schema: { tags: ["payments"], operationId: "exportLedgerCsv", summary: "Downloads the matching ledger entries as CSV", querystring: ledgerSearchQuerySchema } },
    async (request, reply) => {
      // Built first, so a refused query answers 400 before any line of CSV is sent.
      const rows = ledgerCsvRows(ctx, request.query);
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="errandly-ledger-${ctx.now().toISOString().slice(0, 10)}.csv"`)
        .header("cache-control", "private, no-store")
        .send(csvStream(LEDGER_CSV_HEADER, rows));
    },
  );
};

export default adminRoutes;
