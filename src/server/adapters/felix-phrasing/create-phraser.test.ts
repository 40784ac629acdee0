import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { ManualTimers } from "../clock/manual-timers.js";
import { chatCompletionsUrl, createPhraser, dollarFiguresInCents, onlyKnownFigures, parseModelHours } from "./create-phraser.js";

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

describe("language model reading of hours", () => {
  it("accepts a figure inside its range, with or without a code fence", () => {
    const reading = { hours: 3, low: 2, high: 4, what: "a small garage" };
    expect(parseModelHours(JSON.stringify(reading))).toEqual(reading);
    expect(parseModelHours("```json\n" + JSON.stringify(reading) + "\n```")).toEqual(reading);
    expect(parseModelHours('{"hours": 0.25, "low": 0.25, "high": 72, "what": "x"}')).toMatchObject({ low: 0.25, high: 72 });
  });

  it("rejects nonsense", () => {
    for (const content of [
      '{"hours": 0.1, "low": 0.1, "high": 0.2, "what": "x"}',
      '{"hours": 80, "low": 72, "high": 90, "what": "x"}',
      '{"hours": 3, "low": 4, "high": 5, "what": "x"}',
      '{"hours": 3, "low": 2, "high": 4, "what": ""}',
      '{"hours": 3, "low": 2, "high": 4, "what": "a $500 garage job"}',
      '{"hours": null}',
      "three hours",
    ]) {
      expect(parseModelHours(content)).toBeNull();
    }
  });

  it("reads nothing without a configured model", async () => {
    expect(await createPhraser({ timeoutMs: 100 }).readHours("Clear out the garage")).toBeNull();
  });
});

describe("language model timeout", () => {
  // A model that reads the question and never answers: only the timeout, on virtual time, ends the call.
  let arrived: () => void = () => undefined;
  const server = createServer((req) => {
    req.resume();
    req.on("end", () => arrived());
  });
  const listening = new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("keeps the built-in answer once the timeout passes without an answer", async () => {
    await listening;
    const timers = new ManualTimers();
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const phraser = createPhraser({ url, model: "m", timeoutMs: 1_500, timers });
    const received = new Promise<void>((resolve) => (arrived = resolve));
    let settled = false;
    const reply = phraser.phrase({ question: "q", draft: "built-in", facts: {}, figures: [] }).finally(() => (settled = true));
    await received;
    timers.advance(1_499);
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    timers.advance(1);
    expect(await reply).toBe("built-in");
  });
});
