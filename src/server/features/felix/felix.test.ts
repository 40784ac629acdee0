import { beforeEach, describe, expect, it } from "vitest";
import { computePricing, evaluateBudget, routeMiles, type GeoPoint } from "../../../shared/felix-pricing.js";
import { felixContextOfTask, type FelixContext } from "../../../shared/felix.js";
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
  category: "delivery",
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

const priceOf = (points: GeoPoint[], stops = 0, urgency: "standard" | "urgent" | "flexible" = "standard") =>
  computePricing({ miles: routeMiles(points), stops, urgency });

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
    // Hand check: about 24.7 great-circle miles x 1.25 = 30.9 miles -> $17.92 + $22.36 = $40.28 -> $40.
    expect(expected.suggestedBudget).toBe(40);
    expect(body.reply).toContain("I suggest a budget of $40");
    expect(body.reply).toContain(usd(expected.mileageCost));
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
    expect(res.json().pricingBreakdown).toEqual(priceOf([from, to]));
    expect(res.json().pricingBreakdown.distance).toBeGreaterThan(20);
  });

  it("asks for a missing end location instead of guessing", async () => {
    const res = await ask("Please calculate the budget for this task.", route({ endLocation: null, endCity: null, endState: null, endLat: null, endLon: null }));
    expect(res.statusCode).toBe(200);
    expect(res.json().reply).toContain("the end location");
    expect(res.json().suggestedBudget).toBeNull();
    expect(res.json().pricingBreakdown).toBeNull();
  });

  it("asks for the category when there is none", async () => {
    const res = await ask("How much?", route({ category: null }));
    expect(res.json().reply).toContain("choose a category");
    expect(res.json().suggestedBudget).toBeNull();
  });

  it("asks for a place it cannot find", async () => {
    const res = await ask("How much?", { category: "delivery", startLocation: "Qwxzzy Nowhere", endLocation: "Baltimore, MD" });
    expect(res.json().reply).toContain('I couldn\'t find "Qwxzzy Nowhere"');
    expect(res.json().suggestedBudget).toBeNull();
  });

  it("prices a single location by labor and the $20 floor", async () => {
    const res = await ask("How much should I offer?", { category: "cleaning", location: "5 Elm St", lat: 38.98, lon: -76.49 });
    expect(res.json().pricingBreakdown).toMatchObject({ distance: 0, laborHours: 0.5, laborCost: 10, total: 20, suggestedBudget: 20 });
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
    expect(reply).toContain(`${p.laborHours} hours at $20 an hour is ${usd(p.laborCost)}`);
    expect(reply).toContain("multiplied by 1.3");
    expect(reply).toContain("1 stop at $10 each");
    expect(reply).toContain(`The total is ${usd(p.total)}`);
  });

  it("explains the $20 floor when the sum is below it", async () => {
    const res = await ask("Why?", { category: "cleaning", location: "5 Elm St", lat: 38.98, lon: -76.49 });
    expect(res.json().reply).toContain("less than the $20 minimum");
  });

  it("evaluates an amount asked about", async () => {
    const fair = priceOf([ANNAPOLIS, BALTIMORE]).suggestedBudget;
    const res = await ask("Is $80 fair?");
    expect(res.json().evaluation).toEqual(evaluateBudget(80, fair));
    expect(res.json().evaluation.status).toBe("high");
    expect(res.json().reply).toContain("$80 is above the fair range of $34.00 to $46.00");
  });

  it("answers a proposed amount as a follow-up ('would $45 be better?') against the fair range, saying why", async () => {
    const base = priceOf([ANNAPOLIS, BALTIMORE]);
    expect(base.suggestedBudget).toBe(40);
    const res = await ask("Would $45 be better?");
    expect(res.statusCode).toBe(200);
    expect(res.json().evaluation).toEqual(evaluateBudget(45, 40));
    const reply: string = res.json().reply;
    expect(reply).toContain("$45 is inside the fair range of $34.00 to $46.00, so it would work.");
    expect(reply).toContain(`of mileage for ${base.distance} miles`);
    expect(reply).toContain("of labor");
    const low = await ask("what if I offer $25 instead?");
    expect(low.json().evaluation.status).toBe("low");
    expect(low.json().reply).toContain("$25 is below the fair range of $34.00 to $46.00");
  });

  it("tells what the provider takes home: 85% of budget and urgent fee", async () => {
    const standard = await ask("What does the provider take home on $100?");
    expect(standard.json().reply).toContain("the provider takes home $85.00 (85%)");
    const urgent = await ask("How much does the provider earn on $100?", route({ urgency: "urgent" }));
    expect(urgent.json().reply).toContain("plus the $15.00 urgent fee, the provider takes home $97.75");
    const suggested = await ask("What would the provider take home?");
    expect(suggested.json().reply).toContain("On a $40.00 budget, the provider takes home $34.00");
  });

  it("tells the service fee the poster pays", async () => {
    const res = await ask("What fee do I pay on $100?");
    expect(res.json().reply).toContain("service fee of $8.50");
    expect(res.json().reply).toContain("$108.50 in total");
  });
});

describe("evaluate mode", () => {
  const fair = priceOf([ANNAPOLIS, BALTIMORE]).suggestedBudget;

  it.each([
    [60, "high", 50, "great opportunity"],
    [25, "low", -37.5, "below market"],
    [44, "fair", 10, "fair offer"],
    [34, "fair", -15, "fair offer"],
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
    const expected = priceOf([ANNAPOLIS, GLEN_BURNIE, BALTIMORE], 1, urgency);

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
    expect(asProvider.json().evaluation).toEqual(evaluateBudget(30, expected.suggestedBudget));
  });

  it("answers 404 about a task that is not open to a stranger, and to its poster", async () => {
    const { task, poster } = await taskAt(t, "claimed", { body: oneStopRoute });
    const stranger = await ask("Please evaluate this task's budget.", { taskId: task.id }, "evaluate", user);
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json()).toEqual({ message: "Task not found" });
    expect((await ask("Please evaluate this task's budget.", { taskId: task.id }, "evaluate", poster)).statusCode).toBe(200);
  });
});
