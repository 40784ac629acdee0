import { describe, expect, it } from "vitest";
import { askQuestionBodySchema } from "./questions.js";

describe("askQuestionBodySchema", () => {
  it("wants 10 to 1000 characters after trimming", () => {
    expect(askQuestionBodySchema.safeParse({ body: "   short   " }).success).toBe(false);
    expect(askQuestionBodySchema.safeParse({ body: "x".repeat(1001) }).success).toBe(false);
    expect(askQuestionBodySchema.parse({ body: "  Is there parking?  " }).body).toBe("Is there parking?");
  });
});
