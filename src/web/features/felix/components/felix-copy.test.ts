import { describe, expect, it } from "vitest";
import type { FelixContext } from "@shared/felix";
import { autoMessage, greeting, signedPercent } from "./felix-copy";

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
