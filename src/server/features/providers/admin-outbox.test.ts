import { desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { OutboxEntry } from "../../../shared/providers.js";
import { HIDDEN_LINK } from "../../adapters/mail/one-time-links.js";
import { emailOutbox } from "../../db/schema/site.js";
import { call, createUser, TEST_ORIGIN, useTestApp } from "../../../../test/create-test-app.js";

// The admin outbox shows each e-mail with its one-time links hidden, while the stored mail keeps
// them and they still work for their recipient (docs/decisions/066-demo-data-on-loopback-only.md).
// Reading a link from the outbox gave an admin's session (or its thief) anyone's new account.

const t = await useTestApp();
const post = (url: string, payload: object, cookie = "") => t.app.inject({ method: "POST", url, payload, headers: { origin: TEST_ORIGIN, cookie } });

describe("GET /api/admin/outbox", () => {
  it("hides the verification and reset links, which still work for their recipient", async () => {
    const admin = await createUser(t, { role: "admin" });
    const email = `newcomer-${Date.now()}@example.test`;
    const registered = await post("/api/auth/register", { email, password: "amber falcon ribbon", firstName: "Nia", lastName: "Ro" });
    expect(registered.statusCode).toBe(202);
    // The browser that signed up, which opens the link without typing the password again (decision 044).
    const signUpCookie = String(registered.headers["set-cookie"]).split(";")[0] ?? "";
    expect((await post("/api/auth/forgot-password", { email })).statusCode).toBe(202);
    await t.app.ctx.afterAnswer.settled();

    const stored = await t.database.db.select().from(emailOutbox).where(eq(emailOutbox.to, email)).orderBy(desc(emailOutbox.createdAt));
    const tokens = stored.flatMap((mail) => [...mail.text.matchAll(/\/(?:verify-email|reset-password)\?token=([\w-]+)/g)].map((m) => m[1] ?? ""));
    expect(tokens).toHaveLength(2);

    const res = await call(t, admin, { url: "/api/admin/outbox" });
    expect(res.statusCode).toBe(200);
    const shown = res.json<OutboxEntry[]>().filter((mail) => mail.to === email);
    expect(shown.map((mail) => mail.subject).sort()).toEqual(stored.map((mail) => mail.subject).sort());
    for (const mail of shown) {
      expect(mail.text).toContain(HIDDEN_LINK);
      for (const token of tokens) expect(mail.text).not.toContain(token);
    }

    // The recipient's link still works.
    const verifyToken = /\/verify-email\?token=([\w-]+)/.exec(stored.find((mail) => mail.kind === "account_verify_email")?.text ?? "")?.[1];
    expect((await post("/api/auth/verify-email", { token: verifyToken }, signUpCookie)).statusCode).toBe(200);
  });
});
