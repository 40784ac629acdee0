import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { expiryPassed, luhnValid, parseExpiry, sandboxConfirmBodySchema, tipBodySchema } from "./payments.js";

describe("luhnValid", () => {
  it("accepts Stripe's test numbers and refuses a changed digit", () => {
    for (const n of ["4242424242424242", "4000000000000002", "4000000000009995", "5555555555554444"]) expect(luhnValid(n)).toBe(true);
    expect(luhnValid("4242424242424241")).toBe(false);
    expect(luhnValid("42424242x4242424")).toBe(false);
  });

  it("catches every single-digit change of a valid number", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 15 }), fc.integer({ min: 1, max: 9 }), (position, delta) => {
        const digits = "4242424242424242".split("").map(Number);
        digits[position] = ((digits[position] ?? 0) + delta) % 10;
        expect(luhnValid(digits.join(""))).toBe(false);
      }),
    );
  });
});

describe("expiry", () => {
  it("parses MM/YY and MM/YYYY and refuses other shapes", () => {
    expect(parseExpiry("12/34")).toEqual({ month: 12, year: 2034 });
    expect(parseExpiry(" 1 / 2030 ")).toEqual({ month: 1, year: 2030 });
    expect(parseExpiry("13/30")).toBeNull();
    expect(parseExpiry("1230")).toBeNull();
  });

  it("counts a card valid through the last day of its month", () => {
    const now = new Date("2026-06-30T23:00:00Z");
    expect(expiryPassed(6, 2026, now)).toBe(false);
    expect(expiryPassed(5, 2026, now)).toBe(true);
    expect(expiryPassed(1, 2027, now)).toBe(false);
  });
});

describe("schemas", () => {
  it("strips spaces from the card number and names the field on errors", () => {
    const ok = sandboxConfirmBodySchema.parse({ clientSecret: "s", cardNumber: "4242 4242 4242 4242", expMonth: 1, expYear: 2030, cvc: "123" });
    expect(ok.cardNumber).toBe("4242424242424242");
    const bad = sandboxConfirmBodySchema.safeParse({ clientSecret: "s", cardNumber: "42", expMonth: 13, expYear: 2030, cvc: "1" });
    expect(bad.success).toBe(false);
  });

  it("bounds tips to $1-$1,000 with at most two decimals and requires an idempotency key", () => {
    const tip = (amount: number) => tipBodySchema.safeParse({ amount, idempotencyKey: "3f0c8a2e-9b1d-4c6e-8f7a-2d5b9e1c4a60" }).success;
    expect(tip(1)).toBe(true);
    expect(tip(1000)).toBe(true);
    expect(tip(0.99)).toBe(false);
    expect(tip(1000.01)).toBe(false);
    expect(tip(5.555)).toBe(false);
    expect(tipBodySchema.safeParse({ amount: 5 }).success).toBe(false);
    expect(tipBodySchema.safeParse({ amount: 5, idempotencyKey: "not-a-uuid" }).success).toBe(false);
  });
});
