import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { createPaymentGateway } from "../../adapters/payments/gateway.js";
import adminRoutes from "./admin-routes.js";
import { failStuckSandboxPayments } from "./charges.js";
import type { PaymentsDeps } from "./deps.js";
import { registerEscrowHandlers, releaseDue } from "./escrow.js";
import paymentRoutes from "./payment-routes.js";
import { payOutAll } from "./payouts.js";
import payoutRoutes from "./payout-routes.js";
import webhookRoutes from "./webhook-routes.js";

// Payments: escrow on a double-entry ledger (docs/decisions/008-payments-and-ledger.md).

const paymentsRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps: PaymentsDeps = { ctx: app.ctx, gateway: createPaymentGateway(app.ctx.env) };
  registerEscrowHandlers(deps);
  app.ctx.scheduler.register("payments:release-due", () => releaseDue(deps));
  app.ctx.scheduler.register("payments:payout-pending", () => payOutAll(deps));
  app.ctx.scheduler.register("payments:fail-stuck-processing", () => failStuckSandboxPayments(deps));

  await app.register(paymentRoutes, { deps });
  await app.register(payoutRoutes, { deps });
  await app.register(adminRoutes, { deps });
  await app.register(webhookRoutes, { deps });
};

export default paymentsRoutes;
