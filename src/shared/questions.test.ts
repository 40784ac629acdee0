import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { askQuestionBodySchema, HIDDEN, maskContactDetails } from "./questions.js";

// Masking of contact details in public questions and answers (docs/decisions/063-public-questions.md).

describe("maskContactDetails", () => {
  it.each([
    ["Call me on 555-123-4567 today", `Call me on ${HIDDEN.phone} today`],
    ["Call (555) 123-4567", `Call ${HIDDEN.phone}`],
    ["Text 555.123.4567 please", `Text ${HIDDEN.phone} please`],
    ["Ring 555 123 4567", `Ring ${HIDDEN.phone}`],
    ["My cell is 5551234567.", `My cell is ${HIDDEN.phone}.`],
    ["Dial +1 (555) 123-4567", `Dial ${HIDDEN.phone}`],
    ["UK: +44 20 7946 0958", `UK: ${HIDDEN.phone}`],
    ["Local 555-1234 works", `Local ${HIDDEN.phone} works`],
    ["spaced 5 5 5 1 2 3 4", `spaced ${HIDDEN.phone}`],
  ])("hides the phone number in %j", (input, masked) => {
    expect(maskContactDetails(input)).toBe(masked);
  });

  it.each([
    ["Write to sam@example.com first", `Write to ${HIDDEN.email} first`],
    ["Write to sam.porter+jobs@mail.example.co.uk.", `Write to ${HIDDEN.email}.`],
    ["sam @ gmail . com", HIDDEN.email],
    ["sam at gmail dot com", HIDDEN.email],
    ["sam (at) gmail [dot] com", HIDDEN.email],
    ["sam at gmail.com", HIDDEN.email],
    ["me@home", HIDDEN.email],
  ])("hides the e-mail address in %j", (input, masked) => {
    expect(maskContactDetails(input)).toBe(masked);
  });

  it.each([
    ["See https://example.com/job?id=4 for photos", `See ${HIDDEN.link} for photos`],
    ["See http://x.y", `See ${HIDDEN.link}`],
    ["Visit www.mysite.net now", `Visit ${HIDDEN.link} now`],
    ["Go to example.com/xyz", `Go to ${HIDDEN.link}`],
    ["book on mysite.io", `book on ${HIDDEN.link}`],
    ["HTTPS://EXAMPLE.COM", HIDDEN.link],
  ])("hides the link in %j", (input, masked) => {
    expect(maskContactDetails(input)).toBe(masked);
  });

  it.each([
    "Would you take $45 for this?",
    "I can do it for 45.00 or $1,250.50.",
    "I can come at 10:30 on 12/05.",
    "Is the couch 2 metres long and 80 kg?",
    "Can I arrive at noon on Saturday?",
    "Is parking free at the building? Node.js and e.g. are fine words.",
    "Between 9 and 5, on 12/05/2026.",
  ])("keeps %j as written", (input) => {
    expect(maskContactDetails(input)).toBe(input);
  });

  it("never leaves a 7-digit run, an @ between word characters, or http", () => {
    const pieces = fc.constantFrom("5", "55", "555", "1234", " ", "-", ".", "(", ")", "+", "@", "a", "b", "_", "http", "HtTp", "www.", ".com", " at ", " dot ", "/", ":", "$");
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 120 }), fc.array(pieces, { maxLength: 40 }).map((p) => p.join(""))), (input) => {
        const masked = maskContactDetails(input);
        expect(masked).not.toMatch(/\d{7,}/);
        expect(masked).not.toMatch(/\w@\w/);
        expect(masked.toLowerCase()).not.toContain("http");
      }),
      { numRuns: 2000 },
    );
  });
});

describe("askQuestionBodySchema", () => {
  it("wants 10 to 1000 characters after trimming", () => {
    expect(askQuestionBodySchema.safeParse({ body: "   short   " }).success).toBe(false);
    expect(askQuestionBodySchema.safeParse({ body: "x".repeat(1001) }).success).toBe(false);
    expect(askQuestionBodySchema.parse({ body: "  Is there parking?  " }).body).toBe("Is there parking?");
  });
});
