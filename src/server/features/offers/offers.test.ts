import { and, eq } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MIN_BUDGET_CENTS } from "../../../shared/constants.js";
import type { NotificationList } from "../../../shared/notifications.js";
import { MAX_OPEN_OFFERS, OFFER_MESSAGES, offerAcceptWords, offerQuote, type OfferList } from "../../../shared/offers.js";
import { formatDollarsExact } from "../../../shared/money.js";
import { HIDDEN } from "../../contact-masking.js";
import { taskOffers } from "../../db/schema/offers.js";
import { call, createUser, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import { GOOD_CARD } from "../../../../test/fixtures/cards.js";
import { BASE_OFFER, createPoster, createProvider, makeOffer, pay, postOffersTask, postTask, startPayment, taskRow, transition } from "../../../../test/fixtures/factory.js";

// Offers on a task that takes them (docs/product.md, Offers; docs/decisions/061-offers.md).

const t = await useTestApp({ PAYMENT_WINDOW_MINUTES: "30" });

/** Accepts at the price the poster saw: the base offer's unless given. */
const accept = (user: TestUser, taskId: string, offerId: string, price: number = BASE_OFFER.price) =>
  call(t, user, { method: "POST", url: `/api/tasks/${taskId}/offers/${offerId}/accept`, payload: { price } });
const withdraw = (user: TestUser, taskId: string) => call(t, user, { method: "DELETE", url: `/api/tasks/${taskId}/offer` });
const offersSeenBy = async (user: TestUser, taskId: string) => {
  const res = await call(t, user, { url: `/api/tasks/${taskId}/offers` });
  expect(res.statusCode).toBe(200);
  return res.json<OfferList>().offers;
};
async function noticesOf(user: TestUser, kind: string) {
  const res = await call(t, user, { url: "/api/notifications" });
  return res.json<NotificationList>().notifications.filter((n) => n.kind === kind);
}

describe("posting", () => {
  it("takes claims by default and offers when asked, and the task says which", async () => {
    const poster = await createPoster(t);
    expect((await postTask(t, poster)).hiringMode).toBe("first_to_claim");
    const task = await postOffersTask(t, poster);
    expect(task.hiringMode).toBe("offers");
    const detail = (await call(t, null, { url: `/api/tasks/${task.id}` })).json<{ hiringMode: string }>();
    expect(detail.hiringMode).toBe("offers");
  });

  it("refuses a claim on a task that takes offers, and an offer on one that takes claims", async () => {
    const poster = await createPoster(t);
    const provider = await createProvider(t);
    const offersTask = await postOffersTask(t, poster);
    const res = await call(t, provider, { method: "PATCH", url: `/api/tasks/${offersTask.id}/claim` });
    expect(res.statusCode).toBe(409);
    expect(res.json<{ message: string }>().message).toBe("This task takes offers, not claims. Make an offer on it instead.");
    const claimTask = await postTask(t, poster);
    const offer = await call(t, provider, { method: "PUT", url: `/api/tasks/${claimTask.id}/offer`, payload: { price: 30, message: "Hi", availability: "Today" } });
    expect(offer.statusCode).toBe(409);
    expect(offer.json<{ message: string }>().message).toBe(OFFER_MESSAGES.notOffersTask);
  });
});

describe("making an offer", () => {
  it("stores the offer, tells the poster, and shows the poster every offer with the provider's card", async () => {
    const poster = await createPoster(t);
    const task = await postOffersTask(t, poster);
    const sam = await createProvider(t, { firstName: "Sam", lastName: "Porter" });
    const ana = await createProvider(t);
    await makeOffer(t, sam, task.id, { price: 40 });
    await makeOffer(t, ana, task.id, { price: 60 });
    const seen = await offersSeenBy(poster, task.id);
    expect(seen.map((o) => o.price)).toEqual([40, 60]);
    expect(seen[0]?.provider).toEqual({ id: sam.id, displayName: "Sam P.", profilePhotoUrl: null, rating: null, reviewCount: 0, completedTasks: 0 });
    expect(seen[0]).toMatchObject({ message: "I can do this carefully.", availability: "Saturday morning", status: "open" });
    // A provider sees only their own offer.
    expect((await offersSeenBy(ana, task.id)).map((o) => o.provider.id)).toEqual([ana.id]);
    expect(await noticesOf(poster, "offer_received")).toHaveLength(2);
  });

  it("refuses a price under the minimum budget with the field's message, said as an offer", async () => {
    const task = await postOffersTask(t, await createPoster(t));
    const res = await call(t, await createProvider(t), { method: "PUT", url: `/api/tasks/${task.id}/offer`, payload: { price: 19.99, message: "Hi", availability: "Today" } });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ fieldErrors: Record<string, string> }>().fieldErrors.price).toBe("The lowest offer is $20. Raise your price to at least that.");
  });

  it("refuses people who are not verified providers, and the poster", async () => {
    const poster = await createPoster(t);
    const task = await postOffersTask(t, poster);
    for (const [who, message] of [[await createUser(t), OFFER_MESSAGES.notProvider], [poster, OFFER_MESSAGES.ownTask]] as const) {
      const res = await call(t, who, { method: "PUT", url: `/api/tasks/${task.id}/offer`, payload: { price: 30, message: "Hi", availability: "Today" } });
      expect(res.statusCode).toBe(403);
      expect(res.json<{ message: string }>().message).toBe(message);
    }
  });

  it("lets the provider change and withdraw their offer while the task is open", async () => {
    const poster = await createPoster(t);
    const task = await postOffersTask(t, poster);
    const provider = await createProvider(t);
    const id = await makeOffer(t, provider, task.id, { price: 40 });
    expect(await makeOffer(t, provider, task.id, { price: 35, availability: "Sunday" })).toBe(id);
    expect((await offersSeenBy(poster, task.id))[0]).toMatchObject({ price: 35, availability: "Sunday" });
    expect((await withdraw(provider, task.id)).statusCode).toBe(200);
    expect(await offersSeenBy(poster, task.id)).toEqual([]);
    const again = await withdraw(provider, task.id);
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toBe(OFFER_MESSAGES.noOffer);
  });

  it("masks contact details in the message and the availability before storing them", async () => {
    const poster = await createPoster(t);
    const task = await postOffersTask(t, poster);
    const provider = await createProvider(t);
    await makeOffer(t, provider, task.id, { message: "Call me on 410  555  1234 or sam at gmail", availability: "Any time, wa.me/14105551234" });
    expect((await offersSeenBy(poster, task.id))[0]).toMatchObject({
      message: `Call me on ${HIDDEN.phone} or ${HIDDEN.email}`,
      availability: `Any time, ${HIDDEN.link}`,
    });
    const [stored] = await t.database.db.select().from(taskOffers).where(eq(taskOffers.taskId, task.id));
    expect(stored?.message).toBe(`Call me on ${HIDDEN.phone} or ${HIDDEN.email}`);
  });

  it(`holds at most ${MAX_OPEN_OFFERS} open offers per provider, counting only open tasks`, async () => {
    const poster = await createPoster(t);
    const provider = await createProvider(t);
    const tasks = [];
    for (let i = 0; i <= MAX_OPEN_OFFERS; i += 1) tasks.push(await postOffersTask(t, poster));
    for (const task of tasks.slice(0, MAX_OPEN_OFFERS)) await makeOffer(t, provider, task.id);
    const last = tasks[MAX_OPEN_OFFERS];
    if (!last) throw new Error("no last task");
    const res = await call(t, provider, { method: "PUT", url: `/api/tasks/${last.id}/offer`, payload: { price: 30, message: "Hi", availability: "Today" } });
    expect(res.statusCode).toBe(409);
    expect(res.json<{ message: string }>().message).toBe(OFFER_MESSAGES.tooMany);
    // Changing one of the ten is not a new offer; a cancelled task's offer no longer counts.
    await makeOffer(t, provider, tasks[0]?.id ?? "", { price: 31 });
    expect(await transition(t, "cancel", tasks[0]?.id ?? "", poster)).not.toBeNull();
    await makeOffer(t, provider, last.id);
  });
});

/** A $50 task that takes offers, with a $65 offer (the one the tests accept) and a $40 one. */
async function twoOffers() {
  const poster = await createPoster(t);
  const task = await postOffersTask(t, poster, { budgetCents: 5000 });
  const chosen = await createProvider(t);
  const other = await createProvider(t);
  const offerId = await makeOffer(t, chosen, task.id, { price: 65 });
  await makeOffer(t, other, task.id, { price: 40 });
  return { poster, task, chosen, other, offerId };
}

describe("accepting an offer", () => {
  it("claims the task for that provider at the offered price, starts the payment window and tells every offerer", async () => {
    const { poster, task, chosen, other, offerId } = await twoOffers();
    const res = await accept(poster, task.id, offerId, 65);
    expect(res.statusCode).toBe(200);
    const quote = offerQuote(6500, "standard");
    expect(res.json()).toMatchObject({ status: "claimed", providerId: chosen.id, budget: 65, totalAmount: quote.totalCents / 100 });
    const row = await taskRow(t, task.id);
    expect(row).toMatchObject({ budgetCents: 6500, serviceFeeCents: quote.serviceFeeCents, totalCents: quote.totalCents, providerId: chosen.id });
    expect(row.paymentDeadline?.getTime()).toBe(t.clock.now().getTime() + 30 * 60_000);
    const statuses = await t.database.db.select({ providerId: taskOffers.providerId, status: taskOffers.status }).from(taskOffers).where(eq(taskOffers.taskId, task.id));
    expect(Object.fromEntries(statuses.map((s) => [s.providerId, s.status]))).toEqual({ [chosen.id]: "accepted", [other.id]: "closed" });
    expect((await noticesOf(chosen, "offer_decided"))[0]?.title).toBe("Your offer was accepted");
    expect((await noticesOf(other, "offer_decided"))[0]?.title).toBe("The poster chose another offer");
    // The offers are closed with the task: the other provider can no longer change theirs.
    const late = await call(t, other, { method: "PUT", url: `/api/tasks/${task.id}/offer`, payload: { price: 30, message: "Hi", availability: "Today" } });
    expect(late.statusCode).toBe(409);
  });

  it("closes the chosen provider's offer when they leave the task, so the open task takes offers again, theirs too", async () => {
    const { poster, task, chosen, offerId } = await twoOffers();
    expect((await accept(poster, task.id, offerId, 65)).statusCode).toBe(200);
    await pay(t, poster, await taskRow(t, task.id));
    expect(await transition(t, "withdraw", task.id, chosen)).not.toBeNull();
    // Open again: no offer reads as accepted, and the provider who left may offer anew.
    expect((await offersSeenBy(poster, task.id)).map((o) => o.status).sort()).toEqual(["closed", "closed"]);
    const again = await call(t, chosen, { method: "PUT", url: `/api/tasks/${task.id}/offer`, payload: { price: 70, message: "I can come back to it next week.", availability: "Next Monday" } });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ status: "open", price: 70 });
    expect((await offersSeenBy(poster, task.id)).map((o) => [o.status, o.price]).sort()).toEqual([["closed", 40], ["open", 70]]);
  });

  it("is the poster's alone", async () => {
    const poster = await createPoster(t);
    const task = await postOffersTask(t, poster);
    const provider = await createProvider(t);
    const offerId = await makeOffer(t, provider, task.id);
    for (const who of [provider, await createProvider(t), await createUser(t)]) {
      const res = await accept(who, task.id, offerId);
      expect(res.statusCode).toBe(403);
      expect(res.json<{ message: string }>().message).toBe("Only the task's poster can accept an offer.");
    }
    expect((await taskRow(t, task.id)).status).toBe("open");
  });

  it("refuses a withdrawn offer and leaves the task open", async () => {
    const poster = await createPoster(t);
    const task = await postOffersTask(t, poster);
    const provider = await createProvider(t);
    const offerId = await makeOffer(t, provider, task.id);
    await withdraw(provider, task.id);
    const res = await accept(poster, task.id, offerId);
    expect(res.statusCode).toBe(409);
    expect(res.json<{ message: string }>().message).toBe(OFFER_MESSAGES.offerGone);
    expect(await taskRow(t, task.id)).toMatchObject({ status: "open", providerId: null, budgetCents: 5000 });
  });

  it("refuses an offer whose price changed after the poster saw it, naming the new price, and moves nothing", async () => {
    const poster = await createPoster(t);
    const task = await postOffersTask(t, poster, { budgetCents: 5000 });
    const provider = await createProvider(t);
    const offerId = await makeOffer(t, provider, task.id, { price: 20 });
    const seen = (await offersSeenBy(poster, task.id))[0];
    expect(seen?.price).toBe(20);
    // The bait and switch: same offer, another price, just before the poster accepts.
    expect(await makeOffer(t, provider, task.id, { price: 999 })).toBe(offerId);
    const res = await accept(poster, task.id, offerId, seen?.price);
    expect(res.statusCode).toBe(409);
    expect(res.json<{ message: string }>().message).toBe("This offer changed to $999.00 since you opened it. Look at it again before accepting.");
    expect(await taskRow(t, task.id)).toMatchObject({ status: "open", providerId: null, budgetCents: 5000, paymentDeadline: null });
    const [offer] = await t.database.db.select().from(taskOffers).where(eq(taskOffers.id, offerId));
    expect(offer).toMatchObject({ status: "open", priceCents: 99_900 });
    expect(await noticesOf(provider, "offer_decided")).toEqual([]);
    // Accepting the price now shown works.
    const again = await accept(poster, task.id, offerId, 999);
    expect(again.statusCode).toBe(200);
    expect(await taskRow(t, task.id)).toMatchObject({ status: "claimed", providerId: provider.id, budgetCents: 99_900 });
  });

  it("never accepts a price the poster did not name when the change and the accept meet", async () => {
    for (let round = 0; round < 3; round += 1) {
      const poster = await createPoster(t);
      const task = await postOffersTask(t, poster);
      const provider = await createProvider(t);
      const offerId = await makeOffer(t, provider, task.id, { price: 20 });
      const change = call(t, provider, { method: "PUT", url: `/api/tasks/${task.id}/offer`, payload: { ...BASE_OFFER, price: 999 } });
      const [accepted, changed] = await Promise.all([accept(poster, task.id, offerId, 20), change]);
      expect([accepted.statusCode, changed.statusCode].sort()).toEqual([200, 409]);
      const row = await taskRow(t, task.id);
      const [offer] = await t.database.db.select().from(taskOffers).where(eq(taskOffers.id, offerId));
      if (accepted.statusCode === 200) expect([row.status, row.budgetCents, offer?.status, offer?.priceCents]).toEqual(["claimed", 2000, "accepted", 2000]);
      else expect([row.status, row.providerId, offer?.status, offer?.priceCents]).toEqual(["open", null, "open", 99_900]);
    }
  });

  it("wants the price the poster saw", async () => {
    const poster = await createPoster(t);
    const task = await postOffersTask(t, poster);
    const offerId = await makeOffer(t, await createProvider(t), task.id);
    const res = await call(t, poster, { method: "POST", url: `/api/tasks/${task.id}/offers/${offerId}/accept`, payload: {} });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ fieldErrors: Record<string, string> }>().fieldErrors).toHaveProperty("price");
    expect((await taskRow(t, task.id)).status).toBe("open");
  });

  it("lets exactly one of two accepts at once win", async () => {
    const poster = await createPoster(t);
    const task = await postOffersTask(t, poster);
    const [a, b] = [await createProvider(t), await createProvider(t)];
    const offers = [await makeOffer(t, a, task.id, { price: 30 }), await makeOffer(t, b, task.id, { price: 35 })];
    const answers = await Promise.all(offers.map((id, i) => accept(poster, task.id, id, [30, 35][i])));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const winner = answers.findIndex((r) => r.statusCode === 200);
    const row = await taskRow(t, task.id);
    expect(row.providerId).toBe([a, b][winner]?.id);
    expect(row.budgetCents).toBe([3000, 3500][winner]);
    const accepted = await t.database.db.select().from(taskOffers).where(and(eq(taskOffers.taskId, task.id), eq(taskOffers.status, "accepted")));
    expect(accepted).toHaveLength(1);
  });

  it("lets exactly one of an accept and a withdrawal of the same offer win", async () => {
    for (let round = 0; round < 3; round += 1) {
      const poster = await createPoster(t);
      const task = await postOffersTask(t, poster);
      const provider = await createProvider(t);
      const offerId = await makeOffer(t, provider, task.id);
      const [accepted, withdrawn] = await Promise.all([accept(poster, task.id, offerId), withdraw(provider, task.id)]);
      expect([accepted.statusCode, withdrawn.statusCode].sort()).toEqual([200, 409]);
      const row = await taskRow(t, task.id);
      const [offer] = await t.database.db.select().from(taskOffers).where(eq(taskOffers.id, offerId));
      if (accepted.statusCode === 200) expect([row.status, offer?.status]).toEqual(["claimed", "accepted"]);
      else expect([row.status, row.providerId, offer?.status]).toEqual(["open", null, "withdrawn"]);
    }
  });

  it("wins against any claim at the same time: a task that takes offers is never claimed", async () => {
    const poster = await createPoster(t);
    const task = await postOffersTask(t, poster);
    const provider = await createProvider(t);
    const claimer = await createProvider(t);
    const offerId = await makeOffer(t, provider, task.id);
    const [accepted, claimed] = await Promise.all([accept(poster, task.id, offerId), call(t, claimer, { method: "PATCH", url: `/api/tasks/${task.id}/claim` })]);
    expect([accepted.statusCode, claimed.statusCode]).toEqual([200, 409]);
    expect((await taskRow(t, task.id)).providerId).toBe(provider.id);
  });

  it("charges exactly the total the confirmation states, for any offered price and urgency", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: MIN_BUDGET_CENTS, max: 500_000 }), fc.constantFrom("standard" as const, "urgent" as const), async (priceCents, urgency) => {
        // A poster per run: posting and paying are rate-limited per person.
        const poster = await createPoster(t);
        const task = await postOffersTask(t, poster, { urgency });
        const provider = await createProvider(t);
        const offerId = await makeOffer(t, provider, task.id, { price: priceCents / 100 });
        const quote = offerQuote(priceCents, urgency);
        const words = offerAcceptWords("Sam P.", quote);
        // The confirmation states the total first.
        expect(words.startsWith(`You will pay ${formatDollarsExact(quote.totalCents)} in total`)).toBe(true);
        expect((await accept(poster, task.id, offerId, priceCents / 100)).statusCode).toBe(200);
        const claimed = await taskRow(t, task.id);
        const { payment, clientSecret } = await startPayment(t, poster, claimed);
        expect(payment.amountCents).toBe(quote.totalCents);
        const paid = await call(t, poster, { method: "POST", url: "/api/sandbox/payments/confirm", payload: { clientSecret, ...GOOD_CARD } });
        expect(paid.statusCode).toBe(200);
        expect((await taskRow(t, task.id)).paymentCapturedAt).not.toBeNull();
      }),
      { numRuns: 12 },
    );
  });
});
