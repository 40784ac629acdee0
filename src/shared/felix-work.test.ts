import { describe, expect, it } from "vitest";
import { computePricing } from "./felix-pricing.js";
import { RATES, estimateWork, marketWork, statedTrip } from "./felix-work.js";

// The work a task is (docs/product.md#felix-rates): kind, quantity and where it came from, rate.

describe("estimateWork", () => {
  it("uses the hours a cleaning task states, at the cleaning rate, and says so", () => {
    const work = estimateWork({ category: "cleaning", title: "Clean my kitchen", description: "Should take about 3 hours" });
    expect(work).toMatchObject({ unit: "hour", quantity: { low: 3, mid: 3, high: 3 }, helpers: 1, rate: RATES.cleaning, source: "stated", question: null });
    expect(work.quantityFrom).toBe("you said about 3 hours");
    expect(computePricing({ miles: 0, stops: 0, urgency: "standard", work }).suggestedBudget).toBe(135);
  });

  it("reads a home's size: square feet before bedrooms, a move-out clean half as long again", () => {
    const standard = estimateWork({ category: "cleaning", title: "House cleaning", description: "1,200 sq ft, 3 bedrooms" });
    const moveOut = estimateWork({ category: "cleaning", title: "Move-out cleaning", description: "1,200 sq ft, 3 bedrooms" });
    expect(standard.quantity.mid).toBe(3);
    expect(moveOut.quantity.mid).toBe(4.5);
    expect(standard.quantityFrom).toBe("you said 1200 sq ft");
  });

  it("reads 'not a deep clean' as a standard clean", () => {
    expect(estimateWork({ category: "cleaning", title: "Clean", description: "3 bedrooms. Not a deep clean." }).kind).toBe("clean");
  });

  it("sends more movers to a bigger home", () => {
    const one = estimateWork({ category: "moving", title: "Move my 1-bedroom apartment" });
    const three = estimateWork({ category: "moving", title: "Move a 3 bedroom house" });
    expect(one.helpers).toBe(2);
    expect(three.helpers).toBe(4);
    expect(three.quantity.mid).toBeGreaterThan(one.quantity.mid);
    expect(estimateWork({ category: "moving", title: "Move a couch", description: "3 helpers please" }).helpers).toBe(3);
  });

  it("prices overnight pet care by the night and drop-ins by the visit", () => {
    expect(estimateWork({ category: "pet", title: "Pet sitting", description: "3 nights with my 2 dogs" })).toMatchObject({ unit: "night", quantity: { mid: 3 }, rate: RATES.overnight });
    expect(estimateWork({ category: "pet", title: "Cat drop-ins", description: "twice a day over the weekend" })).toMatchObject({ unit: "visit", quantity: { mid: 4 } });
  });

  it("prices skilled help and yard work at their own rates", () => {
    expect(estimateWork({ category: "other", title: "Mount a TV" }).rate).toEqual(RATES.handyman);
    expect(estimateWork({ category: "other", title: "Rake leaves", description: "half-acre yard" })).toMatchObject({ rate: RATES.yard, quantity: { mid: 5 } });
  });

  it("asks one question when it can only guess, and uses the answer", () => {
    const vague = estimateWork({ category: "cleaning", title: "Cleaning help", description: "Need some cleaning done" });
    expect(vague).toMatchObject({ source: "usual", question: "rooms" });
    expect(vague.quantityFrom).toBe("a standard clean usually takes about 3 hours");
    const answered = estimateWork({ category: "cleaning", title: "Cleaning help", description: "Need some cleaning done", answer: { question: "rooms", text: "4" } });
    expect(answered).toMatchObject({ source: "answer", question: null, quantity: { mid: 5 } });
    expect(answered.quantityFrom).toBe("you told me 4 bedrooms");
    const hours = estimateWork({ category: "other", title: "Help me out", answer: { question: "hours", text: "about 5 hours" } });
    expect(hours).toMatchObject({ source: "answer", quantity: { mid: 5 } });
  });

  it("does not ask about an errand, whose usual length is a fair guess", () => {
    expect(estimateWork({ category: "errands", title: "Pick up my dry cleaning" }).question).toBeNull();
  });

  it("takes the market's median hours and rate when enough completed tasks state them", () => {
    const market = { quantity: { median: 5, count: 6 }, rate: { median: 50, count: 6 } };
    const work = estimateWork({ category: "cleaning", title: "Cleaning help", market });
    expect(work).toMatchObject({ source: "market", question: null, quantity: { mid: 5 }, rate: { mid: 50 } });
    expect(work.rateFrom).toContain("6 completed Cleaning & Organization tasks nearby paid a median $50 an hour");
    // A stated size still wins over the market's median.
    expect(estimateWork({ category: "cleaning", title: "2 hours of cleaning", market }).quantity.mid).toBe(2);
  });
});

describe("marketWork", () => {
  it("counts only completed tasks whose size is stated, and needs the minimum sample", () => {
    const done = (hours: number, budget: number) => ({ budget, title: "Cleaning", description: `Took ${hours} hours` });
    const tasks = [done(2, 100), done(3, 150), done(4, 160), done(3, 120), { budget: 500, title: "Cleaning", description: "the whole place" }];
    expect(marketWork("cleaning", tasks, 5)).toEqual({ quantity: null, rate: null });
    const more = [...tasks, done(5, 200)];
    expect(marketWork("cleaning", more, 5)).toEqual({ quantity: { median: 3, count: 5 }, rate: { median: 40, count: 5 } });
  });
});

describe("statedTrip", () => {
  it("reads miles and stops from words, or nothing", () => {
    expect(statedTrip("Keys, 3 stops", "~15 miles in all")).toEqual({ miles: 15, stops: 3 });
    expect(statedTrip("Clean my flat", null)).toEqual({ miles: null, stops: null });
  });
});
