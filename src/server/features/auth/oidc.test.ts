import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { sessions, users } from "../../db/schema/users.js";
import { call, createUser, TEST_ORIGIN, useTestApp } from "../../../../test/create-test-app.js";
import { EMAIL_ONLY_IN_USERINFO, startFakeOidcProvider, type Claims } from "../../../../test/fakes/fake-oidc-provider.js";

// The browser's visit to the provider's /authorize is played by the test: it reads the
// authorization URL and asks the fake provider for a code for the identity it wants.

const CLIENT_ID = "errandly";
const CLIENT_SECRET = "secret";
const provider = await startFakeOidcProvider({ id: CLIENT_ID, secret: CLIENT_SECRET });
afterAll(() => provider.close());
const ISSUER = provider.issuer;
const { tokenRequests } = provider;

const t = await useTestApp({ OIDC_ISSUER_URL: ISSUER, OIDC_CLIENT_ID: CLIENT_ID, OIDC_CLIENT_SECRET: CLIENT_SECRET, ADMIN_EMAILS: "boss@example.test" });
const plain = await useTestApp();
const behindHttps = await useTestApp({
  OIDC_ISSUER_URL: ISSUER,
  OIDC_CLIENT_ID: CLIENT_ID,
  OIDC_CLIENT_SECRET: CLIENT_SECRET,
  PUBLIC_URL: "https://errandly.example",
});
// Port 1 refuses connections: discovery fails at the first sign-in, not at boot.
const down = await useTestApp({ OIDC_ISSUER_URL: "http://127.0.0.1:1", OIDC_CLIENT_ID: CLIENT_ID, OIDC_CLIENT_SECRET: CLIENT_SECRET });

function cookieNamed(res: { headers: Record<string, unknown> }, name: string): string | null {
  const raw = res.headers["set-cookie"];
  const all = (Array.isArray(raw) ? raw : [raw]).map(String);
  const found = all.filter((c) => c.startsWith(`${name}=`)).at(-1);
  const pair = found?.split(";")[0] ?? "";
  return pair === `${name}=` || pair === "" ? null : pair;
}

/** /start, then the provider's side of /authorize; returns what the callback needs. */
async function startFlow(returnTo: string, claims: Claims, overrides: { nonce?: string } = {}) {
  const start = await call(t, null, { url: `/api/auth/oidc/start?returnTo=${encodeURIComponent(returnTo)}` });
  expect(start.statusCode).toBe(302);
  const authorize = new URL(String(start.headers.location));
  const flowCookie = cookieNamed(start, "errandly_oidc");
  expect(flowCookie).not.toBeNull();
  const code = provider.issueCode(authorize, claims, overrides);
  return { start, authorize, flowCookie: flowCookie ?? "", code, state: authorize.searchParams.get("state") ?? "" };
}

function callback(query: Record<string, string>, cookie: string) {
  return call(t, null, { url: `/api/auth/oidc/callback?${new URLSearchParams(query).toString()}`, headers: { cookie } });
}

async function whoAmI(res: { headers: Record<string, unknown> }) {
  const session = cookieNamed(res, "errandly_session");
  if (!session) return null;
  const me = await call(t, null, { url: "/api/auth/user", headers: { cookie: session } });
  return me.statusCode === 200 ? (me.json() as { id: string; email: string; firstName: string; lastName: string; role: string }) : null;
}

describe("OIDC sign-in", () => {
  it("says single sign-on is on, and local sign-in still goes to /sign-in", async () => {
    const config = await call(t, null, { url: "/api/auth/config" });
    expect(config.json()).toEqual({ oidc: true });
    const login = await call(t, null, { url: "/api/login?returnTo=/tasks" });
    expect(login.headers.location).toBe("/sign-in?returnTo=%2Ftasks");
  });

  it("sends the browser to the provider with PKCE S256, state, nonce, client and callback", async () => {
    const { authorize, start } = await startFlow("/dashboard", {});
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${ISSUER}/authorize`);
    const q = authorize.searchParams;
    expect(q.get("response_type")).toBe("code");
    expect(q.get("client_id")).toBe(CLIENT_ID);
    expect(q.get("redirect_uri")).toBe(`${TEST_ORIGIN}/api/auth/oidc/callback`);
    expect(q.get("scope")).toBe("openid email profile");
    expect(q.get("code_challenge_method")).toBe("S256");
    expect(q.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(q.get("state")?.length).toBeGreaterThanOrEqual(20);
    expect(q.get("nonce")?.length).toBeGreaterThanOrEqual(20);
    expect(q.get("state")).not.toBe(q.get("nonce"));
    // The flow cookie carries the checks but only as an opaque sealed value.
    const setCookie = (start.headers["set-cookie"] as string[] | string).toString();
    expect(setCookie).toMatch(/errandly_oidc=[^;]+;.*HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Max-Age=600/);
  });

  it("creates a new user, signs them in and lands on returnTo", async () => {
    const { flowCookie, code, state } = await startFlow("/tasks/new?x=1", {
      sub: "new-user-1",
      email: "New.Person@Example.test",
      email_verified: true,
      given_name: "Nora",
      family_name: "Quinn",
    });
    const res = await callback({ code, state }, flowCookie);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe("/tasks/new?x=1");
    expect(cookieNamed(res, "errandly_oidc")).toBeNull();
    const me = await whoAmI(res);
    expect(me).toMatchObject({ email: "new.person@example.test", firstName: "Nora", lastName: "Quinn", role: "user" });
    const [row] = await t.database.db.select().from(users).where(eq(users.email, "new.person@example.test"));
    expect(row).toMatchObject({ oidcSubject: "new-user-1", passwordHash: null });
    // The token request carried the verifier whose S256 matched the challenge (the fake checks it).
    expect(tokenRequests.at(-1)?.get("grant_type")).toBe("authorization_code");

    // Signing in again finds the same account by subject, even after the IdP-side e-mail changed.
    const again = await startFlow("/", { sub: "new-user-1", email: "nora@elsewhere.test", email_verified: true });
    const second = await callback({ code: again.code, state: again.state }, again.flowCookie);
    expect((await whoAmI(second))?.id).toBe(me?.id);
  });

  it("makes a verified ADMIN_EMAILS address an admin and falls back to `name`, then the e-mail, for names", async () => {
    const unverified = await startFlow("/", { sub: "not-boss", email: "boss@example.test", name: "Mal Lory" });
    expect(await whoAmI(await callback({ code: unverified.code, state: unverified.state }, unverified.flowCookie))).toMatchObject({
      role: "user",
    });
    await t.database.db.delete(users).where(eq(users.email, "boss@example.test"));
    const a = await startFlow("/", { sub: "boss", email: "boss@example.test", email_verified: true, name: "Ada  Byron King" });
    expect(await whoAmI(await callback({ code: a.code, state: a.state }, a.flowCookie))).toMatchObject({
      role: "admin",
      firstName: "Ada",
      lastName: "Byron King",
    });
    const b = await startFlow("/", { sub: "nameless", email: "jo.doe@example.test" });
    expect(await whoAmI(await callback({ code: b.code, state: b.state }, b.flowCookie))).toMatchObject({ firstName: "jo.doe", lastName: "" });
  });

  it("reads the e-mail from UserInfo when the ID token has none", async () => {
    const f = await startFlow("/", { sub: "ui-1", email: "userinfo@example.test", email_verified: true, [EMAIL_ONLY_IN_USERINFO]: true });
    const res = await callback({ code: f.code, state: f.state }, f.flowCookie);
    expect((await whoAmI(res))?.email).toBe("userinfo@example.test");
  });

  it("links an existing local account when the IdP says the e-mail is verified", async () => {
    const local = await createUser(t, { email: "local@example.test", firstName: "Lia", lastName: "Stone" });
    const f = await startFlow("/dashboard", { sub: "linked-1", email: "LOCAL@example.test", email_verified: true, given_name: "Other" });
    const res = await callback({ code: f.code, state: f.state }, `${f.flowCookie}; ${local.cookie}`);
    expect(res.headers.location).toBe("/dashboard");
    const me = await whoAmI(res);
    expect(me).toMatchObject({ id: local.id, firstName: "Lia", lastName: "Stone" });
    const [row] = await t.database.db.select().from(users).where(eq(users.id, local.id));
    expect(row?.oidcSubject).toBe("linked-1");
    // The session the browser had before is gone (fixation): the new one is a different token.
    const oldToken = local.cookie.split("=")[1] ?? "";
    expect(cookieNamed(res, "errandly_session")).not.toBe(`errandly_session=${oldToken}`);
    const old = await call(t, local, { url: "/api/auth/user" });
    expect(old.json()).toBeNull();
  });

  it.each([
    ["the e-mail verification is not asserted", { sub: "takeover-1", email: "victim1@example.test" }],
    ["the IdP says the e-mail is unverified", { sub: "takeover-2", email: "victim2@example.test", email_verified: false }],
  ])("does not link a local account when %s", async (_label, claims) => {
    const victim = await createUser(t, { email: claims.email });
    const f = await startFlow("/dashboard", claims);
    const res = await callback({ code: f.code, state: f.state }, f.flowCookie);
    expect(res.headers.location).toBe("/sign-in?error=oidc");
    expect(await whoAmI(res)).toBeNull();
    const [row] = await t.database.db.select().from(users).where(eq(users.id, victim.id));
    expect(row?.oidcSubject).toBeNull();
  });

  it("does not relink an account already linked to another subject", async () => {
    const first = await startFlow("/", { sub: "owner-a", email: "shared@example.test", email_verified: true });
    await callback({ code: first.code, state: first.state }, first.flowCookie);
    const second = await startFlow("/", { sub: "owner-b", email: "shared@example.test", email_verified: true });
    const res = await callback({ code: second.code, state: second.state }, second.flowCookie);
    expect(res.headers.location).toBe("/sign-in?error=oidc");
    const [row] = await t.database.db.select().from(users).where(eq(users.email, "shared@example.test"));
    expect(row?.oidcSubject).toBe("owner-a");
  });

  it("refuses a wrong state, a missing or tampered flow cookie and an expired flow, signing nobody in", async () => {
    const count = async () => (await t.database.db.select().from(sessions)).length;
    const sessionsBefore = await count();
    const claims = { sub: "csrf-1", email: "csrf@example.test", email_verified: true };

    const wrongState = await startFlow("/", claims);
    const tokenCalls = tokenRequests.length;
    const r1 = await callback({ code: wrongState.code, state: "not-the-state" }, wrongState.flowCookie);
    expect(r1.headers.location).toBe("/sign-in?error=oidc");
    expect(tokenRequests.length).toBe(tokenCalls);

    const noCookie = await startFlow("/", claims);
    const r2 = await callback({ code: noCookie.code, state: noCookie.state }, "");
    expect(r2.headers.location).toBe("/sign-in?error=oidc");

    const tampered = await startFlow("/", claims);
    const [name, value = ""] = tampered.flowCookie.split("=");
    const [payload = "", mac = ""] = value.split(".");
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, "base64url").toString()), returnTo: "/admin" })).toString("base64url");
    const r3 = await callback({ code: tampered.code, state: tampered.state }, `${name}=${forged}.${mac}`);
    expect(r3.headers.location).toBe("/sign-in?error=oidc");

    const expired = await startFlow("/", claims);
    t.clock.advance(10 * 60_000 + 1);
    const r4 = await callback({ code: expired.code, state: expired.state }, expired.flowCookie);
    expect(r4.headers.location).toBe("/sign-in?error=oidc");

    const denied = await startFlow("/", claims);
    const r5 = await callback({ error: "access_denied", state: denied.state }, denied.flowCookie);
    expect(r5.headers.location).toBe("/sign-in?error=oidc");

    // An ID token minted for another authorization request (replay) fails the nonce check.
    const replayed = await startFlow("/", claims, { nonce: "a-nonce-from-another-request" });
    const r6 = await callback({ code: replayed.code, state: replayed.state }, replayed.flowCookie);
    expect(r6.headers.location).toBe("/sign-in?error=oidc");

    for (const r of [r1, r2, r3, r4, r5, r6]) expect(cookieNamed(r, "errandly_session")).toBeNull();
    expect(await count()).toBe(sessionsBefore);
    const [created] = await t.database.db.select().from(users).where(eq(users.email, "csrf@example.test"));
    expect(created).toBeUndefined();
  });

  it.each([
    ["https://evil.example/", 1],
    ["//evil.example", 2],
    ["/\\evil.example", 3],
  ])("sends an unsafe returnTo %s to /", async (returnTo, n) => {
    const f = await startFlow(returnTo, { sub: `ret-${n}`, email: `ret${n}@example.test`, email_verified: true });
    const res = await callback({ code: f.code, state: f.state }, f.flowCookie);
    expect(res.headers.location).toBe("/");
    expect(await whoAmI(res)).not.toBeNull();
  });
});

describe("OIDC behind https", () => {
  it("pins the flow cookie to the origin (__Host-, Secure) and registers the https callback", async () => {
    const start = await call(behindHttps, null, { url: "/api/auth/oidc/start?returnTo=/" });
    expect(start.statusCode).toBe(302);
    expect(new URL(String(start.headers.location)).searchParams.get("redirect_uri")).toBe("https://errandly.example/api/auth/oidc/callback");
    expect(String(start.headers["set-cookie"])).toMatch(/^__Host-errandly_oidc=[^;]+;.*Path=\/;.*HttpOnly;.*Secure/);
  });
});

describe("OIDC provider unreachable", () => {
  it("sends the browser back to the sign-in page with the error instead of a 500", async () => {
    const start = await call(down, null, { url: "/api/auth/oidc/start?returnTo=/dashboard" });
    expect(start.statusCode).toBe(302);
    expect(start.headers.location).toBe("/sign-in?error=oidc");
    expect((await call(down, null, { url: "/api/auth/config" })).json()).toEqual({ oidc: true });
  });
});

describe("without OIDC configuration", () => {
  it("has no OIDC routes and says so in /api/auth/config", async () => {
    expect((await call(plain, null, { url: "/api/auth/config" })).json()).toEqual({ oidc: false });
    expect((await call(plain, null, { url: "/api/auth/oidc/start?returnTo=/" })).statusCode).toBe(404);
    expect((await call(plain, null, { url: "/api/auth/oidc/callback?code=x&state=y" })).statusCode).toBe(404);
  });
});
