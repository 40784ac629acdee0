import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { generateSync } from "otplib";
import { SECOND_FACTOR_REQUIRED, STEP_UP_REQUIRED, STEP_UP_WINDOW_MS } from "../../../shared/security-rules.js";
import { emailOutbox } from "../../db/schema/site.js";
import { securityEvents, totpFactors } from "../../db/schema/security.js";
import { auditLog, users } from "../../db/schema/users.js";
import { hashPassword } from "./passwords.js";
import { USED_RECOVERY_CODE } from "./second-factor-routes.js";
import { totpStep } from "./totp.js";
import { call, createUser, TEST_ORIGIN, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import { SoftwarePasskey } from "../../../../test/fakes/software-passkey.js";
import { ACCOUNT_CODE_MAX_FAILURES, ACCOUNT_CODE_WINDOW_MS, PAIR_FREE_ATTEMPTS } from "./sign-in-throttle.js";

// Second factors, step-up and the security log (docs/product.md, "Account security";
// docs/decisions/049-second-factors.md, 050-step-up-and-security-log.md).

const t = await useTestApp();
const PASSWORD = "orchid kettle planet";
const passwordHash = await hashPassword(PASSWORD);

/** The cookies a response sets (a cleared one drops out), merged over `jar`. */
function withCookies(jar: string, res: { headers: Record<string, unknown> }): string {
  const raw = res.headers["set-cookie"];
  const set = (Array.isArray(raw) ? raw : raw ? [raw] : []).map((c) => String(c).split(";")[0] ?? "");
  const byName = new Map(jar.split("; ").filter(Boolean).map((c) => [c.split("=")[0], c] as const));
  for (const c of set) {
    const [name, value] = c.split("=");
    if (!name) continue;
    if (value) byName.set(name, c);
    else byName.delete(name);
  }
  return [...byName.values()].join("; ");
}

/** A verified account with a password, signed in through the API. */
async function account(role: "admin" | "user" = "user"): Promise<TestUser> {
  const user = await createUser(t, { role });
  await t.database.db.update(users).set({ passwordHash }).where(eq(users.id, user.id));
  return user;
}

/** Adds an authenticator app through the settings routes: its secret. */
async function addApp(user: TestUser): Promise<string> {
  const secret = (await call(t, user, { method: "POST", url: "/api/account/security/totp" })).json<{ secret: string }>().secret;
  const confirm = await call(t, user, { method: "POST", url: "/api/account/security/totp/confirm", payload: { code: codeAt(secret, 0) } });
  expect(confirm.statusCode).toBe(200);
  // The enrolment's code is used: later codes in these tests come from later steps.
  t.clock.advance(30_000);
  return secret;
}

const codeAt = (secret: string, stepsFromNow: number) => generateSync({ secret, epoch: Math.floor(t.clock.now().getTime() / 1000) + stepsFromNow * 30 });

const login = (email: string, remoteAddress = "127.0.0.1") =>
  t.app.inject({ method: "POST", url: "/api/auth/login", payload: { email, password: PASSWORD }, headers: { origin: TEST_ORIGIN }, remoteAddress });

const secondStep = (cookie: string, code: string, remoteAddress = "127.0.0.1") =>
  t.app.inject({ method: "POST", url: "/api/auth/second-factor", payload: { code }, headers: { origin: TEST_ORIGIN, cookie }, remoteAddress });

async function events(userId: string) {
  return (await t.database.db.select().from(securityEvents).where(eq(securityEvents.userId, userId))).map((e) => `${e.event}:${e.result}`);
}

describe("authenticator codes (TOTP, injected clock)", () => {
  const secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
  const at = new Date("2026-06-01T12:00:10.000Z");
  const code = (offsetS: number) => generateSync({ secret, epoch: Math.floor(at.getTime() / 1000) + offsetS });

  it("accepts the current step and one step either side, and nothing further", () => {
    const step = Math.floor(at.getTime() / 30_000);
    expect(totpStep(secret, code(0), at, null)).toBe(step);
    expect(totpStep(secret, code(-30), at, null)).toBe(step - 1);
    expect(totpStep(secret, code(30), at, null)).toBe(step + 1);
    expect(totpStep(secret, code(-60), at, null)).toBeNull();
    expect(totpStep(secret, code(60), at, null)).toBeNull();
    expect(totpStep(secret, "12345", at, null)).toBeNull();
  });

  it("refuses a code of the step last used, or an earlier one", () => {
    const step = Math.floor(at.getTime() / 30_000);
    expect(totpStep(secret, code(0), at, step)).toBeNull();
    expect(totpStep(secret, code(-30), at, step)).toBeNull();
    expect(totpStep(secret, code(30), at, step)).toBe(step + 1);
  });
});

describe("sign-in with a second factor", () => {
  it("an account with an app is asked for a code after the password; the code signs in once", async () => {
    const me = await account();
    const secret = await addApp(me);
    const first = await login(me.email);
    expect(first.statusCode).toBe(202);
    expect(first.json()).toMatchObject({ secondFactor: { methods: ["totp", "recovery_code"] } });
    expect(String(first.headers["set-cookie"])).not.toContain("errandly_session=");
    const jar = withCookies("", first);

    const wrong = await secondStep(jar, "000000");
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toMatch(/not right/);

    const code = codeAt(secret, 0);
    const ok = await secondStep(jar, code);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().email).toBe(me.email);
    const session = withCookies(jar, ok);
    const sessions = await t.app.inject({ method: "GET", url: "/api/account/sessions", headers: { cookie: session } });
    expect(sessions.json().find((s: { current: boolean }) => s.current).proof).toBe("Password and authenticator app");

    // The same code again, in a new sign-in: refused, even though the clock has not moved.
    const again = withCookies("", await login(me.email));
    expect((await secondStep(again, code)).statusCode).toBe(401);
    // The half-done sign-in is one use too.
    expect((await secondStep(jar, codeAt(secret, 1))).statusCode).toBe(401);
  });

  it("recovery codes are ten, each works once, and the answer says how many are left", async () => {
    const user = await account();
    const setup = await call(t, user, { method: "POST", url: "/api/account/security/totp" });
    const secret = setup.json<{ secret: string; qrSvg: string; otpauthUrl: string }>().secret;
    expect(setup.json().qrSvg).toContain("<svg");
    expect(setup.json().otpauthUrl).toContain(`secret=${secret}`);
    const confirmed = await call(t, user, { method: "POST", url: "/api/account/security/totp/confirm", payload: { code: codeAt(secret, 0) } });
    const codes = confirmed.json<{ recoveryCodes: string[] }>().recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);

    const jar = withCookies("", await login(user.email));
    const [, , , third = "", fourth = ""] = codes;
    const used = await secondStep(jar, third.toUpperCase());
    expect(used.statusCode).toBe(200);
    expect(used.json().recoveryCodesLeft).toBe(9);

    const jar2 = withCookies("", await login(user.email));
    // Used once already: said so, not "not right" (issue 41).
    const again = await secondStep(jar2, third);
    expect(again.statusCode).toBe(401);
    expect(again.json().message).toBe(USED_RECOVERY_CODE);
    // A code that was never the account's is still "not right".
    expect((await secondStep(jar2, "aaaaa-bbbbb")).json().message).toMatch(/^That code is not right/);
    expect((await secondStep(jar2, fourth)).json().recoveryCodesLeft).toBe(8);
    expect(await events(user.id)).toEqual(expect.arrayContaining(["totp_enrolled:success", "recovery_code_used:success", "second_factor:failure"]));
  });

  it("wrong codes from one address slow that address down, never the owner on another", async () => {
    const me = await account();
    const secret = await addApp(me);
    const attacker = withCookies("", await login(me.email, "127.0.5.1"));
    const statuses: number[] = [];
    for (let i = 0; i < PAIR_FREE_ATTEMPTS + 3; i++) statuses.push((await secondStep(attacker, "111111", "127.0.5.1")).statusCode);
    expect(statuses.slice(0, PAIR_FREE_ATTEMPTS)).toEqual(Array(PAIR_FREE_ATTEMPTS).fill(401));
    expect(statuses.at(-1)).toBe(429);

    const owner = withCookies("", await login(me.email, "127.0.5.2"));
    expect((await secondStep(owner, codeAt(secret, 0), "127.0.5.2")).statusCode).toBe(200);
  });

  it("codes for one account from many addresses reach a ceiling; a recovery code or a passkey still signs in", async () => {
    const me = await account();
    const setup = await call(t, me, { method: "POST", url: "/api/account/security/totp" });
    const secret = setup.json<{ secret: string }>().secret;
    const confirmed = await call(t, me, { method: "POST", url: "/api/account/security/totp/confirm", payload: { code: codeAt(secret, 0) } });
    const [recoveryCode = ""] = confirmed.json<{ recoveryCodes: string[] }>().recoveryCodes;
    t.clock.advance(30_000);
    const key = new SoftwarePasskey(TEST_ORIGIN);
    const adding = await call(t, me, { method: "POST", url: "/api/account/security/passkeys/options" });
    const added = await t.app.inject({
      method: "POST",
      url: "/api/account/security/passkeys",
      payload: { name: "Phone", response: key.register(adding.json()) },
      headers: { origin: TEST_ORIGIN, cookie: withCookies(me.cookie, adding) },
    });
    expect(added.statusCode).toBe(201);

    // An attacker who knows the password guesses from address after address, each well within its
    // own free attempts: two wrong codes each.
    const addresses = Array.from({ length: ACCOUNT_CODE_MAX_FAILURES / 2 }, (_, i) => `127.0.6.${i + 1}`);
    for (const address of addresses) {
      const jar = withCookies("", await login(me.email, address));
      for (const guess of ["111111", "222222"]) expect((await secondStep(jar, guess, address)).statusCode).toBe(401);
    }

    // Now even the right code, from an address never seen, waits; the answer says what still works.
    const fresh = withCookies("", await login(me.email, "127.0.6.200"));
    const paused = await secondStep(fresh, codeAt(secret, 0), "127.0.6.200");
    expect(paused.statusCode).toBe(429);
    expect(Number(paused.headers["retry-after"])).toBeGreaterThan(0);
    expect(paused.json().message).toMatch(
      /^Too many wrong codes were typed for this account, so authenticator codes are paused\. Sign in now with your passkey or one of your recovery codes/,
    );
    expect(paused.json().message).toMatch(/someone knows your password/);

    // A recovery code and a passkey still sign the owner in, from anywhere.
    const owner = withCookies("", await login(me.email, "127.0.6.201"));
    const rescued = await secondStep(owner, recoveryCode, "127.0.6.201");
    expect(rescued.statusCode).toBe(200);
    expect(rescued.json().recoveryCodesLeft).toBe(9);
    const withKey = withCookies("", await login(me.email, "127.0.6.202"));
    const options = await t.app.inject({ method: "POST", url: "/api/auth/passkey/options", headers: { origin: TEST_ORIGIN, cookie: withKey } });
    const passkeyStep = await t.app.inject({
      method: "POST",
      url: "/api/auth/passkey",
      payload: { response: key.assert(options.json()) },
      headers: { origin: TEST_ORIGIN, cookie: withKey },
      remoteAddress: "127.0.6.202",
    });
    expect(passkeyStep.statusCode).toBe(200);

    // A pause, not a lock: an hour later the app's code works again.
    t.clock.advance(ACCOUNT_CODE_WINDOW_MS);
    const later = withCookies("", await login(me.email, "127.0.6.203"));
    expect((await secondStep(later, codeAt(secret, 0), "127.0.6.203")).statusCode).toBe(200);
  }, 60_000);

  it("a reset link signs in only after the second factor", async () => {
    const me = await account();
    const secret = await addApp(me);
    const asked = await t.app.inject({ method: "POST", url: "/api/auth/forgot-password", payload: { email: me.email }, headers: { origin: TEST_ORIGIN } });
    expect(asked.statusCode).toBeLessThan(300);
    await t.app.ctx.afterAnswer.settled();
    const [mail] = await t.database.db.select().from(emailOutbox).where(eq(emailOutbox.to, me.email));
    const token = /token=([\w-]+)/.exec(mail?.text ?? "")?.[1] ?? "";
    const reset = await t.app.inject({
      method: "POST",
      url: "/api/auth/reset-password",
      payload: { token, password: "new harbour lantern" },
      headers: { origin: TEST_ORIGIN },
    });
    expect(reset.statusCode).toBe(202);
    expect(String(reset.headers["set-cookie"])).not.toMatch(/errandly_session=[^;]/);
    const ok = await secondStep(withCookies("", reset), codeAt(secret, 0));
    expect(ok.statusCode).toBe(200);
  });
});

describe("step-up before sensitive changes", () => {
  it("asks for the password again after five minutes, then the change goes on", async () => {
    const me = await account();
    t.clock.advance(STEP_UP_WINDOW_MS + 1000);
    const refused = await call(t, me, { method: "POST", url: "/api/account/security/totp" });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ reason: STEP_UP_REQUIRED });
    const payout = await call(t, me, { method: "POST", url: "/api/stripe/connect/account" });
    expect(payout.json()).toMatchObject({ reason: STEP_UP_REQUIRED });

    const wrong = await call(t, me, { method: "POST", url: "/api/auth/step-up", payload: { password: "not it at all" } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fieldErrors.password).toMatch(/not right/);
    expect((await call(t, me, { method: "POST", url: "/api/auth/step-up", payload: { password: PASSWORD } })).statusCode).toBe(200);
    expect((await call(t, me, { method: "POST", url: "/api/account/security/totp" })).statusCode).toBe(200);
    expect(await events(me.id)).toEqual(expect.arrayContaining(["step_up:failure", "step_up:success"]));
  });
});

describe("admins always on two factors", () => {
  it("an admin without a second factor gets 403 with a plain message on admin routes, logged", async () => {
    const fresh = await account("admin");
    // createUser gives admins an app; this one has none and signs in with the password alone.
    await t.database.db.delete(totpFactors).where(eq(totpFactors.userId, fresh.id));
    const signedIn = await login(fresh.email);
    expect(signedIn.statusCode).toBe(200);
    const jar = withCookies("", signedIn);
    const res = await t.app.inject({ method: "GET", url: "/api/admin/photo-changes", headers: { cookie: jar } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ reason: SECOND_FACTOR_REQUIRED });
    expect(res.json().message).toMatch(/^Admin pages need a second factor\..*Security/);
    expect(await events(fresh.id)).toContain("admin_route_denied:failure");

    // A person who is not an admin is refused and logged too.
    const plain = await createUser(t);
    expect((await call(t, plain, { method: "GET", url: "/api/admin/photo-changes" })).statusCode).toBe(403);
    expect(await events(plain.id)).toContain("admin_route_denied:failure");
  });

  it("an admin resets someone's factors: audited, logged on their account, and they are told", async () => {
    const admin = await createUser(t, { role: "admin" });
    const me = await account();
    await addApp(me);
    const res = await call(t, admin, { method: "POST", url: `/api/admin/users/${me.id}/second-factors/reset` });
    expect(res.statusCode).toBe(200);
    expect((await login(me.email)).statusCode).toBe(200);
    const [audit] = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, me.id));
    expect(audit).toMatchObject({ actorId: admin.id, action: "user.second_factors_reset" });
    await t.app.ctx.mailer.deliverQueued();
    const mails = await t.database.db.select().from(emailOutbox).where(eq(emailOutbox.to, me.email));
    expect(mails.map((m) => m.subject)).toContain("The second factors of your Errandly account were reset");
    const seen = await call(t, admin, { method: "GET", url: `/api/admin/users/${me.id}/security-events` });
    expect(seen.json().map((e: { event: string }) => e.event)).toContain("factors_reset_by_admin");
  });
});

describe("the security log", () => {
  it("shows the person each event, goes into the export, and is deleted after a year", async () => {
    const me = await account();
    await addApp(me);
    await login(me.email, "127.0.7.1");
    const mine = await call(t, me, { method: "GET", url: "/api/account/security/events" });
    expect(mine.statusCode).toBe(200);
    const list = mine.json<{ event: string; description: string; ip: string }[]>();
    expect(list[0]).toMatchObject({ event: "sign_in_password", description: "Password accepted, second step asked", ip: "127.0.7.1" });
    expect(list.map((e) => e.event)).toContain("totp_enrolled");

    const exported = await call(t, me, { method: "GET", url: "/api/account/export" });
    expect(exported.json().securityEvents.map((e: { event: string }) => e.event)).toContain("totp_enrolled");

    t.clock.advance(366 * 86_400_000);
    await t.app.ctx.scheduler.runAll();
    expect(await events(me.id)).toEqual([]);
  });
});
