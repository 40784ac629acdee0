import { desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { emailOutbox } from "../../db/schema/site.js";
import { useTestApp } from "../../../../test/create-test-app.js";

// Without PUBLIC_URL, the links in e-mails follow PORT (docs/product.md, "Accounts: recovery and
// verification"): a local run on another port must get links that reach it.

const t = await useTestApp({ PUBLIC_URL: "", PORT: "3100" });
const origin = "http://localhost:3100";

const post = (url: string, payload: object) => t.app.inject({ method: "POST", url, payload, headers: { origin } });

async function newestMail(email: string): Promise<string> {
  const [mail] = await t.database.db.select().from(emailOutbox).where(eq(emailOutbox.to, email)).orderBy(desc(emailOutbox.createdAt)).limit(1);
  if (!mail) throw new Error(`no mail to ${email}`);
  return mail.text;
}

describe("PUBLIC_URL unset", () => {
  it("is http://localhost:PORT", () => {
    expect(t.env.PUBLIC_URL).toBe(origin);
  });

  it("puts that origin in the verification and reset links", async () => {
    const email = "porter@example.test";
    expect((await post("/api/auth/register", { email, password: "amber falcon ribbon", firstName: "Po", lastName: "Rter" })).statusCode).toBe(202);
    expect(await newestMail(email)).toMatch(new RegExp(`${origin}/verify-email\\?token=[A-Za-z0-9_-]+`));

    expect((await post("/api/auth/forgot-password", { email })).statusCode).toBe(202);
    await t.app.ctx.afterAnswer.settled();
    expect(await newestMail(email)).toMatch(new RegExp(`${origin}/reset-password\\?token=[A-Za-z0-9_-]+`));
  });
});
