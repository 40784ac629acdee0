import { describe, expect, it } from "vitest";
import { count, eq } from "drizzle-orm";
import { users } from "../../db/schema/users.js";
import { DEMO_PASSWORD } from "../../seed/demo.js";
import { passwordProblem } from "./password-policy.js";
import { TEST_ORIGIN, useTestApp } from "../../../../test/create-test-app.js";

// docs/product.md "Passwords": at least 10 characters, not common or breached, not built from the
// person's own name or e-mail (zxcvbn score 3 or more).

const t = await useTestApp();

const register = (body: Record<string, string>) =>
  t.app.inject({ method: "POST", url: "/api/auth/register", payload: body, headers: { origin: TEST_ORIGIN } });

async function userCount(): Promise<number> {
  const [row] = await t.database.db.select({ n: count() }).from(users);
  return row?.n ?? 0;
}

describe("password policy", () => {
  it("refuses a password shorter than 10 characters, saying why", async () => {
    const before = await userCount();
    const res = await register({ email: "short@example.test", password: "nine-char", firstName: "Sam", lastName: "Short" });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/at least 10 characters: longer passwords are much harder to guess/);
    expect(await userCount()).toBe(before);
  });

  it.each(["password1234", "Password1234!", "qwerty123456", "iloveyou2024", "1q2w3e4r5t6y"])(
    "refuses the common password %s with 400 and stores nothing",
    async (password) => {
      const before = await userCount();
      const res = await register({ email: `common-${before}@example.test`, password, firstName: "Cory", lastName: "Common" });
      expect(res.statusCode).toBe(400);
      const message = "This password is too common: choose one that is hard to guess, for example three or four unrelated words.";
      expect(res.json()).toEqual({ message, fieldErrors: { password: message } });
      expect(await userCount()).toBe(before);
    },
  );

  it("refuses a password built from the person's own name or e-mail", async () => {
    const res = await register({
      email: "margaret.whitfield@example.test",
      password: "margaretwhitfield",
      firstName: "Margaret",
      lastName: "Whitfield",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      "This password is built from your name or e-mail: choose one that is hard to guess, for example three or four unrelated words.",
    );
    // The same password is fine for someone else: it is the name that makes it guessable.
    expect(await passwordProblem("margaretwhitfield", { email: "lee@example.test", firstName: "Lee", lastName: "Park" })).toBeNull();
  });

  it("refuses a pattern with the reason (repeats, sequences)", async () => {
    expect(await passwordProblem("abcdefghijkl", {})).toMatch(/^This password is too easy to guess\. Common sequences/);
    expect(await passwordProblem("x".repeat(200), {})).toMatch(/Repeated characters/);
  });

  it("accepts a long password of unrelated words and stores the account", async () => {
    const res = await register({ email: "good@example.test", password: "orchid kettle planet", firstName: "Gita", lastName: "Good" });
    expect(res.statusCode).toBe(202);
    const [row] = await t.database.db.select().from(users).where(eq(users.email, "good@example.test"));
    expect(row?.passwordHash).toMatch(/^scrypt\$/);
  });

  it("the demo password printed by npm start meets the policy for every demo account", async () => {
    for (const [email, firstName, lastName] of [
      ["poster@errandly.test", "Paula", "Poster"],
      ["provider@errandly.test", "Devon", "Provider"],
      ["admin@errandly.test", "Ada", "Admin"],
    ] as const) {
      expect(await passwordProblem(DEMO_PASSWORD, { email, firstName, lastName })).toBeNull();
    }
  });
});
