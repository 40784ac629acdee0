import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { passkeys, securityEvents } from "../../db/schema/security.js";
import { sessions, users } from "../../db/schema/users.js";
import { Browser } from "../../../../test/browser.js";
import { createUser, TEST_ORIGIN, useTestApp } from "../../../../test/create-test-app.js";
import { FLAG_UP, FLAG_UV, SoftwarePasskey } from "../../../../test/fakes/software-passkey.js";
import { hashPassword } from "./passwords.js";

// Passkeys with a software authenticator (docs/decisions/049-second-factors.md): a passkey stands
// for two factors only when the device checked it was the person (user verification: fingerprint,
// face or PIN), on every route that takes one; and a credential id names one passkey, on one account.

const t = await useTestApp();
const PASSWORD = "orchid kettle planet";
const passwordHash = await hashPassword(PASSWORD);
const PRESENT_ONLY = FLAG_UP;

/** A verified account with a password, signed in with it in its own browser. */
async function person(): Promise<{ id: string; email: string; browser: Browser }> {
  const user = await createUser(t);
  await t.database.db.update(users).set({ passwordHash }).where(eq(users.id, user.id));
  const browser = new Browser(t);
  expect((await browser.post("/api/auth/login", { email: user.email, password: PASSWORD })).statusCode).toBe(200);
  return { id: user.id, email: user.email, browser };
}

/** Settings, Security: add `key` through the routes, as the browser would. */
async function addPasskey(browser: Browser, key: SoftwarePasskey, flags?: number) {
  const options = await browser.post("/api/account/security/passkeys/options");
  expect(options.statusCode).toBe(200);
  return browser.post("/api/account/security/passkeys", { name: "Laptop", response: key.register(options.json(), flags) });
}

/** Signs in with the passkey alone in a fresh browser. */
async function passkeySignIn(key: SoftwarePasskey, flags?: number) {
  const browser = new Browser(t);
  const options = await browser.post("/api/auth/passkey/options");
  expect(options.statusCode).toBe(200);
  const res = await browser.post("/api/auth/passkey", { response: key.assert(options.json(), flags) });
  return { res, browser };
}

async function proofOfCurrentSession(browser: Browser): Promise<string | undefined> {
  const list = (await browser.get("/api/account/sessions")).json<{ current: boolean; proof: string }[]>();
  return list.find((s) => s.current)?.proof;
}

describe("a passkey stands for two factors only with user verification", () => {
  it("asks the device to verify the person when adding and when signing in", async () => {
    const me = await person();
    const adding = (await me.browser.post("/api/account/security/passkeys/options")).json<{ authenticatorSelection: { userVerification: string } }>();
    expect(adding.authenticatorSelection.userVerification).toBe("required");
    const signingIn = (await new Browser(t).post("/api/auth/passkey/options")).json<{ userVerification: string }>();
    expect(signingIn.userVerification).toBe("required");
  });

  it("a verified passkey signs in alone with a two-factor session", async () => {
    const me = await person();
    const key = new SoftwarePasskey(TEST_ORIGIN);
    expect((await addPasskey(me.browser, key)).statusCode).toBe(201);
    const { res, browser } = await passkeySignIn(key);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ email: me.email });
    expect(await proofOfCurrentSession(browser)).toBe("Passkey");
  });

  it("refuses an assertion made without user verification, alone, as the second step and as a step-up", async () => {
    const me = await person();
    const key = new SoftwarePasskey(TEST_ORIGIN);
    expect((await addPasskey(me.browser, key)).statusCode).toBe(201);
    const sessionsBefore = (await t.database.db.select().from(sessions).where(eq(sessions.userId, me.id))).length;

    // Alone: the probe's admin sign-in with flags 0x01.
    const alone = await passkeySignIn(key, PRESENT_ONLY);
    expect(alone.res.statusCode).toBe(400);
    expect(alone.res.json().message).toMatch(/^That passkey was used without your fingerprint, face or device PIN/);
    expect(await alone.browser.me()).toBe(401);

    // As the second step after the password.
    const second = new Browser(t);
    expect((await second.post("/api/auth/login", { email: me.email, password: PASSWORD })).statusCode).toBe(202);
    const options = await second.post("/api/auth/passkey/options");
    expect(options.json()).toMatchObject({ userVerification: "required" });
    const stepTwo = await second.post("/api/auth/passkey", { response: key.assert(options.json(), PRESENT_ONLY) });
    expect(stepTwo.statusCode).toBe(400);
    expect(stepTwo.json().message).toMatch(/without your fingerprint, face or device PIN/);
    expect(await second.me()).toBe(401);

    // As the fresh proof before a sensitive change.
    const stepUpOptions = await me.browser.post("/api/auth/step-up/passkey/options");
    expect(stepUpOptions.json()).toMatchObject({ userVerification: "required" });
    const stepUp = await me.browser.post("/api/auth/step-up/passkey", { response: key.assert(stepUpOptions.json(), PRESENT_ONLY) });
    expect(stepUp.statusCode).toBe(400);
    expect(stepUp.json().message).toMatch(/without your fingerprint, face or device PIN/);

    expect((await t.database.db.select().from(sessions).where(eq(sessions.userId, me.id))).length).toBe(sessionsBefore);
    const failures = await t.database.db.select().from(securityEvents).where(eq(securityEvents.userId, me.id));
    expect(failures.filter((e) => e.result === "failure").map((e) => e.event)).toEqual(expect.arrayContaining(["sign_in", "step_up"]));
  });

  it("refuses to add a passkey that cannot verify the person", async () => {
    const me = await person();
    const res = await addPasskey(me.browser, new SoftwarePasskey(TEST_ORIGIN), PRESENT_ONLY);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^That passkey does not ask for your fingerprint, face or device PIN/);
    expect(await t.database.db.select().from(passkeys).where(eq(passkeys.userId, me.id))).toEqual([]);
  });

  it("still takes a verified assertion as the second step", async () => {
    const me = await person();
    const key = new SoftwarePasskey(TEST_ORIGIN);
    expect((await addPasskey(me.browser, key)).statusCode).toBe(201);
    const second = new Browser(t);
    expect((await second.post("/api/auth/login", { email: me.email, password: PASSWORD })).statusCode).toBe(202);
    const options = await second.post("/api/auth/passkey/options");
    expect((await second.post("/api/auth/passkey", { response: key.assert(options.json(), FLAG_UP | FLAG_UV) })).statusCode).toBe(200);
    expect(await proofOfCurrentSession(second)).toBe("Password and passkey");
  });
});

describe("a credential id names one passkey", () => {
  it("answers 409 with a sentence when the passkey is already on this account or on another", async () => {
    const first = await person();
    const key = new SoftwarePasskey(TEST_ORIGIN);
    expect((await addPasskey(first.browser, key)).statusCode).toBe(201);

    // The same credential again on the same account (a crafted answer past excludeCredentials).
    const again = await addPasskey(first.browser, new SoftwarePasskey(TEST_ORIGIN, key.id));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: "That passkey is already added to an Errandly account. Use it to sign in there, or add another passkey." });

    // The same credential id on another account.
    const other = await person();
    const stolenId = await addPasskey(other.browser, new SoftwarePasskey(TEST_ORIGIN, key.id));
    expect(stolenId.statusCode).toBe(409);
    expect(stolenId.json().message).toMatch(/already added/);

    const rows = await t.database.db.select().from(passkeys).where(eq(passkeys.credentialId, key.id));
    expect(rows.map((r) => r.userId)).toEqual([first.id]);
  });
});
