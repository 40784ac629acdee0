import { randomBytes, randomUUID } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HIDDEN_LINK, hideOneTimeLinks } from "./one-time-links.js";

// What the admin outbox shows of a mail: links that carry a token hidden, the rest as written
// (docs/decisions/066-demo-data-on-loopback-only.md).

const ORIGIN = "https://errandly.example";
const token = () => randomBytes(32).toString("base64url");

describe("hideOneTimeLinks", () => {
  it("hides links with a token in the query, the fragment, the credentials or the path", () => {
    const secret = token();
    for (const link of [
      `${ORIGIN}/verify-email?token=${secret}`,
      `${ORIGIN}/reset-password?token=${secret}`,
      `${ORIGIN}/sign-in?next=%2Fdashboard&code=${secret}`,
      `${ORIGIN}/magic#${secret}`,
      `https://user:${secret}@errandly.example/`,
      `${ORIGIN}/verify/${secret}`,
      `${ORIGIN}/unsubscribe/${randomBytes(16).toString("hex")}/confirm`,
      `HTTP://ERRANDLY.EXAMPLE/verify-email?token=${secret}`,
    ]) {
      const shown = hideOneTimeLinks(`Open it: ${link}.\nThanks`);
      expect(shown, link).toBe(`Open it: ${HIDDEN_LINK}.\nThanks`);
      expect(shown).not.toContain(secret);
    }
  });

  it("keeps links to pages and records, and the punctuation around them", () => {
    const id = randomUUID();
    const text = [
      `Open the task: ${ORIGIN}/task/${id}`,
      `View or download it as a PDF: ${ORIGIN}/receipts/${id}.`,
      `You can apply again at ${ORIGIN}/become-provider. Or write (${ORIGIN}/contact).`,
      `Turn these e-mails off in your notification settings: ${ORIGIN}/settings/notifications`,
      "Not a link: javascript:alert(1) and www.example.com",
    ].join("\n");
    expect(hideOneTimeLinks(text)).toBe(text);
  });

  it("hides every link of a random token in any parameter or path segment, keeping the words around it", () => {
    const tokenChars = fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_");
    const tokens = fc.string({ unit: tokenChars, minLength: 22, maxLength: 64 }).filter((s) => /[0-9A-Z_]/.test(s));
    const name = fc.string({ unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz-"), minLength: 1, maxLength: 15 });
    const words = fc.string({ unit: fc.constantFrom(..."abc ,.:!\n"), maxLength: 20 });
    fc.assert(
      fc.property(tokens, name, name, fc.boolean(), words, words, (secret, page, param, inPath, before, after) => {
        const link = inPath ? `${ORIGIN}/${page}/${secret}` : `${ORIGIN}/${page}?${param}=${secret}`;
        const shown = hideOneTimeLinks(`${before} ${link} ${after}`);
        expect(shown).toBe(`${before} ${HIDDEN_LINK} ${after}`);
      }),
    );
  });
});
