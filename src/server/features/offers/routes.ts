import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { registerOfferActions } from "./actions.js";
import { uuidParamSchema } from "../../../shared/common.js";
import { dollarsToCents } from "../../../shared/money.js";
import { MAX_OPEN_OFFERS, OFFER_MESSAGES, offerBodySchema, offerListSchema, offerSchema } from "../../../shared/offers.js";
import { BLOCKED_MESSAGE } from "../../../shared/moderation.js";
import { maskContactDetails } from "../../contact-masking.js";
import { conflict, errorResponses, forbidden, notFound } from "../../http-errors.js";
import { recordTaskEvent } from "../../transition-actions.js";
import { requireUser } from "../../plugins/auth.js";
import {
  listOffers,
  lockAndCountOpenOffers,
  offerContext,
  upsertOffer,
  withdrawOffer,
  type OfferContext,
} from "./repository.js";

// Offers on a task that takes them (docs/product.md, Offers; docs/decisions/061-offers.md): a
// verified provider makes, changes or withdraws their offer while the task is open; the poster reads
// them all. Accepting one is the task table's accept_offer row (the tasks feature's route); this
// feature's actions (offers.accept, notify.offers_decided, and its events' notice) are in actions.ts.

/** Why this person may not make or withdraw an offer on this task now, or null when they may. */
function offerRefusal(found: OfferContext | null, userId: string): Error | null {
  if (!found) return notFound("Task not found");
  if (found.task.userId === userId) return forbidden(OFFER_MESSAGES.ownTask);
  if (!found.verified) return forbidden(OFFER_MESSAGES.notProvider);
  if (found.task.hiringMode !== "offers") return conflict(OFFER_MESSAGES.notOffersTask);
  if (found.task.status !== "open") return conflict(OFFER_MESSAGES.notOpen);
  if (found.declined) return conflict(OFFER_MESSAGES.declined);
  return null;
}

const offersRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  registerOfferActions(ctx);

  app.get(
    "/api/tasks/:id/offers",
    {
      config: { auth: "user" },
      schema: {
        tags: ["offers"],
        operationId: "listTaskOffers",
        summary: "Lists a task's offers: all of them for its poster, one's own for anyone else",
        params: uuidParamSchema,
        response: { 200: offerListSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const found = await offerContext(ctx.db, request.params.id, user.id);
      if (!found) throw notFound("Task not found");
      return { offers: await listOffers(ctx.db, found.task.id, found.task.userId === user.id ? null : user.id) };
    },
  );

  app.put(
    "/api/tasks/:id/offer",
    {
      config: { auth: "user" },
      schema: {
        tags: ["offers"],
        operationId: "makeTaskOffer",
        summary: "Makes or changes the signed-in provider's offer on a task that takes offers",
        params: uuidParamSchema,
        body: offerBodySchema,
        response: {
          200: offerSchema,
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const now = ctx.now();
      const taskId = request.params.id;
      const body = request.body;
      await ctx.db.transaction(async (tx) => {
        const found = await offerContext(tx, taskId, user.id);
        const refusal = offerRefusal(found, user.id);
        if (refusal || !found) throw refusal ?? notFound("Task not found");
        // A blocked pair cannot work together: no offer either way (the claim row's not_blocked guard says the same).
        if (found.blocked) throw forbidden(BLOCKED_MESSAGE);
        if ((await lockAndCountOpenOffers(tx, user.id, taskId)) >= MAX_OPEN_OFFERS) throw conflict(OFFER_MESSAGES.tooMany);
        // Masked before it is stored, as public questions are: an offer is the other way to hand the
        // poster a number before anything is paid (docs/decisions/070-contact-masking.md).
        const written = await upsertOffer(tx, {
          taskId,
          providerId: user.id,
          priceCents: dollarsToCents(body.price),
          message: maskContactDetails(body.message),
          availability: maskContactDetails(body.availability),
          now,
        });
        if (!written) throw conflict(OFFER_MESSAGES.notOpen);
        // The poster hears of it, and their open task page's frame refreshes the offers (the row's actions).
        await recordTaskEvent(ctx.taskEventActions, "offer_made", {
          taskId,
          actorId: user.id,
          tx,
          now,
          task: found.task,
          offer: { priceCents: written.offer.priceCents, created: written.created },
        });
      });
      const [offer] = await listOffers(ctx.db, taskId, user.id);
      if (!offer) throw notFound("Offer not found");
      return offer;
    },
  );

  app.delete(
    "/api/tasks/:id/offer",
    {
      config: { auth: "user" },
      schema: {
        tags: ["offers"],
        operationId: "withdrawTaskOffer",
        summary: "Withdraws the signed-in provider's open offer on a task",
        params: uuidParamSchema,
        response: {
          200: offerSchema,
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const taskId = request.params.id;
      const found = await offerContext(ctx.db, taskId, user.id);
      const refusal = offerRefusal(found, user.id);
      if (refusal) throw refusal;
      await ctx.db.transaction(async (tx) => {
        if (!(await withdrawOffer(tx, taskId, user.id, ctx.now()))) throw conflict(OFFER_MESSAGES.noOffer);
        await recordTaskEvent(ctx.taskEventActions, "offer_withdrawn", { taskId, actorId: user.id, tx, now: ctx.now() });
      });
      const [offer] = await listOffers(ctx.db, taskId, user.id);
      if (!offer) throw notFound("Offer not found");
      return offer;
    },
  );
};

export default offersRoutes;
