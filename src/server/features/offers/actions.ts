import { formatDollars, lineItemsOf } from "../../../shared/money.js";
import { OFFER_MESSAGES, offerChangedMessage, offerQuote } from "../../../shared/offers.js";
import type { AppContext } from "../../context.js";
import { sendNotice } from "../../declared-notices.js";
import { conflict } from "../../http-errors.js";
import { acceptOffer, closeAcceptedOffer, closeOtherOffers, openOffer, priceTaskAt } from "./repository.js";

// The offers feature's actions, one typed registration each (docs/decisions/083-every-consequence-in-its-row.md):
// the task table's offers.accept and notify.offers_decided (the accept_offer row, decision 061),
// offers.release (the rows by which the chosen provider leaves), and
// the offer_made event's notice to the poster. Its notices are the ones their rows declare.

export function registerOfferActions(ctx: AppContext): void {
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
      await sendNotice(ctx, tx, "notify.offers_decided", "provider", {
        userId: task.providerId,
        title: "Your offer was accepted",
        body: `The poster accepted your offer of ${formatDollars(task.budgetCents)} on "${task.title}". The task is yours; wait for their payment before you start.`,
        taskId: task.id,
      });
    }
    for (const providerId of others) {
      await sendNotice(ctx, tx, "notify.offers_decided", "offerers_not_chosen", {
        userId: providerId,
        title: "The poster chose another offer",
        body: `The poster of "${task.title}" accepted another provider's offer, so yours is closed. You can make offers on other tasks on the job board.`,
        taskId: task.id,
      });
    }
  });
  // The chosen provider left (withdrew, taken off, or the payment window lapsed): the task
  // is open again and their accepted offer is closed, so they may offer again like anyone.
  ctx.taskActions.handle("offers.release", async ({ task, tx, now }) => closeAcceptedOffer(tx, task.id, now));
  // The offer_made event (src/shared/task-events.ts): the poster hears of a new or changed offer.
  ctx.taskEventActions.handle("notify.poster_offer_received", async (event) => {
    const { task, offer, tx } = event;
    if (!task || !offer) throw new Error(`${event.event} ran without its task and offer`);
    await sendNotice(ctx, tx, "notify.poster_offer_received", "poster", {
      userId: task.userId,
      title: offer.created ? "A new offer on your task" : "An offer on your task changed",
      body: `A provider ${offer.created ? "offered" : "now offers"} ${formatDollars(offer.priceCents)} for "${task.title}". Compare the offers on the task page and accept the one you want.`,
      taskId: event.taskId,
    });
  });
}
