import { desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { VERIFY_CHOOSE_PASSWORD_MESSAGE } from "../../../shared/auth.js";
import { emailOutbox } from "../../db/schema/site.js";
import { authTokens, users } from "../../db/schema/users.js";
import { TEST_ORIGIN, useTestApp } from "../../../../test/create-test-app.js";

// An address taken before its owner signs up: whoever proves control of the inbox ends up the only
// one holding the account (docs/decisions/044-verification-ends-other-holders.md, docs/security.md).
// Each "browser" is its own cookie jar.

const t = await useTestApp({ ADMIN_EMAILS: "boss@example.test" });

const ATTACKER_PASSWORD = "quartz lagoon marmalade";
const OWNER_PASSWORD = "cinder orchard tambourine";

class Browser {
  private readonly jar = new Map<string, string>();

  async post(url: string, payload: object): Promise<{ statusCode: number; json: <T>() => T }> {
    const res = await t.app.inject({ method: "POST", url, payload, headers: { origin: TEST_ORIGIN, cookie: this.cookie() } });
    const raw = res.headers["set-cookie"];
    for (const line of Array.isArray(raw) ? raw : raw ? [raw] : []) {
      const [pair = "", ...attributes] = String(line).split(";");
      const [name = "", value = ""] = pair.split("=");
      if (attributes.some((a) => /max-age=0|expires=thu, 01 jan 1970/i.test(a.trim())) || value === "") this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return res;
  }

  async me(): Promise<number> {
    return (await t.app.inject({ url: "/api/auth/user", headers: { cookie: this.cookie() } })).statusCode;
  }

  private cookie(): string {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

async function verifyLinks(email: string): Promise<string[]> {
  const mails = await t.database.db.select().from(emailOutbox).where(eq(emailOutbox.to, email)).orderBy(desc(emailOutbox.createdAt));
  return mails.flatMap((m) => [...m.text.matchAll(/\/verify-email\?token=([A-Za-z0-9_-]+)/g)].map((match) => match[1] ?? ""));
}

async function newestVerifyToken(email: string): Promise<string> {
  const [token] = await verifyLinks(email);
  if (!token) throw new Error(`no verification link to ${email}`);
  return token;
}

const register = (browser: Browser, email: string, password: string, firstName: string) =>
  browser.post("/api/auth/register", { email, password, firstName, lastName: "Person" });
const signIn = (browser: Browser, email: string, password: string) => browser.post("/api/auth/login", { email, password });

/** The attacker registers the address with their password and signs in while it is unverified. */
async function squat(email: string): Promise<Browser> {
  const attacker = new Browser();
  expect((await register(attacker, email, ATTACKER_PASSWORD, "Mallory")).statusCode).toBe(202);
  expect((await signIn(attacker, email, ATTACKER_PASSWORD)).statusCode).toBe(200);
  expect(await attacker.me()).toBe(200);
  return attacker;
}

describe("an address registered before its owner signs up", () => {
  it("belongs to the owner alone once they open the link from their own sign-up", async () => {
    const email = "victim@example.test";
    const attacker = await squat(email);

    const owner = new Browser();
    expect((await register(owner, email, OWNER_PASSWORD, "Olivia")).statusCode).toBe(202);
    const res = await owner.post("/api/auth/verify-email", { token: await newestVerifyToken(email) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ email, emailVerified: true, role: "user" });

    // The attacker's session ended, their password no longer works, the owner's does.
    expect(await attacker.me()).toBe(401);
    expect((await signIn(new Browser(), email, ATTACKER_PASSWORD)).statusCode).toBe(401);
    expect((await signIn(new Browser(), email, OWNER_PASSWORD)).statusCode).toBe(200);
    expect(await owner.me()).toBe(200);
  });

  it("does not make an ADMIN_EMAILS squatter admin: the owner is, and alone", async () => {
    const email = "boss@example.test";
    const attacker = await squat(email);

    const owner = new Browser();
    expect((await register(owner, email, OWNER_PASSWORD, "Olivia")).statusCode).toBe(202);
    const res = await owner.post("/api/auth/verify-email", { token: await newestVerifyToken(email) });
    expect(res.statusCode).toBe(200);
    // The admin role, whose powers wait for a second factor: the link is one factor (decision 068).
    expect(res.json()).toMatchObject({ email, role: "admin", isAdmin: false, adminNeedsSecondFactor: true });

    expect(await attacker.me()).toBe(401);
    expect((await signIn(new Browser(), email, ATTACKER_PASSWORD)).statusCode).toBe(401);
    const admin = new Browser();
    expect((await signIn(admin, email, OWNER_PASSWORD)).statusCode).toBe(200);
    expect(await admin.me()).toBe(200);
  });

  it("asks whoever opens the squatter's own link elsewhere to choose the password", async () => {
    const email = "welcome@example.test";
    const attacker = await squat(email);
    const token = await newestVerifyToken(email);

    // The owner opens the welcome mail the attacker's sign-up sent: not the browser that signed up.
    const owner = new Browser();
    const asked = await owner.post("/api/auth/verify-email", { token });
    expect(asked.statusCode).toBe(409);
    expect(asked.json()).toEqual({ message: VERIFY_CHOOSE_PASSWORD_MESSAGE });
    // Nothing happened yet: the link still works and the account is not verified.
    const [row] = await t.database.db.select().from(users).where(eq(users.email, email));
    expect(row?.emailVerifiedAt).toBeNull();
    expect(await attacker.me()).toBe(200);

    const done = await owner.post("/api/auth/verify-email", { token, password: OWNER_PASSWORD });
    expect(done.statusCode).toBe(200);
    expect(await attacker.me()).toBe(401);
    expect((await signIn(new Browser(), email, ATTACKER_PASSWORD)).statusCode).toBe(401);
    expect((await signIn(new Browser(), email, OWNER_PASSWORD)).statusCode).toBe(200);
  });

  it("does not hand the owner the password of a registration made after theirs", async () => {
    const email = "latecomer@example.test";
    await squat(email);
    const owner = new Browser();
    expect((await register(owner, email, OWNER_PASSWORD, "Olivia")).statusCode).toBe(202);
    // The attacker signs up again, so the newest link in the owner's inbox carries their password.
    expect((await register(new Browser(), email, ATTACKER_PASSWORD, "Mallory")).statusCode).toBe(202);
    const [pending] = await t.database.db.select().from(authTokens).where(eq(authTokens.purpose, "email_verify")).orderBy(desc(authTokens.createdAt));
    expect(pending?.pendingPasswordHash).not.toBeNull();

    const res = await owner.post("/api/auth/verify-email", { token: await newestVerifyToken(email) });
    expect(res.statusCode).toBe(409);
    expect((await owner.post("/api/auth/verify-email", { token: await newestVerifyToken(email), password: OWNER_PASSWORD })).statusCode).toBe(200);
    expect((await signIn(new Browser(), email, ATTACKER_PASSWORD)).statusCode).toBe(401);
  });

  it("keeps the password of a person who signed up and opens the link in the same browser", async () => {
    const email = "ordinary@example.test";
    const person = new Browser();
    expect((await register(person, email, OWNER_PASSWORD, "Olivia")).statusCode).toBe(202);
    expect((await person.post("/api/auth/verify-email", { token: await newestVerifyToken(email) })).statusCode).toBe(200);
    expect(await person.me()).toBe(200);
    expect((await signIn(new Browser(), email, OWNER_PASSWORD)).statusCode).toBe(200);
  });
});
