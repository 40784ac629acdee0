import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { uuidParamSchema } from "../../../shared/common.js";
import {
  payoutHistorySchema,
  receiptListSchema,
  receiptSchema,
  statementYearParamsSchema,
  yearlyStatementSchema,
  type Receipt,
} from "../../../shared/receipts.js";
import type { AppContext } from "../../context.js";
import { errorResponses, notFound } from "../../http-errors.js";
import { requireUser } from "../../plugins/auth.js";
import { isPartyOrAdmin, type Viewer, viewerOf } from "../../policy.js";
import { csvStream } from "./csv.js";
import { receiptPdf, statementPdf } from "./pdf.js";
import { findReceipt, receiptsOfPayer } from "./receipt-ledger.js";
import { EARNINGS_CSV_HEADER, earningsCsvRows, payoutHistory, yearlyStatement } from "./statements.js";

// The poster's receipts and the provider's statements (docs/decisions/060-receipts-from-the-ledger.md).
// A receipt is the payer's and the admins' alone; anyone else is told it does not exist, as for
// files that are not theirs. Statements are always the caller's own.

const errors = errorResponses(400, 401, 403, 404);

async function receiptFor(ctx: AppContext, id: string, viewer: Viewer): Promise<Receipt> {
  const found = await findReceipt(ctx, id);
  if (!found || !isPartyOrAdmin(viewer, [found.payerId])) {
    throw notFound("Receipt not found. Open your receipts from the Receipts page.");
  }
  return found.receipt;
}

const day = (date: Date) => date.toISOString().slice(0, 10);

const receiptRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const user = { auth: "user" } as const;

  app.get(
    "/api/receipts",
    { config: user, schema: { tags: ["payments"], operationId: "listReceipts", summary: "Lists the signed-in person's receipts", response: { 200: receiptListSchema, ...errors } } },
    async (request) => ({ receipts: await receiptsOfPayer(ctx, requireUser(request).id) }),
  );

  app.get(
    "/api/receipts/:id",
    { config: user, schema: { tags: ["payments"], operationId: "getReceipt", summary: "Returns one receipt of a payment, tip or refund", params: uuidParamSchema, response: { 200: receiptSchema, ...errors } } },
    async (request, reply) => {
      const receipt = await receiptFor(ctx, request.params.id, viewerOf(requireUser(request)));
      return reply.header("cache-control", "private, no-store").send(receipt);
    },
  );

  app.get(
    "/api/receipts/:id/pdf",
    { config: user, schema: { tags: ["payments"], operationId: "downloadReceiptPdf", summary: "Downloads one receipt as a PDF", params: uuidParamSchema } },
    async (request, reply) => {
      const receipt = await receiptFor(ctx, request.params.id, viewerOf(requireUser(request)));
      return reply
        .type("application/pdf")
        .header("content-disposition", `attachment; filename="errandly-receipt-${receipt.number}.pdf"`)
        .header("cache-control", "private, no-store")
        .send(await receiptPdf(receipt));
    },
  );

  app.get(
    "/api/payments/payouts",
    { config: user, schema: { tags: ["payments"], operationId: "listPayouts", summary: "Lists the signed-in provider's payouts and the tasks each paid", response: { 200: payoutHistorySchema, ...errors } } },
    async (request) => payoutHistory(ctx, requireUser(request).id),
  );

  app.get(
    "/api/payments/earnings.csv",
    { config: user, schema: { tags: ["payments"], operationId: "exportEarningsCsv", summary: "Downloads the signed-in provider's earnings as CSV" } },
    async (request, reply) =>
      reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="errandly-earnings-${day(ctx.now())}.csv"`)
        .header("cache-control", "private, no-store")
        .send(csvStream(EARNINGS_CSV_HEADER, earningsCsvRows(ctx, requireUser(request).id))),
  );

  app.get(
    "/api/payments/statements/:year",
    {
      config: user,
      schema: { tags: ["payments"], operationId: "getYearlyStatement", summary: "Returns the signed-in provider's statement for a year", params: statementYearParamsSchema, response: { 200: yearlyStatementSchema, ...errors } },
    },
    async (request) => yearlyStatement(ctx, requireUser(request), request.params.year),
  );

  app.get(
    "/api/payments/statements/:year/pdf",
    { config: user, schema: { tags: ["payments"], operationId: "downloadYearlyStatementPdf", summary: "Downloads the signed-in provider's yearly statement as a PDF", params: statementYearParamsSchema } },
    async (request, reply) => {
      const statement = await yearlyStatement(ctx, requireUser(request), request.params.year);
      return reply
        .type("application/pdf")
        .header("content-disposition", `attachment; filename="errandly-statement-${statement.year}.pdf"`)
        .header("cache-control", "private, no-store")
        .send(await statementPdf(statement));
    },
  );
};

export default receiptRoutes;
