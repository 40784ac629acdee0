import { describe, expect, it } from "vitest";
import { z } from "zod";
import { contactBodySchema } from "@shared/site";
import { createTaskBodySchema } from "@shared/tasks";
import { profilePatchSchema } from "@shared/providers";
import { tipBodySchema } from "@shared/payments";
import { amountText, maxLengthOf, maxValueOf, minValueOf, optionalAmountText } from "./form";

describe("maxLengthOf", () => {
  it("reads the limit of a shared text field, through trims, optional, nullable and transforms", () => {
    expect(maxLengthOf(contactBodySchema.shape.message)).toBe(5000);
    expect(maxLengthOf(createTaskBodySchema.shape.title)).toBe(120);
    expect(maxLengthOf(createTaskBodySchema.shape.location)).toBe(300);
    expect(maxLengthOf(contactBodySchema.shape.email)).toBe(254);
  });

  it("is undefined without a limit or for a non-string", () => {
    expect(maxLengthOf(z.string())).toBeUndefined();
    expect(maxLengthOf(z.number().max(3))).toBeUndefined();
  });
});

describe("maxValueOf and minValueOf", () => {
  it("read the bounds of a shared number field", () => {
    expect(maxValueOf(profilePatchSchema.shape.hourlyRate)).toBe(10_000);
    expect(minValueOf(profilePatchSchema.shape.hourlyRate)).toBe(0);
    expect(maxValueOf(z.string())).toBeUndefined();
  });
});

describe("amountText", () => {
  const tip = amountText(tipBodySchema.shape.amount, "Enter an amount");
  const message = (value: string) => tip.safeParse(value).error?.issues[0]?.message;

  it("reads dollars typed as text and keeps the shared schema's own messages", () => {
    expect(tip.parse(" 12.5 ")).toBe(12.5);
    expect(message("")).toBe("Enter an amount");
    expect(message("ten")).toBe("must be a number");
    expect(message("0.5")).toBe("Tip must be at least $1");
    expect(message("1.005")).toBe("must have at most two decimals");
    expect(message("1000.01")).toBe("Tip must be at most $1,000");
  });

  it("takes an empty optional amount as null", () => {
    const rate = optionalAmountText(z.number().max(10));
    expect(rate.parse("")).toBeNull();
    expect(rate.parse("7")).toBe(7);
    expect(rate.safeParse("11").success).toBe(false);
  });
});
