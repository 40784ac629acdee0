import { describe, expect, it } from "vitest";
import type { FelixContext } from "@shared/felix";
import { autoMessage, greeting, helperText, lowerBudgetQuestion, signedPercent, statusDisplay } from "./felix-copy";

const base: FelixContext = { stops: [], urgency: "standard" };

describe("Felix dialog copy", () => {
  it("auto-sends in evaluate mode only with an offer and a category", () => {
    expect(autoMessage("evaluate", { ...base, category: "delivery", offeredBudget: 40 })).toBe("Please evaluate this task's budget.");
    expect(autoMessage("evaluate", { ...base, category: "delivery" })).toBeNull();
    expect(autoMessage("evaluate", { ...base, offeredBudget: 40 })).toBeNull();
  });

  it("auto-sends in recommend mode only with start, end and category", () => {
    const route = { ...base, category: "delivery", startLocation: "Annapolis, MD", endLocation: "Baltimore, MD" };
    expect(autoMessage("recommend", route)).toBe("Please calculate the budget for this task.");
    expect(autoMessage("recommend", { ...route, endLocation: "  " })).toBeNull();
    expect(autoMessage("recommend", { ...route, category: null })).toBeNull();
  });

  it("auto-sends in recommend mode for a single place with a category too, so the first figure comes at once", () => {
    expect(autoMessage("recommend", { ...base, category: "cleaning", location: "5 Elm St" })).toBe("Please calculate the budget for this task.");
    expect(autoMessage("recommend", { ...base, category: "cleaning", startLocation: "5 Elm St" })).toBeNull();
  });

  it("names only what is missing, never what is filled in", () => {
    const single = greeting("recommend", { ...base, category: "cleaning", location: "5 Elm St", city: "Annapolis", state: "MD" });
    expect(single).toContain("Category: Cleaning & Organization");
    expect(single).toContain("Location: 5 Elm St, Annapolis, MD");
    expect(single).not.toContain("Add a category");
    expect(greeting("recommend", { ...base, location: "5 Elm St" })).toContain("Add a category, then ask me anything");
    expect(greeting("recommend", { ...base, category: "delivery", startLocation: "Annapolis, MD" })).toContain("Add an end location, then");
  });

  it("asks before lowering a typed budget, and only then", () => {
    expect(lowerBudgetQuestion(20, 50)).toBe("Felix suggests $20, which is lower than the $50 you typed. Lower your budget to $20?");
    expect(lowerBudgetQuestion(60, 50)).toBeNull();
    expect(lowerBudgetQuestion(50, 50)).toBeNull();
    expect(lowerBudgetQuestion(20, null)).toBeNull();
  });

  it("greets with the task's title, description, category, places and offer", () => {
    const text = greeting("evaluate", {
      ...base,
      title: "Groceries",
      description: "Two bags",
      category: "shopping",
      startLocation: "1 Main St",
      startCity: "Annapolis",
      startState: "MD",
      endLocation: "Baltimore, MD",
      offeredBudget: 45.5,
    });
    expect(text).toContain("Task: Groceries");
    expect(text).toContain("Description: Two bags");
    expect(text).toContain("Category: Shopping & Pickup");
    expect(text).toContain("Start: 1 Main St, Annapolis, MD");
    expect(text).toContain("End: Baltimore, MD");
    expect(text).toContain("Offered budget: $45.50");
  });

  it("signs the percent difference only when positive", () => {
    expect(signedPercent(12.5)).toBe("+12.5%");
    expect(signedPercent(-8)).toBe("-8%");
    expect(signedPercent(0)).toBe("0%");
  });
});

describe("Felix on an offer's own price (issue 44)", () => {
  it("auto-sends about the offer's price, not the task's budget, and only once there is a price", () => {
    const task = { ...base, category: "errands", offeredBudget: 40 };
    expect(autoMessage("evaluate", { ...task, offerPrice: 36 }, "offer")).toBe("Please evaluate this offer.");
    expect(autoMessage("evaluate", { ...task, offerPrice: 45 }, "my-offer")).toBe("Please evaluate my offer price.");
    expect(autoMessage("evaluate", task, "my-offer")).toBeNull();
  });

  it("keeps the spec's 'before claiming' words for the task's budget only", () => {
    expect(helperText("evaluate")).toBe("Felix will help you evaluate if this task's budget is fair before claiming.");
    expect(helperText("evaluate", "offer")).not.toContain("claiming");
    expect(helperText("evaluate", "my-offer")).toBe("Felix will help you judge the price you are about to offer.");
  });

  it("shows the offer's price in the greeting and its status in the reader's words", () => {
    const text = greeting("evaluate", { ...base, category: "errands", offeredBudget: 40, offerPrice: 36 }, "offer");
    expect(text).toContain("Offer: $36");
    expect(text).not.toContain("Offered budget");
    expect(statusDisplay("high", "offer").label).toBe("Above Market");
    expect(statusDisplay("high").label).toBe("Great Opportunity");
  });
});
