import { describe, expect, it } from "vitest";
import { chatCompletionsUrl, createPhraser, dollarFiguresInCents, onlyKnownFigures } from "./phraser.js";

describe("language model guard", () => {
  it("finds dollar amounts however they are written", () => {
    expect(dollarFiguresInCents("Offer $1,250.50, or $ 20, or 35 dollars, or 40 USD; 15% and 3 miles are not money.")).toEqual([
      125050, 2000, 3500, 4000,
    ]);
  });

  it("accepts only the engine's figures, to the cent", () => {
    expect(onlyKnownFigures("A fair budget is $35, mileage $14.50.", [35, 14.5, 20])).toBe(true);
    expect(onlyKnownFigures("A fair budget is $35.00.", [35])).toBe(true);
    expect(onlyKnownFigures("A fair budget is $36.", [35])).toBe(false);
    expect(onlyKnownFigures("No amounts at all.", [])).toBe(true);
  });

  it("takes an API base or the full chat-completions URL", () => {
    expect(chatCompletionsUrl("https://llm.example/v1/")).toBe("https://llm.example/v1/chat/completions");
    expect(chatCompletionsUrl("https://llm.example/v1/chat/completions")).toBe("https://llm.example/v1/chat/completions");
  });

  it("keeps the built-in answer without a configured model", async () => {
    const phraser = createPhraser({ timeoutMs: 100 });
    expect(await phraser.phrase({ question: "q", draft: "built-in", facts: {}, figures: [] })).toBe("built-in");
  });
});
