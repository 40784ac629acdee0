import { describe, expect, it } from "vitest";
import type { FelixContext } from "@shared/felix";
import { autoMessage, greeting, lowerBudgetQuestion, signedPercent } from "./felix-copy";

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
