import { and, desc, eq, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { RESET_LINK_INVALID_MESSAGE, VERIFY_EMAIL_FIRST_MESSAGE, VERIFY_LINK_INVALID_MESSAGE } from "../../../shared/auth.js";
import { createOutboxMailer } from "../../adapters/mail/outbox-mailer.js";
import { emailOutbox } from "../../db/schema/site.js";
import { authTokens, sessions, users } from "../../db/schema/users.js";
import { accountForOidcProfile } from "./oidc-accounts.js";
import { call, createUser, TEST_ORIGIN, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import { taskAt } from "../../../../test/fixtures/factory.js";

// Forgot/reset password, verification, resend, change of e-mail and the registration that does
// not tell who has an account (docs/product.md, "Accounts: recovery and verification").

const t = await useTestApp({ ADMIN_EMAILS: "chief@example.test", SWEEP_INTERVAL_MS: "600000" });
const MINUTE = 60_000;

let baseUrl = "";
beforeAll(async () => {
  baseUrl = (await t.app.listen({ port: 0, host: "127.0.0.1" })).replace("http://", "ws://");
});

function cookieFrom(res: { headers: Record<string, unknown> }): string {
  const raw = res.headers["set-cookie"];
  const first = Array.isArray(raw) ? String(raw[0]) : String(raw ?? "");
  return first.split(";")[0] ?? "";
}

const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: "POST", url, payload, headers: { origin: TEST_ORIGIN, ...headers } });

/** The mails queued for `email`, once the work after earlier answers (after-answer.ts) has ended. */
async function mailsTo(email: string) {
  await t.app.ctx.afterAnswer.settled();
  return t.database.db.select().from(emailOutbox).where(eq(emailOutbox.to, email)).orderBy(desc(emailOutbox.createdAt));
}

/** The token of the newest e-mailed link to `path` for `email` (the e-mail a person would open). */
async function linkToken(email: string, path: "/reset-password" | "/verify-email"): Promise<string> {
  for (const mail of await mailsTo(email)) {
    const match = new RegExp(`${TEST_ORIGIN}${path}\\?token=([A-Za-z0-9_-]+)`).exec(mail.text);
    if (match?.[1]) return match[1];
  }
  throw new Error(`no ${path} link e-mailed to ${email}`);
}

let counter = 0;
/** Registers through the API; answers the browser's sign-up cookie (what opening the link there sends). */
async function register(email: string, password: string, firstName = "Lo", lastName = "Cal"): Promise<string> {
  const res = await post("/api/auth/register", { email, password, firstName, lastName });
  expect(res.statusCode).toBe(202);
  const cookie = cookieFrom(res);
  expect(cookie).toMatch(/^errandly_sign_up=/);
  return cookie;
}

/** A local account (with a password), registered through the API, verified through its link in the same browser. */
async function localAccount(password = "amber falcon ribbon", verify = true): Promise<{ email: string; password: string; id: string; signUp: string }> {
  counter += 1;
  const email = `local${counter}-${Date.now()}@example.test`;
  const signUp = await register(email, password);
  if (verify) expect((await post("/api/auth/verify-email", { token: await linkToken(email, "/verify-email") }, { cookie: signUp })).statusCode).toBe(200);
  const [row] = await t.database.db.select().from(users).where(eq(users.email, email));
  if (!row) throw new Error("not registered");
  return { email, password, id: row.id, signUp };
}

const login = (email: string, password: string) => post("/api/auth/login", { email, password });

async function signedIn(email: string, password: string): Promise<TestUser & { cookie: string }> {
  const res = await login(email, password);
  expect(res.statusCode).toBe(200);
  return { id: res.json<{ id: string }>().id, email, cookie: cookieFrom(res) };
}

describe("registration", () => {
  it("answers a new and a taken address alike, signs nobody in, and e-mails the owner of the taken one", async () => {
    const owner = await localAccount();
    const fresh = `fresh-${Date.now()}@example.test`;
    const newOne = await post("/api/auth/register", { email: fresh, password: "cobalt meadow lantern", firstName: "New", lastName: "One" });
    const taken = await post("/api/auth/register", { email: owner.email, password: "velvet tundra compass", firstName: "Evil", lastName: "Twin" });
    expect(newOne.statusCode).toBe(202);
    expect(taken.statusCode).toBe(202);
    expect(newOne.json<{ message: string }>().message.replace(fresh, "X")).toBe(taken.json<{ message: string }>().message.replace(owner.email, "X"));
    // Both set the same sign-up cookie and neither a session.
    expect(cookieFrom(newOne).split("=")[0]).toBe("errandly_sign_up");
    expect(cookieFrom(taken).split("=")[0]).toBe("errandly_sign_up");
    expect(String(newOne.headers["set-cookie"])).not.toContain("errandly_session");
    expect(String(taken.headers["set-cookie"])).not.toContain("errandly_session");

    const [created] = await t.database.db.select().from(users).where(eq(users.email, fresh));
    expect(created?.emailVerifiedAt).toBeNull();
    const [welcome] = await mailsTo(fresh);
    expect(welcome?.text).toContain(`${TEST_ORIGIN}/verify-email?token=`);

    const [attempt] = await mailsTo(owner.email);
    expect(attempt?.subject).toBe("Someone tried to sign up with your address");
    expect(attempt?.text).toContain(`${TEST_ORIGIN}/sign-in`);
    expect(attempt?.text).toContain(`${TEST_ORIGIN}/forgot-password`);
    // The owner is verified already, so no link that signs in goes out to a stranger's request.
    expect(attempt?.text).not.toContain("verify-email");
    const [ownerRow] = await t.database.db.select().from(users).where(eq(users.email, owner.email));
    expect(ownerRow?.firstName).toBe("Lo");
  });

  it("sends an unverified owner a fresh verification link instead", async () => {
    const owner = await localAccount("saffron glacier whistle", false);
    const firstToken = await linkToken(owner.email, "/verify-email");
    const again = await register(owner.email, "juniper canyon mosaic", "A", "B");
    const [attempt] = await mailsTo(owner.email);
    expect(attempt?.subject).toBe("Someone tried to sign up with your address");
    const secondToken = await linkToken(owner.email, "/verify-email");
    expect(secondToken).not.toBe(firstToken);
    // Asking again invalidates the earlier link.
    expect((await post("/api/auth/verify-email", { token: firstToken }, { cookie: owner.signUp })).statusCode).toBe(400);
    expect((await post("/api/auth/verify-email", { token: secondToken }, { cookie: again })).statusCode).toBe(200);
  });
});

describe("verification", () => {
  it("verifies the address, signs in on this device, and the link works once", async () => {
    const account = await localAccount("verify me please", false);
    const before = await signedIn(account.email, account.password);
    expect((await call(t, before, { url: "/api/auth/user" })).json()).toMatchObject({ emailVerified: false });

    const token = await linkToken(account.email, "/verify-email");
    const res = await post("/api/auth/verify-email", { token }, { cookie: account.signUp });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ email: account.email, emailVerified: true });
    const cookie = cookieFrom(res);
    expect(cookie).toMatch(/^errandly_session=/);
    const me = await t.app.inject({ url: "/api/auth/user", headers: { cookie } });
    expect(me.json()).toMatchObject({ id: account.id, emailVerified: true });

    const again = await post("/api/auth/verify-email", { token });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ message: VERIFY_LINK_INVALID_MESSAGE });
    expect(again.headers["set-cookie"]).toBeUndefined();
  });

  it("leads back to where the person was going when they signed up, and only within the site", async () => {
    const goTo = async (returnTo: string | undefined) => {
      counter += 1;
      const email = `going${counter}-${Date.now()}@example.test`;
      const res = await post("/api/auth/register", { email, password: "amber falcon ribbon", firstName: "Go", lastName: "Ing", returnTo });
      const verified = await post("/api/auth/verify-email", { token: await linkToken(email, "/verify-email") }, { cookie: cookieFrom(res) });
      expect(verified.statusCode).toBe(200);
      return verified.json<{ returnTo: string; email: string }>();
    };
    expect(await goTo("/post-task?draft=1")).toMatchObject({ returnTo: "/post-task?draft=1", emailVerified: true });
    expect((await goTo("/become-provider")).returnTo).toBe("/become-provider");
    expect((await goTo(undefined)).returnTo).toBe("/dashboard");
    expect((await goTo("https://evil.example/")).returnTo).toBe("/");
  });

  it("lasts 24 hours: refused at 24:00 after sign-up", async () => {
    const account = await localAccount("expiring link 1", false);
    const token = await linkToken(account.email, "/verify-email");
    t.clock.advance(24 * 60 * MINUTE);
    const res = await post("/api/auth/verify-email", { token });
    expect(res.statusCode).toBe(400);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, account.id));
    expect(row?.emailVerifiedAt).toBeNull();
  });

  it("makes an ADMIN_EMAILS address admin the moment it is verified", async () => {
    const signUp = await register("chief@example.test", "crimson harbor orbit", "C", "H");
    const [before] = await t.database.db.select().from(users).where(eq(users.email, "chief@example.test"));
    expect(before?.role).toBe("user");
    const res = await post("/api/auth/verify-email", { token: await linkToken("chief@example.test", "/verify-email") }, { cookie: signUp });
    expect(res.statusCode).toBe(200);
    // Admin powers wait for a second factor: the link is one factor (docs/decisions/068-admin-powers-need-two-factors.md).
    expect(res.json()).toMatchObject({ role: "admin", isAdmin: false, adminNeedsSecondFactor: true, emailVerified: true });
  });

  it("resends a link to an unverified person (rate limited), and says so to a verified one", async () => {
    const unverified = await createUser(t, { emailVerified: false });
    const first = await call(t, unverified, { method: "POST", url: "/api/auth/resend-verification" });
    expect(first.statusCode).toBe(202);
    expect(first.json<{ message: string }>().message).toContain(unverified.email);
    await linkToken(unverified.email, "/verify-email");
    for (let i = 0; i < 2; i += 1) expect((await call(t, unverified, { method: "POST", url: "/api/auth/resend-verification" })).statusCode).toBe(202);
    const limited = await call(t, unverified, { method: "POST", url: "/api/auth/resend-verification" });
    expect(limited.statusCode).toBe(429);
    expect(limited.json<{ message: string }>().message).toMatch(/Check your inbox/);

    const verified = await createUser(t);
    const done = await call(t, verified, { method: "POST", url: "/api/auth/resend-verification" });
    expect(done.statusCode).toBe(200);
    expect(await mailsTo(verified.email)).toHaveLength(0);
    expect((await call(t, null, { method: "POST", url: "/api/auth/resend-verification" })).statusCode).toBe(401);
  });

  it("counts an OIDC account verified when the identity provider says so, and promotes a listed address", async () => {
    const now = t.clock.now();
    const vouched = await accountForOidcProfile(
      t.database.db,
      { subject: "sub-yes", email: "sso-yes@example.test", emailVerified: true, firstName: "S", lastName: "Y" },
      { adminEmails: [], now, request: null },
    );
    expect(vouched.emailVerifiedAt).toEqual(now);
    const unknown = await accountForOidcProfile(
      t.database.db,
      { subject: "sub-later", email: "chief-sso@example.test", emailVerified: false, firstName: "S", lastName: "L" },
      { adminEmails: ["chief-sso@example.test"], now, request: null },
    );
    expect(unknown).toMatchObject({ emailVerifiedAt: null, role: "user" });
    // The next sign-in carries email_verified: true.
    const later = await accountForOidcProfile(
      t.database.db,
      { subject: "sub-later", email: "chief-sso@example.test", emailVerified: true, firstName: "S", lastName: "L" },
      { adminEmails: ["chief-sso@example.test"], now, request: null },
    );
    expect(later.emailVerifiedAt).toEqual(now);
    expect(later.role).toBe("admin");
  });
});

describe("posting, applying and paying need a verified address", () => {
  it("answers 403 with what to do, while browsing, chat and settings stay open", async () => {
    // A claimed task of theirs; then the account is made unverified in the table.
    const { task, poster: unverified } = await taskAt(t, "claimed");
    await t.database.db.update(users).set({ emailVerifiedAt: null }).where(eq(users.id, unverified.id));
    for (const [method, url] of [
      ["POST", "/api/tasks"],
      ["POST", "/api/provider/apply"],
      ["POST", "/api/create-payment-intent"],
      ["POST", "/api/sandbox/payments/confirm"],
      ["POST", `/api/tasks/${task.id}/tip`],
    ] as const) {
      const res = await call(t, unverified, { method, url, payload: {} });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json(), `${method} ${url}`).toEqual({ message: VERIFY_EMAIL_FIRST_MESSAGE });
    }
    expect((await call(t, unverified, { url: "/api/tasks/open" })).statusCode).toBe(200);
    expect((await call(t, unverified, { url: `/api/tasks/${task.id}` })).statusCode).toBe(200);
    expect((await call(t, unverified, { url: `/api/messages/${task.id}` })).statusCode).toBe(200);
    expect((await call(t, unverified, { url: "/api/notifications/preferences" })).statusCode).toBe(200);
    expect((await call(t, unverified, { url: "/api/auth/user" })).json()).toMatchObject({ emailVerified: false });
  });
});

describe("forgot and reset password", () => {
  it("answers 202 with the same body for an account, an unknown address and a single sign-on account", async () => {
    const account = await localAccount();
    const sso = await createUser(t); // no password: signs in through the identity provider
    const unknown = `nobody-${Date.now()}@example.test`;
    const answers = await Promise.all([account.email, sso.email, unknown].map((email) => post("/api/auth/forgot-password", { email })));
    for (const res of answers) expect(res.statusCode).toBe(202);
    expect(new Set(answers.map((r) => r.body)).size).toBe(1);

    expect(await linkToken(account.email, "/reset-password")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [ssoMail] = await mailsTo(sso.email);
    expect(ssoMail?.text).toContain("single sign-on");
    expect(ssoMail?.text).not.toContain("reset-password");
    expect(await t.database.db.select().from(authTokens).where(eq(authTokens.userId, sso.id))).toHaveLength(0);
    expect(await mailsTo(unknown)).toHaveLength(0);
  });

  it("limits requests per (IP, address), so requests from another network never block the owner's", async () => {
    const account = await localAccount();
    const from = (remoteAddress: string, email: string) =>
      t.app.inject({ method: "POST", url: "/api/auth/forgot-password", payload: { email }, remoteAddress, headers: { origin: TEST_ORIGIN } });
    const attacker: number[] = [];
    for (let i = 0; i < 7; i += 1) attacker.push((await from("127.0.0.2", account.email)).statusCode);
    expect(attacker).toEqual([202, 202, 202, 202, 202, 429, 429]);

    const owner = await from("127.0.0.3", account.email);
    expect(owner.statusCode).toBe(202);
    const [newest] = await mailsTo(account.email);
    expect(newest?.subject).toBe("Reset your Errandly password");
    expect(await t.database.db.select().from(authTokens).where(and(eq(authTokens.userId, account.id), eq(authTokens.purpose, "password_reset")))).toHaveLength(1);
  });

  it("limits one network across addresses", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i += 1) {
      const email = `spread-${i}-${Date.now()}@example.test`;
      statuses.push((await t.app.inject({ method: "POST", url: "/api/auth/forgot-password", payload: { email }, remoteAddress: "127.0.0.4", headers: { origin: TEST_ORIGIN } })).statusCode);
    }
    expect(statuses.filter((s) => s === 202)).toHaveLength(20);
    expect(statuses.at(-1)).toBe(429);
  });

  it("answers a known and an unknown address before looking either up", async () => {
    // With the tables the mail work writes locked, the answer must still come for both: nothing
    // that only a known address does runs before it (docs/decisions/020-account-recovery-and-verification.md).
    const account = await localAccount();
    const unknown = `nobody-${Date.now()}@example.test`;
    const before = (await mailsTo(account.email)).length;
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`lock table users, auth_tokens, email_outbox in exclusive mode`);
      for (const email of [account.email, unknown]) {
        const res = await t.app.inject({ method: "POST", url: "/api/auth/forgot-password", payload: { email }, remoteAddress: "127.0.0.5", headers: { origin: TEST_ORIGIN } });
        expect(res.statusCode).toBe(202);
      }
    });
    expect(await mailsTo(account.email)).toHaveLength(before + 1);
    expect(await mailsTo(unknown)).toHaveLength(0);
  });

  it("says whether a reset link still works before a password is typed, without using it", async () => {
    const account = await localAccount();
    await post("/api/auth/forgot-password", { email: account.email });
    const token = await linkToken(account.email, "/reset-password");
    expect((await post("/api/auth/reset-password/check", { token })).json()).toEqual({ ok: true });
    expect((await post("/api/auth/reset-password/check", { token })).statusCode).toBe(200);
    expect((await post("/api/auth/reset-password", { token, password: "tawny prairie beacon" })).statusCode).toBe(200);
    const used = await post("/api/auth/reset-password/check", { token });
    expect(used.statusCode).toBe(400);
    expect(used.json()).toEqual({ message: RESET_LINK_INVALID_MESSAGE });
    expect((await post("/api/auth/reset-password/check", { token: "A".repeat(43) })).statusCode).toBe(400);
  });

  it("sets the password, ends every session, signs in here and tells the owner", async () => {
    const account = await localAccount();
    const laptop = await signedIn(account.email, account.password);
    const phone = await signedIn(account.email, account.password);
    await post("/api/auth/forgot-password", { email: account.email });
    const token = await linkToken(account.email, "/reset-password");

    const res = await post("/api/auth/reset-password", { token, password: "tawny prairie beacon" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: account.id, email: account.email });
    const cookie = cookieFrom(res);
    const [only] = await t.database.db.select().from(sessions).where(eq(sessions.userId, account.id));
    expect(await t.database.db.select().from(sessions).where(eq(sessions.userId, account.id))).toHaveLength(1);
    expect(only).toBeDefined();
    for (const old of [laptop, phone]) expect((await call(t, old, { url: "/api/auth/user" })).json()).toBeNull();
    expect((await t.app.inject({ url: "/api/auth/user", headers: { cookie } })).json()).toMatchObject({ id: account.id });

    expect((await login(account.email, account.password)).statusCode).toBe(401);
    expect((await login(account.email, "tawny prairie beacon")).statusCode).toBe(200);
    const [changed] = await mailsTo(account.email);
    expect(changed?.subject).toBe("Your Errandly password was changed");

    // The link is used up: a second use changes nothing.
    const reuse = await post("/api/auth/reset-password", { token, password: "indigo walnut cascade" });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json()).toEqual({ message: RESET_LINK_INVALID_MESSAGE });
    expect((await login(account.email, "tawny prairie beacon")).statusCode).toBe(200);
  });

  it("works at 59:59 and is refused at 60:00", async () => {
    const account = await localAccount();
    await post("/api/auth/forgot-password", { email: account.email });
    const early = await linkToken(account.email, "/reset-password");
    t.clock.advance(60 * MINUTE - 1000);
    expect((await post("/api/auth/reset-password", { token: early, password: "marble sparrow thicket" })).statusCode).toBe(200);

    await post("/api/auth/forgot-password", { email: account.email });
    const late = await linkToken(account.email, "/reset-password");
    t.clock.advance(60 * MINUTE);
    const res = await post("/api/auth/reset-password", { token: late, password: "copper lagoon summit" });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: RESET_LINK_INVALID_MESSAGE });
    expect((await login(account.email, "marble sparrow thicket")).statusCode).toBe(200);
  });

  it("refuses an earlier link once a new one was asked for, and an unknown token", async () => {
    const account = await localAccount();
    await post("/api/auth/forgot-password", { email: account.email });
    const first = await linkToken(account.email, "/reset-password");
    await post("/api/auth/forgot-password", { email: account.email });
    const second = await linkToken(account.email, "/reset-password");
    expect(second).not.toBe(first);
    expect((await post("/api/auth/reset-password", { token: first, password: "opal fjord trellis" })).statusCode).toBe(400);
    expect((await post("/api/auth/reset-password", { token: "x".repeat(43), password: "russet quarry nimbus" })).statusCode).toBe(400);
    expect((await login(account.email, account.password)).statusCode).toBe(200);
    expect((await post("/api/auth/reset-password", { token: second, password: "hazel comet drizzle" })).statusCode).toBe(200);
  });

  it("gives exactly one success to parallel resets with one token", async () => {
    const account = await localAccount();
    await post("/api/auth/forgot-password", { email: account.email });
    const token = await linkToken(account.email, "/reset-password");
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) => post("/api/auth/reset-password", { token, password: `parallel password ${i}` })),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 400, 400, 400, 400]);
    const winner = answers.findIndex((r) => r.statusCode === 200);
    expect((await login(account.email, `parallel password ${winner}`)).statusCode).toBe(200);
    expect(await t.database.db.select().from(sessions).where(eq(sessions.userId, account.id))).toHaveLength(2);
  });

  it("closes the open sockets of the ended sessions", async () => {
    const account = await localAccount();
    const user = await signedIn(account.email, account.password);
    const socket = new WebSocket(`${baseUrl}/ws`, { headers: { origin: TEST_ORIGIN, cookie: user.cookie } });
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
    const closed = new Promise<number>((resolve) => socket.once("close", (code) => resolve(code)));
    await post("/api/auth/forgot-password", { email: account.email });
    const res = await post("/api/auth/reset-password", { token: await linkToken(account.email, "/reset-password"), password: "scarlet bayou kernel" });
    expect(res.statusCode).toBe(200);
    // No scheduler run: the session_ended notification alone closes it.
    expect(await closed).toBe(1008);
  });
});

describe("change of e-mail", () => {
  it("needs the password, tells the old address, and switches when the new address's link is opened", async () => {
    const account = await localAccount();
    const user = await signedIn(account.email, account.password);
    const newEmail = `moved-${Date.now()}@example.test`;
    const wrong = await call(t, user, { method: "POST", url: "/api/auth/change-email", payload: { newEmail, password: "not it" } });
    expect(wrong.statusCode).toBe(400);
    const missing = await call(t, user, { method: "POST", url: "/api/auth/change-email", payload: { newEmail } });
    expect(missing.statusCode).toBe(400);
    expect(await mailsTo(newEmail)).toHaveLength(0);

    const res = await call(t, user, { method: "POST", url: "/api/auth/change-email", payload: { newEmail, password: account.password } });
    expect(res.statusCode).toBe(202);
    expect(res.json<{ message: string }>().message).toContain(newEmail);
    const [notice] = await mailsTo(account.email);
    expect(notice?.subject).toBe("Your Errandly e-mail address is being changed");
    expect(notice?.text).toContain(newEmail);
    // Nothing changed yet.
    expect((await call(t, user, { url: "/api/auth/user" })).json()).toMatchObject({ email: account.email });

    const confirm = await post("/api/auth/verify-email", { token: await linkToken(newEmail, "/verify-email") });
    expect(confirm.statusCode).toBe(200);
    expect(confirm.json()).toMatchObject({ email: newEmail, emailVerified: true });
    expect((await login(newEmail, account.password)).statusCode).toBe(200);
    expect((await login(account.email, account.password)).statusCode).toBe(401);
  });

  it("answers 409 when the new address was taken by the time the link is opened, and changes nothing", async () => {
    const account = await localAccount();
    const user = await signedIn(account.email, account.password);
    const newEmail = `contested-${Date.now()}@example.test`;
    await call(t, user, { method: "POST", url: "/api/auth/change-email", payload: { newEmail, password: account.password } });
    const token = await linkToken(newEmail, "/verify-email");
    await createUser(t, { email: newEmail });
    const res = await post("/api/auth/verify-email", { token });
    expect(res.statusCode).toBe(409);
    expect(res.json<{ message: string }>().message).toContain(newEmail);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, account.id));
    expect(row?.email).toBe(account.email);
  });

  it("answers a free and a taken address before looking either up", async () => {
    const account = await localAccount();
    const other = await createUser(t);
    const user = await signedIn(account.email, account.password);
    const free = `free-${Date.now()}@example.test`;
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`lock table auth_tokens, email_outbox in exclusive mode`);
      await tx.execute(sql`lock table users in share mode`);
      for (const newEmail of [free, other.email]) {
        const res = await call(t, user, { method: "POST", url: "/api/auth/change-email", payload: { newEmail, password: account.password } });
        expect(res.statusCode).toBe(202);
      }
    });
    expect(await mailsTo(free)).toHaveLength(1);
    expect(await mailsTo(other.email)).toHaveLength(0);
  });

  it("answers a taken address as any other and sends it nothing", async () => {
    const account = await localAccount();
    const other = await createUser(t);
    const user = await signedIn(account.email, account.password);
    const res = await call(t, user, { method: "POST", url: "/api/auth/change-email", payload: { newEmail: other.email, password: account.password } });
    expect(res.statusCode).toBe(202);
    expect(await mailsTo(other.email)).toHaveLength(0);
    expect(
      await t.database.db.select().from(authTokens).where(and(eq(authTokens.userId, account.id), eq(authTokens.purpose, "email_change"))),
    ).toHaveLength(0);
  });
});

describe("the development e-mail log", () => {
  it("logs each mail's recipient, subject and links when asked to", async () => {
    const lines: { obj: Record<string, unknown>; msg: string }[] = [];
    const log = { info: (obj: Record<string, unknown>, msg: string) => lines.push({ obj, msg }) } as unknown as FastifyBaseLogger;
    const mailer = createOutboxMailer({ log, logLinks: true });
    await mailer.queue(t.database.db, {
      to: "dev@example.test",
      subject: "Reset your Errandly password",
      text: "Choose a new password: http://localhost:3000/reset-password?token=abc_DEF-123 (60 minutes)",
      kind: "account_password_reset",
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]?.obj).toMatchObject({
      to: "dev@example.test",
      subject: "Reset your Errandly password",
      links: ["http://localhost:3000/reset-password?token=abc_DEF-123"],
    });
    const quiet: { obj: Record<string, unknown> }[] = [];
    const prodLog = { info: (obj: Record<string, unknown>) => quiet.push({ obj }) } as unknown as FastifyBaseLogger;
    await createOutboxMailer({ log: prodLog }).queue(t.database.db, { to: "p@example.test", subject: "S", text: "http://x/y?token=secret", kind: "k" });
    expect(quiet[0]?.obj).not.toHaveProperty("links");
  });
});
