import { describe, expect, it } from "vitest";
import { computePricing, evaluateBudget, marketStats } from "./felix-pricing.js";
import { felixChatMessageSchema, felixRequestSchema, felixResponseSchema } from "./felix.js";

const messagesOf = (input: unknown) => felixRequestSchema.safeParse(input).error?.issues.map((i) => i.message) ?? [];

describe("felixRequestSchema", () => {
  it("trims the message and fills context defaults", () => {
    expect(felixRequestSchema.parse({ message: "  How much?  ", context: {}, mode: "recommend" })).toEqual({
      message: "How much?",
      context: { stops: [], urgency: "standard" },
      mode: "recommend",
    });
  });

  it("accepts a full context with null fields from a task", () => {
    const parsed = felixRequestSchema.parse({
      message: "Please evaluate this task's budget.",
      mode: "evaluate",
      context: {
        title: "Pick up groceries",
        description: "Two bags",
        category: "shopping",
        startLocation: "1 Main St",
        endLocation: "2 Oak Ave",
        location: null,
        city: null,
        state: null,
        startCity: "Baltimore",
        startState: "MD",
        endCity: "Annapolis",
        endState: "Maryland",
        stops: [{ address: "Pharmacy, 5 Elm St", city: "Glen Burnie", state: "MD" }],
        urgency: "flexible",
        offeredBudget: 54.5,
      },
    });
    expect(parsed.context.stops).toHaveLength(1);
    expect(parsed.context.urgency).toBe("flexible");
    expect(parsed.context.offeredBudget).toBe(54.5);
  });

  it("keeps optional coordinates of places picked from the autocomplete", () => {
    const parsed = felixRequestSchema.parse({
      message: "hi",
      mode: "recommend",
      context: { startLat: 38.98, startLon: -76.49, endLat: null, stops: [{ address: "Pharmacy", lat: 39.16, lon: -76.62 }] },
    });
    expect(parsed.context).toMatchObject({ startLat: 38.98, startLon: -76.49, endLat: null });
    expect(parsed.context.stops[0]).toMatchObject({ lat: 39.16, lon: -76.62 });
  });

  it("turns null stops into an empty list", () => {
    expect(felixRequestSchema.parse({ message: "hi", context: { stops: null }, mode: "recommend" }).context.stops).toEqual([]);
  });

  it.each([
    ["an empty message", { message: "", context: {}, mode: "recommend" }, "Message is required"],
    ["a whitespace message", { message: "  \n ", context: {}, mode: "recommend" }, "Message is required"],
    ["a missing message", { context: {}, mode: "recommend" }, "Message is required"],
    ["a message over 1000 characters", { message: "x".repeat(1001), context: {}, mode: "recommend" }, "Message must be at most 1000 characters"],
    ["an unknown mode", { message: "hi", context: {}, mode: "guess" }, "Mode must be recommend or evaluate"],
    ["an unknown urgency", { message: "hi", context: { urgency: "asap" }, mode: "recommend" }, "Urgency must be standard, urgent or flexible"],
    ["a long title", { message: "hi", context: { title: "x".repeat(121) }, mode: "recommend" }, "Title must be at most 120 characters"],
    ["a long description", { message: "hi", context: { description: "x".repeat(5001) }, mode: "recommend" }, "Description must be at most 5000 characters"],
    ["a long address", { message: "hi", context: { startLocation: "x".repeat(301) }, mode: "recommend" }, "Start location must be at most 300 characters"],
    ["an empty stop address", { message: "hi", context: { stops: [{ address: " " }] }, mode: "recommend" }, "Stop address is required"],
    [
      "more than 10 stops",
      { message: "hi", context: { stops: Array.from({ length: 11 }, () => ({ address: "1 Main St" })) }, mode: "recommend" },
      "At most 10 stops",
    ],
    ["a negative offer", { message: "hi", context: { offeredBudget: -5 }, mode: "evaluate" }, "must not be negative"],
    ["an offer with 3 decimals", { message: "hi", context: { offeredBudget: 20.001 }, mode: "evaluate" }, "must have at most two decimals"],
    ["an offer above $100,000", { message: "hi", context: { offeredBudget: 100_001 }, mode: "evaluate" }, "Offered budget must be at most $100,000"],
    ["a latitude above 90", { message: "hi", context: { endLat: 90.5 }, mode: "recommend" }, "End latitude must be between -90 and 90"],
    ["a longitude below -180", { message: "hi", context: { lon: -181 }, mode: "recommend" }, "Location longitude must be between -180 and 180"],
    ["a text stop latitude", { message: "hi", context: { stops: [{ address: "1 Main St", lat: "39" }] }, mode: "recommend" }, "Stop latitude must be a number"],
  ])("refuses %s", (_label, input, message) => {
    expect(messagesOf(input)).toContain(message);
  });
});

describe("felixResponseSchema", () => {
  it("accepts what the engine produces", () => {
    const pricingBreakdown = computePricing({ miles: 100, stops: 1, urgency: "standard" });
    const response = {
      reply: "A fair budget is $120.",
      suggestedBudget: pricingBreakdown.suggestedBudget,
      pricingBreakdown,
      evaluation: evaluateBudget(100, pricingBreakdown.suggestedBudget),
      market: marketStats([20, 40, 60, 80, 100]),
      work: { label: "a delivery", quantityFrom: "you said about 2 hours", rateFrom: "the usual rate for a delivery is $25 an hour", question: null },
    };
    expect(felixResponseSchema.parse(response)).toEqual(response);
  });

  it("accepts a plain reply with every result null", () => {
    const reply = { reply: "Tell me more.", suggestedBudget: null, pricingBreakdown: null, evaluation: null, market: null, work: null };
    expect(felixResponseSchema.parse(reply)).toEqual(reply);
  });
});

describe("felixChatMessageSchema", () => {
  it("knows the two roles", () => {
    expect(felixChatMessageSchema.safeParse({ role: "assistant", content: "Hi" }).success).toBe(true);
    expect(felixChatMessageSchema.safeParse({ role: "user", content: "Hi" }).success).toBe(true);
    expect(felixChatMessageSchema.safeParse({ role: "system", content: "Hi" }).success).toBe(false);
  });
});
