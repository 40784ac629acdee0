import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { URGENCIES } from "./constants.js";
import {
  FEE_RULES,
  MAX_BUDGET_CENTS,
  centsToDollars,
  disputeSplit,
  dollarsToCents,
  formatDollars,
  formatDollarsExact,
  lineItemsOf,
  priceTask,
  serviceFeeCents,
  urgentSurchargeCents,
  workValueOfRelease,
  youllEarnText,
} from "./money.js";
import { budgetDollarsSchema, offerPriceDollarsSchema } from "./money-schemas.js";

const budgetCents = fc.integer({ min: 2000, max: MAX_BUDGET_CENTS });
const urgency = fc.constantFrom(...URGENCIES);

describe("priceTask fee examples of the pricing page", () => {
  it.each([
    { budget: 20, fee: 2.1, total: 22.1 },
    { budget: 50, fee: 4.5, total: 54.5 },
    { budget: 100, fee: 8.5, total: 108.5 },
    { budget: 200, fee: 16.5, total: 216.5 },
  ])("a standard $budget budget pays a $fee fee", ({ budget, fee, total }) => {
    const price = priceTask(dollarsToCents(budget), "standard");
    expect(centsToDollars(price.serviceFeeCents)).toBe(fee);
    expect(centsToDollars(price.totalCents)).toBe(total);
    expect(price.urgentFeeCents).toBe(0);
  });
});

describe("priceTask hand-computed cases", () => {
  it("adds a 15% surcharge to urgent tasks and charges the fee on budget + surcharge", () => {
    // $100 urgent: surcharge 1500, fee ceil(8% of 11500) + 50 = 920 + 50.
    expect(priceTask(10_000, "urgent")).toEqual({
      budgetCents: 10_000,
      urgentFeeCents: 1500,
      serviceFeeCents: 970,
      totalCents: 12_470,
      providerShareCents: 9775,
      platformCommissionCents: 1725,
      needsApprovalWindow: true,
    });
  });

  it("rounds the urgent surcharge half up to the cent", () => {
    // 15% of 2010 is 301.5 -> 302; 15% of 2003 is 300.45 -> 300.
    expect(urgentSurchargeCents(2010, "urgent")).toBe(302);
    expect(urgentSurchargeCents(2003, "urgent")).toBe(300);
    expect(urgentSurchargeCents(2010, "standard")).toBe(0);
  });

  it("rounds the 8% fee up to the next cent", () => {
    // 8% of 2001 is 160.08 -> 161.
    expect(serviceFeeCents(2001)).toBe(211);
    expect(serviceFeeCents(2000)).toBe(210);
  });

  it("rounds the provider share down", () => {
    // 85% of 2001 is 1700.85 -> 1700; the platform keeps 301.
    const price = priceTask(2001, "standard");
    expect(price.providerShareCents).toBe(1700);
    expect(price.platformCommissionCents).toBe(301);
  });

  it("opens the approval window from $100 up", () => {
    expect(priceTask(9999, "standard").needsApprovalWindow).toBe(false);
    expect(priceTask(10_000, "standard").needsApprovalWindow).toBe(true);
  });
});

describe("priceTask properties", () => {
  it("keeps every amount in integer cents", () => {
    fc.assert(
      fc.property(budgetCents, urgency, (budget, u) => {
        const price = priceTask(budget, u);
        for (const value of [
          price.urgentFeeCents,
          price.serviceFeeCents,
          price.totalCents,
          price.providerShareCents,
          price.platformCommissionCents,
        ]) {
          expect(Number.isSafeInteger(value)).toBe(true);
          expect(value).toBeGreaterThanOrEqual(0);
        }
      }),
    );
  });

  it("totals budget + urgent surcharge + fee", () => {
    fc.assert(
      fc.property(budgetCents, urgency, (budget, u) => {
        const price = priceTask(budget, u);
        expect(price.totalCents).toBe(price.budgetCents + price.urgentFeeCents + price.serviceFeeCents);
      }),
    );
  });

  it("charges 15% (half up) only on urgent tasks", () => {
    fc.assert(
      fc.property(budgetCents, urgency, (budget, u) => {
        const surcharge = priceTask(budget, u).urgentFeeCents;
        if (u === "standard") {
          expect(surcharge).toBe(0);
        } else {
          // Within half a cent of the exact 15%, and ties go up.
          expect(Math.abs(surcharge * 100 - budget * 15)).toBeLessThanOrEqual(50);
          expect(surcharge * 100 - budget * 15).toBeGreaterThan(-50);
        }
      }),
    );
  });

  it("charges ceil(8%) + 50 cents on budget + surcharge", () => {
    fc.assert(
      fc.property(budgetCents, urgency, (budget, u) => {
        const price = priceTask(budget, u);
        const base = price.budgetCents + price.urgentFeeCents;
        const percentPart = price.serviceFeeCents - 50;
        expect(percentPart * 100).toBeGreaterThanOrEqual(base * 8);
        expect(percentPart * 100).toBeLessThan(base * 8 + 100);
      }),
    );
  });

  it("splits budget + surcharge into a floor(85%) provider share and the commission", () => {
    fc.assert(
      fc.property(budgetCents, urgency, (budget, u) => {
        const price = priceTask(budget, u);
        const workValue = price.budgetCents + price.urgentFeeCents;
        expect(price.providerShareCents + price.platformCommissionCents).toBe(workValue);
        expect(price.providerShareCents * 100).toBeLessThanOrEqual(workValue * 85);
        expect(price.providerShareCents * 100).toBeGreaterThan(workValue * 85 - 100);
      }),
    );
  });
});

describe("dollars and cents", () => {
  it("round-trips every two-decimal amount up to the maximum budget", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_BUDGET_CENTS }), (cents) => {
        const dollars = centsToDollars(cents);
        expect(dollarsToCents(dollars)).toBe(cents);
        // The decimal text a client would type parses back to the same cents.
        expect(dollarsToCents(Number(dollars.toFixed(2)))).toBe(cents);
      }),
    );
  });

  it.each([
    [0.1, 10],
    [0.29, 29],
    [19.99, 1999],
    [1.15, 115],
    [1234.56, 123_456],
  ])("converts %d dollars to %d cents despite binary floating point", (dollars, cents) => {
    expect(dollarsToCents(dollars)).toBe(cents);
  });

  it("formats whole amounts without cents and others with", () => {
    expect(formatDollars(2000)).toBe("$20");
    expect(formatDollars(123_450)).toBe("$1,234.50");
    expect(formatDollarsExact(2000)).toBe("$20.00");
  });
});

describe("budgetDollarsSchema", () => {
  it.each([20, 20.01, 54.5, 99.99, 100_000])("accepts %d", (value) => {
    expect(budgetDollarsSchema.safeParse(value).success).toBe(true);
  });

  it.each([
    ["below the minimum", 19.99, "Minimum budget is $20"],
    ["negative", -20, "must not be negative"],
    ["NaN", Number.NaN, undefined],
    ["Infinity", Number.POSITIVE_INFINITY, undefined],
    ["-Infinity", Number.NEGATIVE_INFINITY, undefined],
    ["three decimals", 20.001, "must have at most two decimals"],
    ["above $100,000", 100_000.01, "Maximum budget is $100,000"],
    ["a string", "20", "must be a number"],
  ])("refuses %s", (_label, value, message) => {
    const result = budgetDollarsSchema.safeParse(value);
    expect(result.success).toBe(false);
    if (message !== undefined) {
      expect(result.error?.issues.map((i) => i.message)).toContain(message);
    }
  });

  it("refuses an offer's price below the minimum in an offer's words, at the same bound", () => {
    expect(offerPriceDollarsSchema.safeParse(19.99).error?.issues.map((i) => i.message)).toEqual(["The lowest offer is $20. Raise your price to at least that."]);
    expect(offerPriceDollarsSchema.safeParse(20).success).toBe(true);
  });

  it("accepts exactly the two-decimal amounts between $20 and $100,000", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_BUDGET_CENTS + 1000 }), (cents) => {
        const accepted = budgetDollarsSchema.safeParse(centsToDollars(cents)).success;
        expect(accepted).toBe(cents >= 2000 && cents <= MAX_BUDGET_CENTS);
      }),
    );
  });
});

describe("what the provider earns (docs/product.md, Fees)", () => {
  it("is 85% of the budget for a standard task and includes the urgent surcharge", () => {
    expect(priceTask(3000, "standard").providerShareCents).toBe(2550);
    expect(youllEarnText(priceTask(3000, "standard").providerShareCents)).toBe("You'll earn $25.50");
    // $50 urgent: $7.50 surcharge, 85% of $57.50 rounded down.
    expect(priceTask(5000, "urgent").providerShareCents).toBe(4887);
    expect(youllEarnText(4887)).toBe("You'll earn $48.87");
  });

  it("plus the platform's commission is what the poster pays minus the service fee", () => {
    fc.assert(
      fc.property(budgetCents, urgency, (budget, u) => {
        const price = priceTask(budget, u);
        expect(price.providerShareCents + price.platformCommissionCents).toBe(price.totalCents - price.serviceFeeCents);
        expect(price.providerShareCents).toBeLessThanOrEqual(price.budgetCents + price.urgentFeeCents);
      }),
    );
  });

  it("is priced by the share in force, and the stored line items are the price's own", () => {
    // Another commission changes only the split of the work value, never what the poster pays.
    FEE_RULES.providerSharePercent = 70;
    let at70: ReturnType<typeof priceTask>;
    try {
      at70 = priceTask(3000, "standard");
    } finally {
      FEE_RULES.providerSharePercent = 85;
    }
    expect(at70).toMatchObject({ providerShareCents: 2100, platformCommissionCents: 900, totalCents: priceTask(3000, "standard").totalCents });
    expect(lineItemsOf(at70)).toEqual({ budgetCents: 3000, urgentFeeCents: 0, serviceFeeCents: 290, totalCents: 3290, providerShareCents: 2100, platformCommissionCents: 900 });
  });
});

describe("an admin's split of a held escrow (docs/product.md, Money: disputes)", () => {
  // $60 standard: $65.30 held, of which the provider's share is $51.00 and the work value $60.00.
  const price = priceTask(6000, "standard");

  it("refunds the poster's part and gives the provider the full release's share of the rest", () => {
    expect(disputeSplit(price, 6530, 2000)).toEqual({ refundCents: 2000, releaseCents: 4530, providerShareCents: 3537 });
    expect(disputeSplit(price, 6530, 0)).toEqual({ refundCents: 0, releaseCents: 6530, providerShareCents: 5100 });
    expect(disputeSplit(price, 6530, 6530)).toEqual({ refundCents: 6530, releaseCents: 0, providerShareCents: 0 });
  });

  it("reads the released work value so that the platform keeps 15% of it", () => {
    // floor(6000 × 4530 / 6530) = 4162; the provider's 3537 leaves a 625 commission (15.02%).
    expect(workValueOfRelease(price, 4530, 6530)).toBe(4162);
    expect(workValueOfRelease(price, 6530, 6530)).toBe(6000);
    expect(workValueOfRelease(price, 0, 6530)).toBe(0);
  });

  it("never gives the provider more than the released work value, nor the platform a negative commission", () => {
    fc.assert(
      fc.property(budgetCents, urgency, fc.double({ min: 0, max: 1, noNaN: true }), (budget, u, part) => {
        const p = priceTask(budget, u);
        const split = disputeSplit(p, p.totalCents, Math.floor(p.totalCents * part));
        expect(split.refundCents + split.releaseCents).toBe(p.totalCents);
        const gross = workValueOfRelease(p, split.releaseCents, p.totalCents);
        expect(split.providerShareCents).toBeLessThanOrEqual(gross);
        expect(gross - split.providerShareCents).toBeGreaterThanOrEqual(Math.floor(((gross * 15) / 100) - 1));
        expect(gross).toBeLessThanOrEqual(split.releaseCents);
      }),
    );
  });
});
