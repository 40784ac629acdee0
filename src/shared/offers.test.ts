import { describe, expect, it } from "vitest";
import { offerAcceptWords, offerQuote } from "./offers.js";
import { DEFAULT_PAYMENT_WINDOW_MINUTES } from "./task-lifecycle.js";

describe("offerAcceptWords", () => {
  it("states the total first and how long the poster has to pay, from the payment window's constant", () => {
    const words = offerAcceptWords("Sam P.", offerQuote(4000, "standard"));
    // $40 + the service fee ceil(8% of $40) + $0.50 = $43.70.
    expect(words).toBe(
      `You will pay $43.70 in total: Sam P.'s price of $40.00 and the $3.70 service fee. Sam P. is assigned at once and you have ${DEFAULT_PAYMENT_WINDOW_MINUTES} minutes to pay; the other offers are closed.`,
    );
  });
});
