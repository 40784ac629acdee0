import fp from "fastify-plugin";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { createPaymentGateway } from "../../adapters/payments/create-payment-gateway.js";
import adminRoutes from "./admin-routes.js";
import type { DisputePhotoDeps } from "./dispute-photos.js";
import { registerPaymentActions } from "./actions.js";
import paymentRoutes from "./payment-routes.js";
import payoutRoutes from "./payout-routes.js";
import receiptRoutes from "./receipt-routes.js";
import { payOutAll } from "./payouts.js";
import { failStuckSandboxPayments, releaseDue, type PaymentsContext } from "./service.js";
import webhookRoutes from "./webhook-routes.js";

// Payments: escrow on a double-entry ledger (docs/decisions/008-payments-and-ledger.md), every
// money record moved by the money table (src/shared/money-lifecycle.ts).

const paymentsRoutes: FastifyPluginAsyncZod<DisputePhotoDeps & Pick<PaymentsContext, "recordSecurityEvent">> = async (app, deps) => {
  // The task's "pay" runs through the tasks feature's transition function, which its plugin decorates.
  const ctx: PaymentsContext = {
    ...app.ctx,
    gateway: await createPaymentGateway(app.ctx.env),
    taskTransition: app.taskTransition,
    recordSecurityEvent: deps.recordSecurityEvent,
  };
  registerPaymentActions(ctx);
  ctx.scheduler.register("payments:release-due", () => releaseDue(ctx));
  ctx.scheduler.register("payments:payout-pending", () => payOutAll(ctx));
  ctx.scheduler.register("payments:fail-stuck-processing", () => failStuckSandboxPayments(ctx));

  await app.register(paymentRoutes, { ctx, photos: { storage: deps.storage, completeUpload: deps.completeUpload } });
  await app.register(payoutRoutes, { ctx });
  await app.register(adminRoutes, { ctx });
  await app.register(webhookRoutes, { ctx });
  await app.register(receiptRoutes, { ctx });
};

// Encapsulated as before; the metadata makes Fastify refuse to start if the tasks plugin is missing.
export default fp(paymentsRoutes, { name: "payments", dependencies: ["tasks"], encapsulate: true });
