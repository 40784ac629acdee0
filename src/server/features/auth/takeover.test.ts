import { desc, eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { VERIFY_CHOOSE_PASSWORD_MESSAGE, VERIFY_EMAIL_FIRST_MESSAGE } from "../../../shared/auth.js";
import { pushSubscriptions } from "../../db/schema/push.js";
import { passkeys, recoveryCodes, totpFactors } from "../../db/schema/security.js";
import { emailOutbox } from "../../db/schema/site.js";
import { authTokens, users } from "../../db/schema/users.js";
import { Browser } from "../../../../test/browser.js";
import { TEST_ORIGIN, useTestApp } from "../../../../test/create-test-app.js";
import { startFakeOidcProvider, type Claims } from "../../../../test/fakes/fake-oidc-provider.js";
import { SoftwarePasskey } from "../../../../test/fakes/software-passkey.js";
import { replaceRecoveryCodes } from "./recovery-codes.js";
import { issueToken } from "./tokens.js";
import { newTotpSecret } from "./totp.js";

// An address taken before its owner signs up: whoever proves control of the inbox ends up the only
// one holding the account, with only the credentials they set themselves
// (docs/decisions/044-verification-ends-other-holders.md, 067-planted-credentials-go-at-verification.md,
// docs/security.md). Each "browser" is its own cookie jar.

const provider = await startFakeOidcProvider({ id: "errandly", secret: "secret" });
afterAll(() => provider.close());
const t = await useTestApp({
  ADMIN_EMAILS: "boss@example.test,chief@example.test",
  OIDC_ISSUER_URL: provider.issuer,
  OIDC_CLIENT_ID: "errandly",
  OIDC_CLIENT_SECRET: "secret",
});

const ATTACKER_PASSWORD = "quartz lagoon marmalade";
const OWNER_PASSWORD = "cinder orchard tambourine";

const browser = () => new Browser(t);

async function verifyLinks(email: string): Promise<string[]> {
  const mails = await t.database.db.select().from(emailOutbox).where(eq(emailOutbox.to, email)).orderBy(desc(emailOutbox.createdAt));
  return mails.flatMap((m) => [...m.text.matchAll(/\/verify-email\?token=([A-Za-z0-9_-]+)/g)].map((match) => match[1] ?? ""));
}

async function newestVerifyToken(email: string): Promise<string> {
  const [token] = await verifyLinks(email);
  if (!token) throw new Error(`no verification link to ${email}`);
  return token;
}

async function newestResetToken(email: string): Promise<string> {
  await t.app.ctx.afterAnswer.settled();
  const [mail] = await t.database.db.select().from(emailOutbox).where(eq(emailOutbox.to, email)).orderBy(desc(emailOutbox.createdAt));
  const token = /\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? "")?.[1];
  if (!token) throw new Error(`no reset link to ${email}`);
  return token;
}

const register = (b: Browser, email: string, password: string, firstName: string) =>
  b.post("/api/auth/register", { email, password, firstName, lastName: "Person" });
const signIn = (b: Browser, email: string, password: string) => b.post("/api/auth/login", { email, password });

/** Single sign-on in `b` as the identity `claims` names: the provider's side of /authorize is played here. */
async function singleSignOn(b: Browser, claims: Claims) {
  const start = await b.get("/api/auth/oidc/start?returnTo=/dashboard");
  const authorize = new URL(String(start.headers.location));
  const code = provider.issueCode(authorize, claims);
  return b.get(`/api/auth/oidc/callback?code=${code}&state=${authorize.searchParams.get("state") ?? ""}`);
}

/** The attacker registers the address with their password and signs in while it is unverified. */
async function squat(email: string): Promise<Browser> {
  const attacker = browser();
  expect((await register(attacker, email, ATTACKER_PASSWORD, "Mallory")).statusCode).toBe(202);
  expect((await signIn(attacker, email, ATTACKER_PASSWORD)).statusCode).toBe(200);
  expect(await attacker.me()).toBe(200);
  return attacker;
}

async function accountOf(email: string) {
  const [row] = await t.database.db.select().from(users).where(eq(users.email, email));
  if (!row) throw new Error(`no account for ${email}`);
  return row;
}

/** Every route that adds a second factor refuses an unverified address, with what to do instead. */
async function expectFactorsRefused(attacker: Browser): Promise<void> {
  for (const url of [
    "/api/account/security/totp",
    "/api/account/security/totp/confirm",
    "/api/account/security/recovery-codes",
    "/api/account/security/passkeys/options",
    "/api/account/security/passkeys",
  ]) {
    const res = await attacker.post(url, {});
    expect(res.statusCode, url).toBe(403);
    expect(res.json(), url).toEqual({ message: VERIFY_EMAIL_FIRST_MESSAGE });
  }
}

/**
 * What the attacker had planted on the unverified account by the time the owner proves the inbox,
 * as the code before decision 067 let them: an authenticator app, a passkey, recovery codes, a
 * push device, and an address change waiting on a link in the attacker's own inbox.
 */
async function plant(email: string) {
  const { id: userId } = await accountOf(email);
  const now = t.clock.now();
  const key = new SoftwarePasskey(TEST_ORIGIN);
  await t.database.db.insert(totpFactors).values({ userId, secret: newTotpSecret(), confirmedAt: now });
  await t.database.db.insert(passkeys).values({ userId, credentialId: key.id, publicKey: key.cosePublicKey, name: "Mallory's key", createdAt: now });
  const codes = await replaceRecoveryCodes(t.database.db, userId, now);
  await t.database.db.insert(pushSubscriptions).values({ userId, endpoint: `https://push.example/${userId}`, p256dh: "p256dh", auth: "auth" });
  const moveAway = await issueToken(t.database.db, { userId, purpose: "email_change", now, newEmail: `mallory-${userId.slice(0, 8)}@example.test` });
  return { userId, key, codes, moveAway };
}

/** After the proof: nothing the attacker planted signs in, and nothing of it is left. */
async function expectNothingPlantedWorks(email: string, attacker: Browser, planted: Awaited<ReturnType<typeof plant>>) {
  expect(await attacker.me()).toBe(401);
  expect((await signIn(browser(), email, ATTACKER_PASSWORD)).statusCode).toBe(401);

  // The attacker's passkey, alone.
  const withKey = browser();
  const options = await withKey.post("/api/auth/passkey/options");
  const passkeyAttempt = await withKey.post("/api/auth/passkey", { response: planted.key.assert(options.json()) });
  expect(passkeyAttempt.statusCode).toBe(400);
  expect(await withKey.me()).toBe(401);

  // The link that would have moved the account to the attacker's inbox.
  expect((await browser().post("/api/auth/verify-email", { token: planted.moveAway })).statusCode).toBe(400);

  const { userId } = planted;
  expect(await t.database.db.select().from(totpFactors).where(eq(totpFactors.userId, userId))).toEqual([]);
  expect(await t.database.db.select().from(passkeys).where(eq(passkeys.userId, userId))).toEqual([]);
  expect(await t.database.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, userId))).toEqual([]);
  expect(await t.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId))).toEqual([]);
  expect(await t.database.db.select().from(authTokens).where(eq(authTokens.userId, userId))).toEqual([]);
}

describe("an address registered before its owner signs up", () => {
  it("belongs to the owner alone once they open the link from their own sign-up", async () => {
    const email = "victim@example.test";
    const attacker = await squat(email);

    const owner = browser();
    expect((await register(owner, email, OWNER_PASSWORD, "Olivia")).statusCode).toBe(202);
    const res = await owner.post("/api/auth/verify-email", { token: await newestVerifyToken(email) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ email, emailVerified: true, role: "user" });

    // The attacker's session ended, their password no longer works, the owner's does.
    expect(await attacker.me()).toBe(401);
    expect((await signIn(browser(), email, ATTACKER_PASSWORD)).statusCode).toBe(401);
    expect((await signIn(browser(), email, OWNER_PASSWORD)).statusCode).toBe(200);
    expect(await owner.me()).toBe(200);
  });

  it("does not make an ADMIN_EMAILS squatter admin: the owner is, and alone", async () => {
    const email = "boss@example.test";
    const attacker = await squat(email);

    const owner = browser();
    expect((await register(owner, email, OWNER_PASSWORD, "Olivia")).statusCode).toBe(202);
    const res = await owner.post("/api/auth/verify-email", { token: await newestVerifyToken(email) });
    expect(res.statusCode).toBe(200);
    // The admin role, whose powers wait for a second factor: the link is one factor (decision 068).
    expect(res.json()).toMatchObject({ email, role: "admin", isAdmin: false, adminNeedsSecondFactor: true });

    expect(await attacker.me()).toBe(401);
    expect((await signIn(browser(), email, ATTACKER_PASSWORD)).statusCode).toBe(401);
    const admin = browser();
    expect((await signIn(admin, email, OWNER_PASSWORD)).statusCode).toBe(200);
    expect(await admin.me()).toBe(200);
  });

  it("asks whoever opens the squatter's own link elsewhere to choose the password", async () => {
    const email = "welcome@example.test";
    const attacker = await squat(email);
    const token = await newestVerifyToken(email);

    // The owner opens the welcome mail the attacker's sign-up sent: not the browser that signed up.
    const owner = browser();
    const asked = await owner.post("/api/auth/verify-email", { token });
    expect(asked.statusCode).toBe(409);
    expect(asked.json()).toEqual({ message: VERIFY_CHOOSE_PASSWORD_MESSAGE });
    // Nothing happened yet: the link still works and the account is not verified.
    expect((await accountOf(email)).emailVerifiedAt).toBeNull();
    expect(await attacker.me()).toBe(200);

    const done = await owner.post("/api/auth/verify-email", { token, password: OWNER_PASSWORD });
    expect(done.statusCode).toBe(200);
    expect(await attacker.me()).toBe(401);
    expect((await signIn(browser(), email, ATTACKER_PASSWORD)).statusCode).toBe(401);
    expect((await signIn(browser(), email, OWNER_PASSWORD)).statusCode).toBe(200);
  });

  it("does not hand the owner the password of a registration made after theirs", async () => {
    const email = "latecomer@example.test";
    await squat(email);
    const owner = browser();
    expect((await register(owner, email, OWNER_PASSWORD, "Olivia")).statusCode).toBe(202);
    // The attacker signs up again, so the newest link in the owner's inbox carries their password.
    expect((await register(browser(), email, ATTACKER_PASSWORD, "Mallory")).statusCode).toBe(202);
    const [pending] = await t.database.db.select().from(authTokens).where(eq(authTokens.purpose, "email_verify")).orderBy(desc(authTokens.createdAt));
    expect(pending?.pendingPasswordHash).not.toBeNull();

    const res = await owner.post("/api/auth/verify-email", { token: await newestVerifyToken(email) });
    expect(res.statusCode).toBe(409);
    expect((await owner.post("/api/auth/verify-email", { token: await newestVerifyToken(email), password: OWNER_PASSWORD })).statusCode).toBe(200);
    expect((await signIn(browser(), email, ATTACKER_PASSWORD)).statusCode).toBe(401);
  });

  it("keeps the password of a person who signed up and opens the link in the same browser", async () => {
    const email = "ordinary@example.test";
    const person = browser();
    expect((await register(person, email, OWNER_PASSWORD, "Olivia")).statusCode).toBe(202);
    expect((await person.post("/api/auth/verify-email", { token: await newestVerifyToken(email) })).statusCode).toBe(200);
    expect(await person.me()).toBe(200);
    expect((await signIn(browser(), email, OWNER_PASSWORD)).statusCode).toBe(200);
  });
});

describe("factors planted before the owner proves the inbox", () => {
  it("cannot be added to an unverified address, and those made before go when the owner verifies", async () => {
    const email = "planted@example.test";
    const attacker = await squat(email);
    await expectFactorsRefused(attacker);
    const planted = await plant(email);

    const owner = browser();
    expect((await register(owner, email, OWNER_PASSWORD, "Olivia")).statusCode).toBe(202);
    const verified = await owner.post("/api/auth/verify-email", { token: await newestVerifyToken(email) });
    // Signed in at once: not asked for a second factor the owner never had.
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({ email, emailVerified: true });
    await expectNothingPlantedWorks(email, attacker, planted);

    // The owner signs in with the password alone, is not asked for a factor, and may now add one.
    const later = browser();
    expect((await signIn(later, email, OWNER_PASSWORD)).statusCode).toBe(200);
    expect((await later.get("/api/account/security")).json()).toMatchObject({ totp: false, passkeys: [], recoveryCodesLeft: 0 });
    expect((await later.post("/api/account/security/totp")).statusCode).toBe(200);
    // Recent security activity says what happened.
    const log = (await later.get("/api/account/security/events")).json<{ event: string; description: string }[]>();
    expect(log.find((e) => e.event === "removed_at_verification")?.description).toBe("Sign-ins and factors set up before the address was confirmed removed");
    expect(log.map((e) => e.event)).toContain("email_verified");
  });

  it("ADMIN_EMAILS: the owner ends up the admin, with no credential of the attacker's", async () => {
    const email = "chief@example.test";
    const attacker = await squat(email);
    await expectFactorsRefused(attacker);
    const planted = await plant(email);

    const owner = browser();
    expect((await register(owner, email, OWNER_PASSWORD, "Olivia")).statusCode).toBe(202);
    const verified = await owner.post("/api/auth/verify-email", { token: await newestVerifyToken(email) });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({ email, role: "admin", isAdmin: false, adminNeedsSecondFactor: true });
    await expectNothingPlantedWorks(email, attacker, planted);

    // The admin's own sign-in: the password alone, then the admin pages ask them to add their factor.
    const admin = browser();
    expect((await signIn(admin, email, OWNER_PASSWORD)).statusCode).toBe(200);
    expect((await admin.get("/api/admin/photo-changes")).json()).toMatchObject({ reason: "second_factor_required" });
  });

  it.each([
    ["the squatter's own welcome link, opened elsewhere with a password", "welcome-link"],
    ["a password reset link", "reset-link"],
    ["single sign-on whose identity provider vouches for the address", "single-sign-on"],
  ] as const)("go on every way of proving the inbox: %s", async (_label, way) => {
    const email = `proof-${way}@example.test`;
    const attacker = await squat(email);
    const welcome = await newestVerifyToken(email);
    const planted = await plant(email);
    const owner = browser();

    if (way === "welcome-link") {
      expect((await owner.post("/api/auth/verify-email", { token: welcome, password: OWNER_PASSWORD })).statusCode).toBe(200);
    } else if (way === "reset-link") {
      expect((await owner.post("/api/auth/forgot-password", { email })).statusCode).toBe(202);
      const reset = await owner.post("/api/auth/reset-password", { token: await newestResetToken(email), password: OWNER_PASSWORD });
      // Signed in at once: no second step with a factor the owner never had.
      expect(reset.statusCode).toBe(200);
    } else {
      const done = await singleSignOn(owner, { sub: `owner-${way}`, email, email_verified: true });
      expect(done.headers.location).toBe("/dashboard");
      // The attacker's password went with the rest: the owner signs in with single sign-on.
      expect((await accountOf(email)).passwordHash).toBeNull();
    }
    expect(await owner.me()).toBe(200);
    expect((await accountOf(email)).emailVerifiedAt).not.toBeNull();
    await expectNothingPlantedWorks(email, attacker, planted);
  });

  it("a single sign-on link made before the proof goes, unless the follower signed in through it", async () => {
    // The attacker's identity provider does not vouch for the address, so the account stays unverified.
    const email = "sso-squat@example.test";
    const attacker = browser();
    expect((await singleSignOn(attacker, { sub: "mallory-idp", email })).headers.location).toBe("/dashboard");
    expect(await attacker.me()).toBe(200);

    const owner = browser();
    expect((await register(owner, email, OWNER_PASSWORD, "Olivia")).statusCode).toBe(202);
    expect((await owner.post("/api/auth/verify-email", { token: await newestVerifyToken(email) })).statusCode).toBe(200);
    expect(await attacker.me()).toBe(401);
    expect((await singleSignOn(browser(), { sub: "mallory-idp", email })).headers.location).toBe("/sign-in?error=oidc");
    expect((await accountOf(email)).oidcSubject).toBeNull();
    expect((await signIn(browser(), email, OWNER_PASSWORD)).statusCode).toBe(200);

    // A person who signed up through single sign-on and opens their link signed in through it keeps it.
    const sso = "sso-own@example.test";
    const person = browser();
    expect((await singleSignOn(person, { sub: "olivia-idp", email: sso })).headers.location).toBe("/dashboard");
    expect((await person.post("/api/auth/resend-verification")).statusCode).toBe(202);
    expect((await person.post("/api/auth/verify-email", { token: await newestVerifyToken(sso) })).statusCode).toBe(200);
    expect((await accountOf(sso)).oidcSubject).toBe("olivia-idp");
    expect((await singleSignOn(browser(), { sub: "olivia-idp", email: sso })).headers.location).toBe("/dashboard");

    // Opened anywhere else, the link asks for a password: the single sign-on link goes, and the
    // follower would be left with no way in.
    const other = "sso-elsewhere@example.test";
    const holder = browser();
    expect((await singleSignOn(holder, { sub: "someone-idp", email: other })).headers.location).toBe("/dashboard");
    expect((await holder.post("/api/auth/resend-verification")).statusCode).toBe(202);
    const elsewhere = browser();
    const asked = await elsewhere.post("/api/auth/verify-email", { token: await newestVerifyToken(other) });
    expect(asked.statusCode).toBe(409);
    expect(asked.json()).toEqual({ message: VERIFY_CHOOSE_PASSWORD_MESSAGE });
    expect((await elsewhere.post("/api/auth/verify-email", { token: await newestVerifyToken(other), password: OWNER_PASSWORD })).statusCode).toBe(200);
    expect((await accountOf(other)).oidcSubject).toBeNull();
    expect((await signIn(browser(), other, OWNER_PASSWORD)).statusCode).toBe(200);
  });
});
