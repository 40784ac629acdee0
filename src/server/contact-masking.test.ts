import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HIDDEN, maskContactDetails } from "./contact-masking.js";

// Masking of contact details in text others read before a task is paid
// (docs/decisions/070-contact-masking.md): what is hidden, what stays as written.

const { phone: PHONE, email: EMAIL, link: LINK } = HIDDEN;

describe("maskContactDetails", () => {
  it.each([
    // Written plainly.
    ["Call me on 555-123-4567 today", `Call me on ${PHONE} today`],
    ["Call (555) 123-4567", `Call ${PHONE}`],
    ["Text 555.123.4567 please", `Text ${PHONE} please`],
    ["Ring 555 123 4567", `Ring ${PHONE}`],
    ["Ring 410 555 2026", `Ring ${PHONE}`],
    ["My cell is 5551234567.", `My cell is ${PHONE}.`],
    ["Dial +1 (555) 123-4567", `Dial ${PHONE}`],
    ["UK: +44 20 7946 0958", `UK: ${PHONE}`],
    ["Local 555-1234 works", `Local ${PHONE} works`],
    ["Hi! Call 410 555 1234 after 5pm, thanks.", `Hi! Call ${PHONE} after 5pm, thanks.`],
    ["Office 410-555-1234 ext. 22 any time", `Office ${PHONE} any time`],
    ["Fax 410/555-1234", `Fax ${PHONE}`],
    ["From abroad 0044 20 7946 0958", `From abroad ${PHONE}`],
    ["call4105551234now", `call${PHONE}now`],
    // Spread out, in other characters, or in words.
    ["spaced 5 5 5 1 2 3 4", `spaced ${PHONE}`],
    ["Call 410  555  1234 now", `Call ${PHONE} now`],
    ["Call 410_555_1234", `Call ${PHONE}`],
    ["Call ４１０５５５１２３４ now", `Call ${PHONE} now`],
    ["Call 4\u200B1\u200B0\u200B5\u200B5\u200B5\u200B1\u200B2\u200B3\u200B4 now", `Call ${PHONE} now`],
    ["Call 410\u00AD555\u00AD1234", `Call ${PHONE}`],
    ["Call ٤١٠٥٥٥١٢٣٤", `Call ${PHONE}`],
    ["Call 4\uFE0F\u20E31\uFE0F\u20E30\uFE0F\u20E3 555 1234", `Call ${PHONE}`],
    ["four one zero five five five one two three four", PHONE],
    ["It is Four One Zero, five five five, 1234.", `It is ${PHONE}.`],
    ["call four 1 0 five five five 1 2 3 4 tonight", `call ${PHONE} tonight`],
    ["four ten five five five twelve thirty-four", PHONE],
    ["double five five one two three four", PHONE],
  ])("hides the phone number in %j", (input, masked) => {
    expect(maskContactDetails(input)).toBe(masked);
  });

  it.each([
    ["Write to sam@example.com first", `Write to ${EMAIL} first`],
    ["Write to sam.porter+jobs@mail.example.co.uk.", `Write to ${EMAIL}.`],
    ["sam @ gmail . com", EMAIL],
    ["sam at gmail dot com", EMAIL],
    ["sam (at) gmail [dot] com", EMAIL],
    ["sam at gmail.com", EMAIL],
    ["sam at gmail", EMAIL],
    ["Mail SAM AT HOTMAIL please", `Mail ${EMAIL} please`],
    ["me@home", EMAIL],
    ["sam＠gmail.com", EMAIL],
    ["sam\u200B@\u200Bgmail.com", EMAIL],
  ])("hides the e-mail address in %j", (input, masked) => {
    expect(maskContactDetails(input)).toBe(masked);
  });

  it.each([
    ["See https://example.com/job?id=4 for photos", `See ${LINK} for photos`],
    ["See http://x.y", `See ${LINK}`],
    ["Visit www.mysite.net now", `Visit ${LINK} now`],
    ["Go to example.com/xyz", `Go to ${LINK}`],
    ["book on mysite.io", `book on ${LINK}`],
    ["HTTPS://EXAMPLE.COM", LINK],
    ["Telegram: t.me/sammy", `Telegram: ${LINK}`],
    ["WhatsApp wa.me/14105551234 ok", `WhatsApp ${LINK} ok`],
    ["join discord.gg/abc123", `join ${LINK}`],
    ["book at mysite.plumbing", `book at ${LINK}`],
    ["write to sam at mysite dot com", `write to sam at ${LINK}`],
    ["go to evil dot com", `go to ${LINK}`],
    ["go to evil[.]com", `go to ${LINK}`],
    ["hxxp://evil.example/x", LINK],
    ["open hxxps://", `open ${LINK}`],
    ["ｈｔｔｐｓ://evil.example", LINK],
    ["tg://resolve?domain=sammy", LINK],
  ])("hides the link in %j", (input, masked) => {
    expect(maskContactDetails(input)).toBe(masked);
  });

  it.each([
    "Would you take $45 for this?",
    "I can do it for 45.00 or $1,250.50.",
    "I can come at 10:30 on 12/05.",
    "It takes 2-3 hours, between 9 and 5, on 12/05/2026.",
    "Is the couch 2 metres long and 80 kg?",
    "Can I arrive at noon on Saturday?",
    "Is parking free at the building? Node.js and e.g. are fine words.",
    "Move 3 boxes from 1234 Main St, Baltimore, MD 21201-1234 to the store.",
    "Apt 4B, 1234 5th Ave, New York, NY 10001",
    "Due 2026-05-12 or 12.05.2026, for the 2025-2026 school year.",
    "Meet me at the store at noon; dot the i's and cross the t's.",
    "Pick up at 5pm @ the front desk, then drop off at home.",
    "Budget $120.50 - $150.75, about 25 kg, a 120*80*60 cm box, 3 x 4 ft.",
    "Shifts 10.30-11.30 and 9.15-10.45, one or two helpers, five boxes.",
    "Sizes 8, 10 and 12, a polka dot dress and a dot com era lamp.",
    "Walk my dog at 7:00 and 18:00, Dec 20-27 2026, or 12 14 2026.",
    "Assemble an IKEA PAX 802.145.49 wardrobe, 2 units, 9am-12pm.",
  ])("keeps %j as written", (input) => {
    expect(maskContactDetails(input)).toBe(input);
  });

  it("masks only the characters of the contact detail, keeping invisible characters and spacing around it", () => {
    expect(maskContactDetails("Hello\u200B there,\n  call 410 555 1234\t(evenings)")).toBe(`Hello\u200B there,\n  call ${PHONE}\t(evenings)`);
  });

  it("takes time in proportion to the text, whatever the text is made of", () => {
    // Each text read 7 times, the fastest counted, in this process's CPU time (ms): on a loaded
    // machine (two server files side by side beside a browser) a 9 ms read was preempted in all
    // seven tries on the wall clock, while the work itself stays the same.
    const timeOf = (text: string) => {
      let best = Infinity;
      for (let run = 0; run < 7; run++) {
        const started = process.cpuUsage();
        maskContactDetails(text);
        const used = process.cpuUsage(started);
        best = Math.min(best, (used.user + used.system) / 1000);
      }
      return best;
    };
    timeOf("Warm up: call 410 555 1234 or sam at gmail dot com.".repeat(40));
    const busy = "Call 410 555 1234 or sam at gmail dot com, see t.me/sam, $45 at 10:30 on 12/05. ".repeat(25).slice(0, 2000);
    const ordinary = "Two of us can move the couch and 3 boxes to the second floor on Saturday at 10:30 for $45. ".repeat(25).slice(0, 2000);
    // Linear: four times the text takes about four times as long, not sixteen (a floor of 1 ms for the timer's grain).
    expect(timeOf(busy)).toBeLessThan(Math.max(timeOf(busy.slice(0, 500)) * 10, 1));
    // Texts written to make a scanner backtrack or a library search: long runs of one character or pair.
    const baseline = Math.max(timeOf(ordinary), 0.5);
    for (const unit of [" ", "1", "a", "( ", "1 ", "a@", ".a", "1.", "12-", "@ ", "one ", "x@y.com ", "4105551234 a ", "\u200B", "é", "a dot ", "hxxp", "[at]"]) {
      const hostile = unit.repeat(Math.ceil(2000 / unit.length)).slice(0, 2000);
      expect(timeOf(hostile), JSON.stringify(unit)).toBeLessThan(baseline * 20);
    }
  });
});

const DIGIT_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
const FULL_WIDTH_ZERO = 0xff10;

/** A US number (area code and exchange from 2 to 9) written in one of the ways people dodge a filter. */
const disguisedPhone = fc
  .tuple(
    fc.integer({ min: 2, max: 9 }),
    fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 2, maxLength: 2 }),
    fc.integer({ min: 2, max: 9 }),
    fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 6, maxLength: 6 }),
  )
  .map(([a, area, e, rest]) => [a, ...area, e, ...rest])
  .chain((digits) =>
    fc.record({
      digits: fc.constant(digits),
      groups: fc.constantFrom([3, 3, 4], [10], [1, 1, 1, 1, 1, 1, 1, 1, 1, 1], [3, 7], [6, 4]),
      separator: fc.constantFrom(" ", "  ", "-", ".", " - ", "\u00A0", "\n", "_"),
      glyph: fc.constantFrom("ascii", "full-width", "word", "mixed"),
      invisible: fc.constantFrom("", "\u200B", "\u200D", "\u2060", "\uFEFF", "\u00AD"),
      prefix: fc.constantFrom("", "+1 ", "1-", "(", "+1 ("),
    }),
  )
  .map(({ digits, groups, separator, glyph, invisible, prefix }) => {
    const write = (d: number, i: number) => {
      if (glyph === "full-width") return String.fromCharCode(FULL_WIDTH_ZERO + d);
      if (glyph === "word" || (glyph === "mixed" && i % 2 === 0)) return DIGIT_WORDS[d] ?? "";
      return String(d);
    };
    const parts: string[] = [];
    let i = 0;
    for (const size of groups) {
      const group = digits.slice(i, i + size).map((d, k) => write(d, i + k));
      parts.push(group.join(glyph === "ascii" || glyph === "full-width" ? invisible : ` ${invisible}`));
      i += size;
    }
    const body = parts.join(`${invisible}${separator}${invisible}`);
    return (glyph === "word" ? "" : prefix) + (prefix.endsWith("(") && glyph !== "word" ? body.replace(separator, `)${separator}`) : body);
  });

/** Ordinary words with no digit, number word, address or link in them. */
const filler = fc.array(fc.constantFrom("call", "me", "on", "please", "the", "couch", "is", "heavy", "at", "store", "tomorrow", "thanks!", "Hi,", "my", "cell:"), { maxLength: 6 }).map((w) => w.join(" "));

/** Any digit or number word left in a text, read as the masker reads it. */
function digitsLeft(text: string): string[] {
  const plain = text.normalize("NFKC");
  return [...(plain.match(/\d/g) ?? []), ...(plain.toLowerCase().match(new RegExp(String.raw`\b(?:${DIGIT_WORDS.join("|")})\b`, "g")) ?? [])];
}

describe("maskContactDetails, for any text", () => {
  it("masks every digit of a phone number however it is written", () => {
    fc.assert(
      fc.property(filler, disguisedPhone, filler, (before, phone, after) => {
        const masked = maskContactDetails(`${before} ${phone} ${after}`);
        expect(digitsLeft(masked)).toEqual([]);
        expect(masked).toContain("[hidden: ");
      }),
      { numRuns: 1000 },
    );
  });

  const pieces = fc.constantFrom(
    "5", "55", "555", "1234", "４", " ", "  ", "-", ".", "(", ")", "+", "@", "＠", "a", "b", "_", "http", "HtTp", "hxxp", "www.", ".com", " dot ", " at ", "(at)", "[dot]",
    "/", ":", "$", "\u200B", "\u00AD", "four", "one", "twenty", "double", "gmail", "t.me", "2026-05-12", "21201-1234", "10.30", "5th", "[hidden: phone]", "\u0301", "é",
  );
  const texts = fc.oneof(fc.string({ maxLength: 120, unit: "grapheme" }), fc.string({ maxLength: 60, unit: "binary" }), fc.array(pieces, { maxLength: 40 }).map((p) => p.join("")));

  it("never throws, and masking twice changes nothing more", () => {
    fc.assert(
      fc.property(texts, (input) => {
        const masked = maskContactDetails(input);
        expect(maskContactDetails(masked)).toBe(masked);
      }),
      { numRuns: 3000 },
    );
  });

  it("never leaves a 7-digit run, an @ between word characters, or http", () => {
    fc.assert(
      fc.property(texts, (input) => {
        const masked = maskContactDetails(input).normalize("NFKC").replace(/[\p{Cf}\p{M}]/gu, "");
        expect(masked).not.toMatch(/\d{7,}/);
        expect(masked).not.toMatch(/\w@\w/);
        expect(masked.toLowerCase()).not.toContain("http");
      }),
      { numRuns: 3000 },
    );
  });
});
