import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { okResponseSchema } from "../../../shared/common.js";
import { accountLinkSchema, connectAccountSchema } from "../../../shared/payments.js";
import { requireUser } from "../../plugins/auth.js";
import { completeSandboxOnboarding, createPayoutAccount, createPayoutAccountLink } from "./payouts.js";
import type { PaymentsContext } from "./service.js";
import { errorResponses } from "../../http-errors.js";

// Payout onboarding (docs/product.md, Money): create the account, then follow the link; the sandbox's link is our
// own page that enables payouts.

const errors = errorResponses(401, 403, 404, 409);

const payoutRoutes: FastifyPluginAsyncZod<{ ctx: PaymentsContext }> = async (app, { ctx }) => {
  app.post(
    "/api/stripe/connect/account",
    // The payout account decides where money goes: a fresh proof first (docs/decisions/050-step-up-and-security-log.md).
    { config: { auth: "user", freshProof: true }, schema: { tags: ["payments"], operationId: "createPayoutAccount", summary: "Creates the provider's payout account", response: { 201: connectAccountSchema, ...errors } } },
    async (request, reply) => {
      const user = requireUser(request);
      const accountId = await createPayoutAccount(ctx, user.id, user.email);
      await ctx.recordSecurityEvent(ctx.db, request, ctx.now(), { userId: user.id, event: "payout_account_created", result: "success" });
      return reply.code(201).send({ accountId });
    },
  );

  app.post(
    "/api/stripe/connect/account-link",
    { config: { auth: "user", freshProof: true }, schema: { tags: ["payments"], operationId: "createPayoutOnboardingLink", summary: "Returns the link to finish payout onboarding", response: { 200: accountLinkSchema, ...errors } } },
    async (request) => {
      const user = requireUser(request);
      // The link opens the payment provider's form where the details are entered or changed.
      const url = await createPayoutAccountLink(ctx, user.id);
      await ctx.recordSecurityEvent(ctx.db, request, ctx.now(), { userId: user.id, event: "payout_details_opened", result: "success" });
      return { url };
    },
  );

  app.post(
    "/api/sandbox/payouts/complete-onboarding",
    { config: { auth: "user" }, schema: { tags: ["payments"], operationId: "completeSandboxOnboarding", summary: "Finishes payout onboarding in the sandbox provider", response: { 200: okResponseSchema, ...errors } } },
    async (request) => {
      const user = requireUser(request);
      await completeSandboxOnboarding(ctx, user.id);
      await ctx.recordSecurityEvent(ctx.db, request, ctx.now(), { userId: user.id, event: "payout_details_completed", result: "success" });
      return { ok: true as const };
    },
  );
};

export default payoutRoutes;
