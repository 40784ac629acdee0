import { beforeEach, describe, expect, it } from "vitest";
import { computePricing, evaluateBudget, fairRange, routeMiles, type GeoPoint } from "../../../shared/felix-pricing.js";
import { felixContextOfTask, type FelixContext } from "../../../shared/felix.js";
import { estimateWork, type WorkEstimate } from "../../../shared/felix-work.js";
import type { CreateTaskBody } from "../../../shared/tasks.js";
import { createGeocoder } from "../../adapters/geocoding/create-geocoder.js";
import type { Category } from "../../../shared/constants.js";
import { call, createUser, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import { taskAt } from "../../../../test/fixtures/factory.js";

const t = await useTestApp();

const ANNAPOLIS = { lat: 38.9784, lon: -76.4922 };
const BALTIMORE = { lat: 39.2904, lon: -76.6122 };
const GLEN_BURNIE = { lat: 39.1626, lon: -76.6247 };

type ContextInput = Partial<Omit<FelixContext, "stops">> & { stops?: FelixContext["stops"] };

const route = (extra: ContextInput = {}): ContextInput => ({
  title: "Pick up a parcel",
  // An errand: its usual hour at $30 keeps the hand checks below; couriers have their own tests.
  category: "errands",
  startLocation: "1 Main St",
  startCity: "Annapolis",
  startState: "MD",
  startLat: ANNAPOLIS.lat,
  startLon: ANNAPOLIS.lon,
  endLocation: "2 Charles St",
  endCity: "Baltimore",
  endState: "MD",
  endLat: BALTIMORE.lat,
  endLon: BALTIMORE.lon,
  ...extra,
});

/** The work of route()'s task: an errand whose length is not stated, so the usual hour at $30. */
const parcel = estimateWork({ category: "errands", title: "Pick up a parcel" });
const priceOf = (points: GeoPoint[], stops = 0, urgency: "standard" | "urgent" | "flexible" = "standard", work: WorkEstimate = parcel) =>
  computePricing({ miles: routeMiles(points), stops, urgency, work });

let user: TestUser;
beforeEach(async () => {
  // A fresh user per test keeps each test under the per-user rate limit.
  user = await createUser(t);
});

const ask = (message: string, context: ContextInput = route(), mode: "recommend" | "evaluate" = "recommend", asker: TestUser | null = user) =>
  call(t, asker, { method: "POST", url: "/api/ask-felix", payload: { message, context, mode } });

const usd = (dollars: number) => `$${Number.isInteger(dollars) ? String(dollars) : dollars.toFixed(2)}`;

describe("POST /api/ask-felix validation and access", () => {
  it("answers 401 to a signed-out caller", async () => {
    const res = await ask("Please calculate the budget for this task.", route(), "recommend", null);
    expect(res.statusCode).toBe(401);
  });

  it.each([
    ["an empty message", { message: "", context: {}, mode: "recommend" }, "Message is required"],
    ["a message of spaces", { message: "   ", context: {}, mode: "recommend" }, "Message is required"],
    ["a bad mode", { message: "hi", context: {}, mode: "guess" }, "Mode must be recommend or evaluate"],
    ["a latitude out of range", { message: "hi", context: { startLat: 91 }, mode: "recommend" }, "Start latitude must be between -90 and 90"],
    ["a negative offer", { message: "hi", context: { offeredBudget: -5 }, mode: "evaluate" }, "must not be negative"],
  ])("rejects %s with 400", async (_name, payload, message) => {
    const res = await call(t, user, { method: "POST", url: "/api/ask-felix", payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(message);
  });
});

describe("recommend mode", () => {
  it("suggests the engine's budget for a route with coordinates and explains it in words", async () => {
    const expected = priceOf([ANNAPOLIS, BALTIMORE]);
    const res = await ask("Please calculate the budget for this task.");
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.pricingBreakdown).toEqual(expected);
    expect(body.suggestedBudget).toBe(expected.suggestedBudget);
    // Hand check: 28.1 road miles -> $16.30; (0.56 h driving + the usual 1 hour of an errand) x $30 = $46.80 -> $63.10 -> $65.
    // Range: 1.06 h x $20 + $16.30 = $37.50 -> $40; 2.56 h x $35 + $16.30 = $105.90 -> $105.
    expect(expected.suggestedBudget).toBe(65);
    expect(body.reply).toContain("I suggest a budget of $65, within a range of $40 to $105.");
    expect(body.reply).toContain("I counted 1 hour because an errand usually takes about 1 hour");
    expect(body.reply).toContain(usd(expected.mileageCost));
    expect(body.work).toMatchObject({ label: "an errand", question: null });
    expect(body.evaluation).toBeNull();
    expect(body.market).toBeNull();
  });

  it("geocodes town names typed without coordinates", async () => {
    const geocoder = createGeocoder(t.env);
    const [from] = await geocoder.search("Annapolis, MD", 1);
    const [to] = await geocoder.search("Baltimore, MD", 1);
    if (!from || !to) throw new Error("the gazetteer should know Annapolis and Baltimore");
    const res = await ask("Please calculate the budget for this task.", {
      category: "delivery",
      startLocation: "Annapolis, MD",
      endLocation: "Baltimore, MD",
    });
    expect(res.statusCode).toBe(200);
    // A delivery is priced as a courier run (decision 072): handling, driving at $45 an hour, mileage.
    expect(res.json().pricingBreakdown).toEqual(priceOf([from, to], 0, "standard", estimateWork({ category: "delivery", title: null })));
    expect(res.json().pricingBreakdown).toMatchObject({ rate: 45, workQuantity: 0.5 });
    expect(res.json().pricingBreakdown.distance).toBeGreaterThan(20);
  });

  it("asks for a missing end location, with a figure from what it knows (issue 44)", async () => {
    const res = await ask("Please calculate the budget for this task.", route({ endLocation: null, endCity: null, endState: null, endLat: null, endLon: null }));
    expect(res.statusCode).toBe(200);
    expect(res.json().reply).toContain("the end location");
    // No route to measure yet: the errand's usual hour at $30, no mileage.
    expect(res.json().suggestedBudget).toBe(30);
    expect(res.json().pricingBreakdown.distance).toBe(0);
  });

  it("asks for the category when there is none", async () => {
    const res = await ask("How much?", route({ category: null }));
    expect(res.json().reply).toContain("choose a category");
    expect(res.json().suggestedBudget).toBeNull();
  });

  it("asks for a place it cannot find, and still gives a figure", async () => {
    const res = await ask("How much?", { category: "delivery", startLocation: "Qwxzzy Nowhere", endLocation: "Baltimore, MD" });
    expect(res.json().reply).toContain('I couldn\'t find "Qwxzzy Nowhere"');
    expect(res.json().suggestedBudget).toBeGreaterThanOrEqual(20);
  });

  it("prices a cleaning by the hours it states, at the cleaning rate, and says where both came from", async () => {
    const res = await ask("How much should I offer?", { title: "Clean my kitchen", description: "Should take about 2 hours", category: "cleaning", location: "5 Elm St", lat: 38.98, lon: -76.49 });
    // Before issue 33 this was the spec's half hour at $20: "$20 ... $10 for 0.5 hours of work".
    expect(res.json().pricingBreakdown).toMatchObject({ distance: 0, workQuantity: 2, rate: 45, laborCost: 90, total: 90, suggestedBudget: 90 });
    expect(res.json().reply).toContain("I counted 2 hours because you said about 2 hours; the usual rate for a standard clean is $45 an hour");
    expect(res.json().work.question).toBeNull();
  });
});

describe("a question when Felix cannot tell the size of the work (issue 33)", () => {
  const vague: ContextInput = { title: "Cleaning help", description: "Need some cleaning done", category: "cleaning", location: "5 Elm St", lat: 38.98, lon: -76.49 };

  it("asks one question with a first figure, then prices the answer and keeps it for follow-ups", async () => {
    const first = await ask("Please calculate the budget for this task.", vague);
    expect(first.statusCode).toBe(200);
    expect(first.json().work).toMatchObject({ question: "rooms", quantityFrom: "a standard clean usually takes about 3 hours" });
    expect(first.json().reply).toContain("How many rooms (bedrooms) is it? Tell me and I'll use your answer.");
    // Until answered: the usual 3 hours at $45, not the $20 floor.
    expect(first.json().suggestedBudget).toBe(135);

    const answered = { ...vague, workAnswer: { question: "rooms" as const, text: "4" } };
    const second = await ask("4", answered);
    expect(second.json().work).toMatchObject({ question: null, quantityFrom: "you told me 4 bedrooms" });
    // An hour, plus an hour a bedroom: 5 hours at $45.
    expect(second.json().pricingBreakdown).toMatchObject({ workQuantity: 5, workCost: 225, suggestedBudget: 225 });
    expect(second.json().reply).toContain("I counted 5 hours because you told me 4 bedrooms");

    const followUp = await ask("Is $100 fair?", answered);
    expect(followUp.json().evaluation).toMatchObject({ fairBudget: 225, status: "low" });
  });

  it("takes an answer in words and asks about hours for work with no rooms", async () => {
    const chores = { ...vague, title: "Help around the house", category: "other" };
    const first = await ask("How much?", chores);
    expect(first.json().reply).toContain("About how long will it take?");
    const second = await ask("about three hours", { ...chores, workAnswer: { question: "hours", text: "about three hours" } });
    expect(second.json().pricingBreakdown).toMatchObject({ workQuantity: 3, rate: 30, suggestedBudget: 90 });
  });

  it("does not ask the provider, who cannot change the task, but gives the same figure", async () => {
    const res = await ask("Please evaluate this task's budget.", { ...vague, offeredBudget: 160 }, "evaluate");
    expect(res.json().work.question).toBeNull();
    expect(res.json().reply).not.toContain("How many rooms");
    // A $160 clean was "Great Opportunity, +700%" against the $20 floor; now it is inside the range.
    expect(res.json().evaluation).toMatchObject({ fairBudget: 135, status: "fair" });
  });

  it("rejects an answer to a question Felix does not ask", async () => {
    const res = await ask("4", { ...vague, workAnswer: { question: "weight" as never, text: "4" } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain("The answered question must be hours, rooms or nights");
  });
});

describe("follow-up intents", () => {
  it("recomputes when the task is urgent or flexible", async () => {
    const before = priceOf([ANNAPOLIS, BALTIMORE]);
    const urgent = priceOf([ANNAPOLIS, BALTIMORE], 0, "urgent");
    const res = await ask("What if it is urgent?");
    expect(res.json().pricingBreakdown).toEqual(urgent);
    expect(res.json().suggestedBudget).toBe(urgent.suggestedBudget);
    expect(res.json().reply).toContain(`from ${usd(before.suggestedBudget)} to ${usd(urgent.suggestedBudget)}`);

    const flexible = await ask("What if I'm flexible on the date?");
    expect(flexible.json().pricingBreakdown.urgency).toBe("flexible");
    expect(flexible.json().suggestedBudget).toBe(priceOf([ANNAPOLIS, BALTIMORE], 0, "flexible").suggestedBudget);
  });

  it("adds a stop at $10", async () => {
    const res = await ask("What if I add a stop?");
    const after = priceOf([ANNAPOLIS, BALTIMORE], 1);
    expect(res.json().pricingBreakdown).toEqual(after);
    expect(res.json().pricingBreakdown.stopsCost).toBe(10);
    expect(res.json().reply).toContain("each stop adds $10");
  });

  it("removes the last stop and its detour", async () => {
    const context = route({ stops: [{ address: "Pharmacy", city: "Glen Burnie", state: "MD", lat: GLEN_BURNIE.lat, lon: GLEN_BURNIE.lon }] });
    const withStop = await ask("How much?", context);
    expect(withStop.json().pricingBreakdown).toEqual(priceOf([ANNAPOLIS, GLEN_BURNIE, BALTIMORE], 1));
    const res = await ask("What if I remove a stop?", context);
    expect(res.json().pricingBreakdown).toEqual(priceOf([ANNAPOLIS, BALTIMORE], 0));

    const none = await ask("What if I remove a stop?");
    expect(none.json().reply).toContain("There are no stops to remove");
  });

  it("walks through mileage, labor, multiplier, stops and the total on why", async () => {
    const p = priceOf([ANNAPOLIS, GLEN_BURNIE, BALTIMORE], 1, "urgent");
    const res = await ask(
      "Why this price?",
      route({ urgency: "urgent", stops: [{ address: "Pharmacy", city: "Glen Burnie", state: "MD", lat: GLEN_BURNIE.lat, lon: GLEN_BURNIE.lon }] }),
    );
    const reply: string = res.json().reply;
    expect(reply).toContain(`${p.distance} miles`);
    expect(reply).toContain(usd(p.mileageCost));
    expect(reply).toContain(`Driving at 50 mph takes ${p.driveHours} hours; at $30 an hour that's ${usd(p.driveCost)}.`);
    expect(reply).toContain(`The work is 1 hour (an errand usually takes about 1 hour) at $30 an hour`);
    expect(reply).toContain("multiplied by 1.3");
    expect(reply).toContain("1 stop at $10 each");
    expect(reply).toContain(`The total is ${usd(p.total)}`);
  });

  it("explains the $20 floor when the sum is below it", async () => {
    const res = await ask("Why?", { title: "Walk my dog", description: "A 15 minute walk", category: "pet", location: "5 Elm St", lat: 38.98, lon: -76.49 });
    expect(res.json().reply).toContain("less than Errandly's minimum budget of $20");
  });

  it("evaluates an amount asked about", async () => {
    const base = priceOf([ANNAPOLIS, BALTIMORE]);
    const res = await ask("Is $120 fair?");
    expect(res.json().evaluation).toEqual(evaluateBudget(120, base.suggestedBudget, fairRange(base)));
    expect(res.json().evaluation.status).toBe("high");
    // The fair range is the work's own range ($40 to $105), at least the fair budget ±15%.
    expect(res.json().reply).toContain("$120 is above the fair range of $40.00 to $105.00");
  });

  it("answers a proposed amount as a follow-up ('would $45 be better?') against the fair range, saying why", async () => {
    const base = priceOf([ANNAPOLIS, BALTIMORE]);
    expect(base.suggestedBudget).toBe(65);
    const res = await ask("Would $45 be better?");
    expect(res.statusCode).toBe(200);
    expect(res.json().evaluation).toEqual(evaluateBudget(45, 65, { low: 40, high: 105 }));
    const reply: string = res.json().reply;
    expect(reply).toContain("$45 is inside the fair range of $40.00 to $105.00, so it would work.");
    expect(reply).toContain(`of mileage for ${base.distance} miles`);
    expect(reply).toContain("of labor for 1 hour");
    const low = await ask("what if I offer $25 instead?");
    expect(low.json().evaluation.status).toBe("low");
    expect(low.json().reply).toContain("$25 is below the fair range of $40.00 to $105.00");
  });

  it("tells what the provider takes home: 85% of budget and urgent fee", async () => {
    const standard = await ask("What does the provider take home on $100?");
    expect(standard.json().reply).toContain("the provider takes home $85.00 (85%)");
    const urgent = await ask("How much does the provider earn on $100?", route({ urgency: "urgent" }));
    expect(urgent.json().reply).toContain("plus the $15.00 urgent fee, the provider takes home $97.75");
    const suggested = await ask("What would the provider take home?");
    // $65 x 85% = $55.25.
    expect(suggested.json().reply).toContain("On a $65.00 budget, the provider takes home $55.25");
  });

  it("tells the service fee the poster pays", async () => {
    const res = await ask("What fee do I pay on $100?");
    expect(res.json().reply).toContain("service fee of $8.50");
    expect(res.json().reply).toContain("$108.50 in total");
  });
});

describe("evaluate mode", () => {
  const fair = priceOf([ANNAPOLIS, BALTIMORE]).suggestedBudget;

  // Fair budget $65, the work's range $40 to $105: inside it is fair even beyond ±15% ($45).
  // (120 - 65) / 65 = 84.6%; (30 - 65) / 65 = -53.8%; (70 - 65) / 65 = 7.7%; (45 - 65) / 65 = -30.8%.
  it.each([
    [120, "high", 84.6, "great opportunity"],
    [30, "low", -53.8, "below market"],
    [70, "fair", 7.7, "fair offer"],
    [45, "fair", -30.8, "fair offer"],
  ])("rates an offer of $%d as %s", async (offered, status, percentDiff, words) => {
    const res = await ask("Please evaluate this task's budget.", route({ offeredBudget: offered }), "evaluate");
    expect(res.statusCode).toBe(200);
    expect(res.json().evaluation).toEqual({ status, percentDiff, offeredBudget: offered, fairBudget: fair });
    expect(res.json().reply.toLowerCase()).toContain(words);
  });

  it("asks for the offer when there is none", async () => {
    const res = await ask("Please evaluate this task's budget.", route(), "evaluate");
    expect(res.json().evaluation).toBeNull();
    expect(res.json().reply).toContain("What budget does it offer?");
  });
});

describe("market check", () => {
  // Denver, far from every other test's route, so only these tasks are near.
  const DENVER = { lat: 39.7392, lon: -104.9903 };
  const context = route({
    category: "moving",
    startLat: DENVER.lat,
    startLon: DENVER.lon,
    endLat: 39.8,
    endLon: -105.0,
    offeredBudget: 100,
  });

  async function completedTask(budgetDollars: number, at: GeoPoint, overrides: { category?: Category; status?: "completed" | "open" } = {}) {
    await taskAt(t, overrides.status ?? "completed", {
      budgetCents: budgetDollars * 100,
      body: { title: "Move a sofa", description: "Two floors", category: overrides.category ?? "moving", lat: at.lat, lon: at.lon },
    });
  }

  it("needs 5 completed tasks of the category within 50 miles, then gives median and middle half", async () => {
    for (const budget of [40, 60, 80, 100]) await completedTask(budget, { lat: 39.75, lon: -105.0 });
    // Not comparable: 60 miles away, another category, not completed.
    await completedTask(500, { lat: DENVER.lat + 60 / 69, lon: DENVER.lon });
    await completedTask(500, DENVER, { category: "pet" });
    await completedTask(500, DENVER, { status: "open" });

    const four = await ask("Please evaluate this task's budget.", context, "evaluate");
    expect(four.json().market).toBeNull();
    expect(four.json().reply).not.toContain("median");

    await completedTask(120, { lat: 39.6, lon: -104.9 });
    const five = await ask("Please evaluate this task's budget.", context, "evaluate");
    // 40, 60, 80, 100, 120: median 80, quartiles 60 and 100.
    expect(five.json().market).toEqual({ count: 5, median: 80, p25: 60, p75: 100 });
    expect(five.json().reply).toContain("5 completed Moving & Transport tasks within 50 miles had a median budget of $80");
    expect(five.json().reply).toContain("between $60 and $100");

    const recommend = await ask("Please calculate the budget for this task.", context);
    expect(recommend.json().market).toEqual({ count: 5, median: 80, p25: 60, p75: 100 });
  });
});

describe("rate limit", () => {
  it("allows 20 questions a minute per user", async () => {
    const other = await createUser(t);
    for (let i = 0; i < 20; i++) expect((await ask("Why?", route({ category: null }))).statusCode).toBe(200);
    const blocked = await ask("Why?");
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/Too many requests/);
    expect((await ask("Why?", route(), "recommend", other)).statusCode).toBe(200);
    t.clock.advance(60_000);
    expect((await ask("Why?")).statusCode).toBe(200);
  });
});

describe("urgency wording", () => {
  it("reads 'not urgent' as standard and leaves an already-urgent task as it is", async () => {
    const res = await ask("What if it's not urgent?", route({ urgency: "urgent" }));
    expect(res.json().pricingBreakdown.urgency).toBe("standard");
    const same = await ask("What if it is urgent?", route({ urgency: "urgent" }));
    expect(same.json().reply).toContain("It's already urgent");
  });
});

describe("one task, one fair budget, whoever asks (docs/decisions/026-one-felix-budget-for-both-sides.md)", () => {
  const oneStopRoute: Partial<CreateTaskBody> = {
    title: "Deliver a cake",
    category: "delivery",
    location: null,
    startLocation: "1 Main St",
    startCity: "Annapolis",
    startState: "MD",
    startLat: ANNAPOLIS.lat,
    startLon: ANNAPOLIS.lon,
    stops: [{ address: "5 Crain Hwy", city: "Glen Burnie", state: "MD", lat: GLEN_BURNIE.lat, lon: GLEN_BURNIE.lon }],
    endLocation: "2 Charles St",
    endCity: "Baltimore",
    endState: "MD",
    endLat: BALTIMORE.lat,
    endLon: BALTIMORE.lon,
  };

  it.each(["standard", "urgent"] as const)("gives the poster's wizard and a provider seeing only cities the same %s suggestion", async (urgency) => {
    const poster = await createUser(t);
    const { task } = await taskAt(t, "open", { poster, urgency, budgetCents: 3000, body: oneStopRoute });
    const expected = priceOf([ANNAPOLIS, GLEN_BURNIE, BALTIMORE], 1, urgency, estimateWork({ category: "delivery", title: "Deliver a cake" }));

    // The poster asks from the wizard, with the body about to be posted.
    const asPoster = await ask("Please calculate the budget for this task.", felixContextOfTask({ ...oneStopRoute, urgency }), "recommend", poster);
    // A provider on the job board knows the cities only; the server reads the task by its id.
    const publicView = { title: task.title, category: "delivery", startCity: "Annapolis", startState: "MD", endCity: "Baltimore", endState: "MD", urgency, offeredBudget: 30, taskId: task.id };
    const provider = await createUser(t, { role: "provider" });
    const asProvider = await ask("Please evaluate this task's budget.", publicView, "evaluate", provider);

    expect(asPoster.statusCode).toBe(200);
    expect(asProvider.statusCode).toBe(200);
    expect(asPoster.json().pricingBreakdown).toEqual(expected);
    expect(asProvider.json().pricingBreakdown).toEqual(expected);
    expect(asProvider.json().suggestedBudget).toBe(asPoster.json().suggestedBudget);
    expect(asProvider.json().evaluation).toEqual(evaluateBudget(30, expected.suggestedBudget, fairRange(expected)));
    // Only the poster is asked about the size of the work: the provider cannot change the task.
    expect(asProvider.json().work.question).toBeNull();
  });

  it("answers 404 about a task that is not open to a stranger, and to its poster", async () => {
    const { task, poster } = await taskAt(t, "claimed", { body: oneStopRoute });
    const stranger = await ask("Please evaluate this task's budget.", { taskId: task.id }, "evaluate", user);
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json()).toEqual({ message: "Task not found" });
    expect((await ask("Please evaluate this task's budget.", { taskId: task.id }, "evaluate", poster)).statusCode).toBe(200);
  });
});

describe("offers judged on their own price, in the asker's words (issue 44)", () => {
  const body: Partial<CreateTaskBody> = { title: "Pick up a parcel", category: "errands", hiringMode: "offers", location: "5 Elm St", city: "Annapolis", state: "MD", lat: ANNAPOLIS.lat, lon: ANNAPOLIS.lon };

  it("gives the poster two different verdicts on a $30 and a $90 offer, not the task's budget", async () => {
    const poster = await createUser(t);
    const { task } = await taskAt(t, "open", { poster, budgetCents: 4000, body });
    const context = { taskId: task.id, category: "errands", title: task.title };
    const cheap = await ask("Please evaluate this offer.", { ...context, offerPrice: 30 }, "evaluate", poster);
    const dear = await ask("Please evaluate this offer.", { ...context, offerPrice: 90 }, "evaluate", poster);
    expect(cheap.statusCode).toBe(200);
    // The errand's usual hour at $30 in one place: fair budget $30, range $20 (0.5 h x $20 = $10, the
    // minimum) to $70 (2 h x $35) (decision 054). $30 is the fair budget; (90 - 30) / 30 = 200% above.
    expect(cheap.json().evaluation).toMatchObject({ offeredBudget: 30, fairBudget: 30, status: "fair" });
    expect(dear.json().evaluation).toMatchObject({ offeredBudget: 90, fairBudget: 30, status: "high" });
    expect(cheap.json().reply).toContain("This $30 offer is about what similar tasks cost");
    expect(cheap.json().reply).toContain("It's a fair price for the work.");
    expect(dear.json().reply).toContain("This $90 offer is 200% above what similar tasks cost");
    expect(dear.json().reply).toContain("You'd pay more than this work usually costs");
    // Neither judges the task's own $40 budget.
    expect(cheap.json().reply).not.toContain("$40");
  });

  it("judges the price a provider is about to offer, in the provider's words", async () => {
    const { task } = await taskAt(t, "open", { budgetCents: 4000, body });
    const provider = await createUser(t, { role: "provider" });
    const res = await ask("Please evaluate my offer price.", { taskId: task.id, offerPrice: 22 }, "evaluate", provider);
    expect(res.statusCode).toBe(200);
    expect(res.json().evaluation).toMatchObject({ offeredBudget: 22, status: "fair" });
    // (22 - 30) / 30 = -26.7%, inside the $20 to $70 range.
    expect(res.json().reply).toContain("Your $22 offer is 27% below what similar tasks cost");
  });

  it("still judges the task's budget for a provider before claiming", async () => {
    const { task } = await taskAt(t, "open", { budgetCents: 4000, body: { ...body, hiringMode: "first_to_claim" } });
    const provider = await createUser(t, { role: "provider" });
    const res = await ask("Please evaluate this task's budget.", { taskId: task.id }, "evaluate", provider);
    expect(res.json().evaluation).toMatchObject({ offeredBudget: 40 });
    expect(res.json().reply).toContain("$40 is");
  });
});

describe("a task Felix would misread gets its question instead of a wild figure (issue 44)", () => {
  const misread = { title: "General help", description: "About 40 hours of work clearing out the attic.", category: "other", location: "5 Elm St", lat: 38.98, lon: -76.49 };

  it("says what it read and asks, priced at the usual job, then takes the poster's answer", async () => {
    const first = await ask("Please calculate the budget for this task.", misread);
    expect(first.statusCode).toBe(200);
    expect(first.json().reply).toContain("I read 40 hours of work; is that right?");
    expect(first.json().work.question).toBe("confirm");
    // Not the $1,200 of 40 hours at $30: general help's usual 2 hours, $60; 4 hours is $120.
    expect(first.json().suggestedBudget).toBe(60);
    const answered = await ask("about 4 hours", { ...misread, workAnswer: { question: "confirm", text: "about 4 hours" } });
    expect(answered.json().suggestedBudget).toBe(120);
    const confirmed = await ask("yes", { ...misread, workAnswer: { question: "confirm", text: "yes" } });
    expect(confirmed.json().suggestedBudget).toBe(1200);
  });

  it("shows the poster no figure when even the usual job is a multiple of its range (decision 080)", async () => {
    // Annapolis to Los Angeles: no errand costs what 3,000 miles of driving does.
    const far = route({ endLocation: "1 Main St", endCity: "Los Angeles", endState: "CA", endLat: 34.0522, endLon: -118.2437 });
    const res = await ask("Please calculate the budget for this task.", far);
    expect(res.statusCode).toBe(200);
    expect(res.json().reply).toMatch(/^I measured a route of about \d+ miles, which makes this far more than an errand usually costs \(\$20 to \$105\); is that right\?/);
    expect(res.json().reply).toContain("I won't suggest a budget for this Personal Errands task until then");
    expect(res.json().suggestedBudget).toBeNull();
    expect(res.json().pricingBreakdown).toBeNull();
  });

  it("does not ask the provider, but judges against the usual job and says why", async () => {
    const res = await ask("Please evaluate this task's budget.", { ...misread, offeredBudget: 900 }, "evaluate");
    expect(res.json().work.question).toBeNull();
    expect(res.json().evaluation).toMatchObject({ fairBudget: 60, status: "high" });
    expect(res.json().reply).toContain("The task reads as 40 hours of work");
  });
});
