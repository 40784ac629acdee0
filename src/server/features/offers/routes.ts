import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { uuidParamSchema } from "../../../shared/common.js";
import { dollarsToCents, formatDollars, lineItemsOf } from "../../../shared/money.js";
import { MAX_OPEN_OFFERS, OFFER_MESSAGES, offerBodySchema, offerChangedMessage, offerListSchema, offerQuote, offerSchema } from "../../../shared/offers.js";
import { BLOCKED_MESSAGE } from "../../../shared/moderation.js";
import { maskContactDetails } from "../../contact-masking.js";
import type { AppContext } from "../../context.js";
import { conflict, errorResponses, forbidden, notFound } from "../../http-errors.js";
import { notifyUser } from "../../notify.js";
import { announceTaskUpdate } from "../../task-updates.js";
import { requireUser } from "../../plugins/auth.js";
import {
  acceptOffer,
  closeOtherOffers,
  listOffers,
  lockAndCountOpenOffers,
  offerContext,
  openOffer,
  priceTaskAt,
  upsertOffer,
  withdrawOffer,
  type OfferContext,
} from "./repository.js";

// Offers on a task that takes them (docs/product.md, Offers; docs/decisions/061-offers.md): a
// verified provider makes, changes or withdraws their offer while the task is open; the poster reads
// them all. Accepting one is the task table's accept_offer row (the tasks feature's route); this
// feature owns its two actions: offers.accept and notify.offers_decided.

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

function registerOfferActions(ctx: AppContext): void {
  // The transition's UPDATE assigned the offer's provider (the assign_offer_provider effect); here
  // the offer itself must still be open at the price the poster saw, or the whole transition rolls
  // back with 409: a provider who changed the price since cannot have it accepted unseen. The task is
  // then priced at the offer by the one fee function, the same quote the poster confirmed.
  ctx.taskActions.handle("offers.accept", async (event) => {
    const { task, offer: named, tx, now } = event;
    const offer = named === null ? null : await acceptOffer(tx, task.id, named, now);
    if (!offer || offer.providerId !== task.providerId) {
      const current = named === null ? null : await openOffer(tx, task.id, named.id);
      throw conflict(current && current.priceCents !== named?.priceCents ? offerChangedMessage(current.priceCents) : OFFER_MESSAGES.offerGone);
    }
    // The offer's quote, its line items stored by the fee rules in force (decision 073).
    const price = lineItemsOf(offerQuote(offer.priceCents, task.urgency));
    await priceTaskAt(tx, task.id, price);
    // The later actions and the answer read the task as it now is.
    Object.assign(task, price);
  });
  ctx.taskActions.handle("notify.offers_decided", async ({ task, tx, now }) => {
    const others = await closeOtherOffers(tx, task.id, now);
    if (task.providerId !== null) {
      await notifyUser(ctx, tx, {
        userId: task.providerId,
        kind: "offer_decided",
        title: "Your offer was accepted",
        body: `The poster accepted your offer of ${formatDollars(task.budgetCents)} on "${task.title}". The task is yours; wait for their payment before you start.`,
        taskId: task.id,
      });
    }
    for (const providerId of others) {
      await notifyUser(ctx, tx, {
        userId: providerId,
        kind: "offer_decided",
        title: "The poster chose another offer",
        body: `The poster of "${task.title}" accepted another provider's offer, so yours is closed. You can make offers on other tasks on the job board.`,
        taskId: task.id,
      });
    }
  });
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
        await notifyUser(ctx, tx, {
          userId: found.task.userId,
          kind: "offer_received",
          title: written.created ? "A new offer on your task" : "An offer on your task changed",
          body: `A provider ${written.created ? "offered" : "now offers"} ${formatDollars(written.offer.priceCents)} for "${found.task.title}". Compare the offers on the task page and accept the one you want.`,
          taskId,
        });
        // The poster's open task page lists the offers under the task: its frame refreshes them.
        await announceTaskUpdate(tx, taskId, "offer");
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
        await announceTaskUpdate(tx, taskId, "offer");
      });
      const [offer] = await listOffers(ctx.db, taskId, user.id);
      if (!offer) throw notFound("Offer not found");
      return offer;
    },
  );
};

export default offersRoutes;
