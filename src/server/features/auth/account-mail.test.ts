import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hideOneTimeLinks } from "../../adapters/mail/one-time-links.js";
import * as accountMail from "./account-mail.js";

// Every account e-mail, as the admin outbox shows it, shows none of its one-time tokens: the
// templates are all of this module's functions, so a new one is checked without being listed here.

describe("account e-mails in the admin outbox", () => {
  it.each(Object.entries(accountMail))("%s shows no link with its token", (_name, template) => {
    const token = randomBytes(32).toString("base64url");
    const mail = (template as (publicUrl: string, token: string) => { text: string })("https://errandly.example", token);
    const links = (text: string) => text.match(/https?:\/\/\S+/g) ?? [];
    const shown = hideOneTimeLinks(mail.text);
    expect(links(shown).filter((link) => link.includes(token))).toEqual([]);
    // The links without a token are still there for the admin to read.
    expect(links(shown).length + (shown.match(/\[link hidden/g)?.length ?? 0)).toBe(links(mail.text).length);
  });
});
