import { z } from "zod";
import type { Urgency } from "./constants.js";
import { text } from "./common.js";
import { formatDollarsExact, priceTask, type TaskPrice } from "./money.js";
import { dollarsSchema, offerPriceDollarsSchema } from "./money-schemas.js";
import { DEFAULT_PAYMENT_WINDOW_MINUTES } from "./task-lifecycle.js";
import { taskProviderCardSchema } from "./tasks.js";

// Offers on a task that takes them (docs/product.md, Offers; docs/decisions/061-offers.md). The
// price of an offer is a budget like the posted one: at least the minimum budget, fees on top from
// the one fee function (priceTask), so what the poster is asked to confirm is what they are charged.

export const OFFER_STATUSES = ["open", "withdrawn", "accepted", "closed"] as const;

/** Open offers one provider may hold at once (on tasks still open), so nobody floods every task. */
export const MAX_OPEN_OFFERS = 10;

export const OFFER_MESSAGES = {
  tooMany: `You already have ${MAX_OPEN_OFFERS} open offers. Withdraw one, or wait until a poster decides, before making another.`,
  notOffersTask: "This task takes claims, not offers. Claim it from the task page instead.",
  notOpen: "This task is no longer open, so its offers are closed.",
  ownTask: "You cannot make an offer on your own task.",
  notProvider: "Only verified providers can make offers. Apply to become a provider first.",
  declined: "The poster declined you on this task, so you cannot make an offer on it. You can make offers on other tasks.",
  noOffer: "You have no open offer on this task. Make one first.",
  offerGone: "That offer was withdrawn or changed, or the task is no longer open. Reload the page to see its offers now.",
  notPoster: "Only the task's poster can accept an offer.",
} as const;

export const offerBodySchema = z.object({
  price: offerPriceDollarsSchema,
  message: text(1, 1000, "Message"),
  availability: text(1, 200, "When you can do it"),
});
export type OfferBody = z.input<typeof offerBodySchema>;

export const offerSchema = z.object({
  id: z.uuid(),
  taskId: z.uuid(),
  /** The offered budget in dollars; the poster pays it plus the fees of the task's urgency. */
  price: z.number(),
  message: z.string(),
  availability: z.string(),
  status: z.enum(OFFER_STATUSES),
  createdAt: z.string(),
  updatedAt: z.string(),
  provider: taskProviderCardSchema,
});
export type Offer = z.infer<typeof offerSchema>;

/** The poster sees every offer; a provider sees their own (an empty list before they make one). */
export const offerListSchema = z.object({ offers: z.array(offerSchema) });
export type OfferList = z.infer<typeof offerListSchema>;

export const offerParamsSchema = z.object({
  id: z.uuid({ error: "Task id must be a UUID" }),
  offerId: z.uuid({ error: "Offer id must be a UUID" }),
});

/**
 * Accepting names the price the poster saw, in dollars as the offer list gives it: a provider who
 * changes the offer in the meantime changes nothing the poster did not see (docs/decisions/061-offers.md).
 */
export const acceptOfferBodySchema = z.object({ price: dollarsSchema });
export type AcceptOfferBody = z.input<typeof acceptOfferBodySchema>;

/** The refusal of an accept whose offer now has another price: the new price, and what to do. */
export function offerChangedMessage(priceCents: number): string {
  return `This offer changed to ${formatDollarsExact(priceCents)} since you opened it. Look at it again before accepting.`;
}

/**
 * What accepting an offer of `priceCents` costs the poster: the one fee function on the offered
 * budget and the task's urgency. The confirmation quotes it and the server charges it.
 */
export function offerQuote(priceCents: number, urgency: Urgency): TaskPrice {
  return priceTask(priceCents, urgency);
}

/** The confirmation's words, the total first (docs/product.md, Offers). */
export function offerAcceptWords(providerName: string, quote: TaskPrice): string {
  const urgent = quote.urgentFeeCents > 0 ? `, ${formatDollarsExact(quote.urgentFeeCents)} urgent fee` : "";
  return (
    `You will pay ${formatDollarsExact(quote.totalCents)} in total: ${providerName}'s price of ${formatDollarsExact(quote.budgetCents)}` +
    `${urgent} and the ${formatDollarsExact(quote.serviceFeeCents)} service fee. ` +
    `${providerName} is assigned at once and you have ${DEFAULT_PAYMENT_WINDOW_MINUTES} minutes to pay; the other offers are closed.`
  );
}
