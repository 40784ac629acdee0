import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { badRequest, errorResponses, notFound } from "../../http-errors.js";
import { handleGatewayEvent } from "./gateway-events.js";
import type { PaymentsContext } from "./service.js";

// Stripe's webhook. The signature covers the exact bytes Stripe sent, so this plugin (and only
// this one, being encapsulated) keeps JSON bodies as a raw Buffer instead of parsing them.

const webhookRoutes: FastifyPluginAsyncZod<{ ctx: PaymentsContext }> = async (app, { ctx }) => {
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (_request, body, done) => done(null, body));

  app.post(
    "/api/stripe/webhook",
    {
      config: { auth: "public" },
      schema: {
        tags: ["payments"],
        operationId: "receiveStripeWebhook",
        summary: "Receives Stripe's signed events",
        headers: z.object({ "stripe-signature": z.string().optional() }),
        response: { 200: z.object({ received: z.literal(true) }), ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      if (ctx.gateway.name !== "stripe") throw notFound("Stripe is not configured");
      const signature = request.headers["stripe-signature"];
      if (!signature || !Buffer.isBuffer(request.body)) throw badRequest("stripe-signature: a signed JSON body is required");
      let event;
      try {
        event = ctx.gateway.parseWebhook(request.body, signature, ctx.now());
      } catch {
        throw badRequest("stripe-signature: the signature does not match");
      }
      await handleGatewayEvent(ctx, event);
      return { received: true as const };
    },
  );
};

export default webhookRoutes;
