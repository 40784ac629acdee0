import { describe, expect, it } from "vitest";
import { count, eq } from "drizzle-orm";
import { users, sessions } from "../../db/schema/users.js";
import { promoteAdminEmails } from "./repository.js";
import { call, createUser, TEST_ORIGIN, useTestApp } from "../../../../test/create-test-app.js";

const t = await useTestApp({ ADMIN_EMAILS: "boss@example.test" });

function cookieFrom(res: { headers: Record<string, unknown> }): string {
  const raw = res.headers["set-cookie"];
  const first = Array.isArray(raw) ? String(raw[0]) : String(raw);
  return first.split(";")[0] ?? "";
}

const register = (body: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: "POST", url: "/api/auth/register", payload: body as object, headers: { origin: TEST_ORIGIN, ...headers } });

describe("accounts", () => {
  it("registers without signing in, then signs in with the password while unverified, out and in again", async () => {
    const res = await register({ email: "Ann@Example.test", password: "correct horse", firstName: "Ann", lastName: "Lee" });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ message: "Check your inbox: we sent a link to ann@example.test to finish signing up." });
    // Only the sign-up cookie (decision 044), no session.
    expect(String(res.headers["set-cookie"])).toMatch(/^errandly_sign_up=/);
    expect(String(res.headers["set-cookie"])).not.toContain("errandly_session");

    const login = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: "ann@example.test", password: "correct horse" },
      headers: { origin: TEST_ORIGIN },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json()).toMatchObject({ email: "ann@example.test", firstName: "Ann", first_name: "Ann", role: "user", emailVerified: false });
    expect(login.json()).not.toHaveProperty("passwordHash");
    const setCookie = String(login.headers["set-cookie"]);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    const cookie = cookieFrom(login);

    const me = await t.app.inject({ url: "/api/auth/user", headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.json().lastName).toBe("Lee");

    const out = await t.app.inject({ method: "POST", url: "/api/auth/logout", headers: { cookie, origin: TEST_ORIGIN } });
    expect(out.statusCode).toBe(200);
    // Signed out: nobody is signed in here (null), and a signed-in route refuses the old cookie.
    const after = await t.app.inject({ url: "/api/auth/user", headers: { cookie } });
    expect(after.statusCode).toBe(200);
    expect(after.json()).toBeNull();
    const refused = await t.app.inject({ url: "/api/tasks/my-tasks", headers: { cookie } });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ message: "Unauthorized" });

    const again = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: "ann@example.test", password: "correct horse" },
      headers: { origin: TEST_ORIGIN },
    });
    expect(again.statusCode).toBe(200);
    expect(cookieFrom(again)).not.toBe(cookie);
  });

  it("answers a taken e-mail as a new one, stores nothing and keeps the first password", async () => {
    await register({ email: "dup@example.test", password: "orchid kettle planet", firstName: "A", lastName: "B" });
    const [before] = await t.database.db.select({ n: count() }).from(users);
    const again = await register({ email: "DUP@example.test", password: "velvet canyon piano", firstName: "C", lastName: "D" });
    expect(again.statusCode).toBe(202);
    expect(again.json()).toEqual({ message: "Check your inbox: we sent a link to dup@example.test to finish signing up." });
    const [after] = await t.database.db.select({ n: count() }).from(users);
    expect(after?.n).toBe(before?.n);
    const login = (password: string) =>
      t.app.inject({ method: "POST", url: "/api/auth/login", payload: { email: "dup@example.test", password }, headers: { origin: TEST_ORIGIN } });
    expect((await login("orchid kettle planet")).statusCode).toBe(200);
    expect((await login("velvet canyon piano")).statusCode).toBe(401);
  });

  it.each([
    [{ email: "x@example.test", password: "short", firstName: "A", lastName: "B" }, /password/i],
    [{ email: "not-an-email", password: "orchid kettle planet", firstName: "A", lastName: "B" }, /email/i],
    [{ email: "y@example.test", password: "orchid kettle planet", firstName: "   ", lastName: "B" }, /firstName/],
    [{ email: "z@example.test", password: "orchid kettle planet", firstName: "A" }, /lastName/],
    [{}, /email/],
  ])("refuses bad registration %# with 400 naming the field", async (body, pattern) => {
    const [before] = await t.database.db.select({ n: count() }).from(users);
    const res = await register(body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(pattern);
    const [after] = await t.database.db.select({ n: count() }).from(users);
    expect(after?.n).toBe(before?.n);
  });

  it("answers a wrong password and an unknown e-mail alike", async () => {
    await register({ email: "pw@example.test", password: "right password", firstName: "P", lastName: "W" });
    const wrong = await t.app.inject({ method: "POST", url: "/api/auth/login", payload: { email: "pw@example.test", password: "wrong password" } });
    const unknown = await t.app.inject({ method: "POST", url: "/api/auth/login", payload: { email: "nobody@example.test", password: "whatever1" } });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
  });

  it("makes verified ADMIN_EMAILS accounts admins at start, never at sign-up", async () => {
    const res = await register({ email: "boss@example.test", password: "orchid kettle planet", firstName: "B", lastName: "S" });
    expect(res.statusCode).toBe(202);
    // Not verified yet: a restart does not promote whoever registered the listed address.
    expect(await promoteAdminEmails(t.database.db, t.env.ADMIN_EMAILS)).toBe(0);
    await t.database.db.update(users).set({ emailVerifiedAt: t.clock.now() }).where(eq(users.email, "boss@example.test"));
    expect(await promoteAdminEmails(t.database.db, t.env.ADMIN_EMAILS)).toBe(1);
    const login = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: "boss@example.test", password: "orchid kettle planet" },
      headers: { origin: TEST_ORIGIN },
    });
    expect(login.json().role).toBe("admin");
    expect(await promoteAdminEmails(t.database.db, t.env.ADMIN_EMAILS)).toBe(0);
  });

  it("expires sessions after 7 idle days and refuses them", async () => {
    const user = await createUser(t);
    const ok = await call(t, user, { url: "/api/auth/user" });
    expect(ok.statusCode).toBe(200);
    t.clock.advance(8 * 86_400_000);
    const expired = await call(t, user, { url: "/api/auth/user" });
    expect(expired.json()).toBeNull();
  });

  it("refuses a state-changing request from another origin", async () => {
    const [before] = await t.database.db.select({ n: count() }).from(users);
    const res = await register(
      { email: "csrf@example.test", password: "orchid kettle planet", firstName: "C", lastName: "S" },
      { origin: "https://evil.example" },
    );
    expect(res.statusCode).toBe(403);
    const [after] = await t.database.db.select({ n: count() }).from(users);
    expect(after?.n).toBe(before?.n);
  });

  it("drops a session token planted before sign-in (fixation)", async () => {
    await register({ email: "fix@example.test", password: "orchid kettle planet", firstName: "F", lastName: "X" });
    const planted = "errandly_session=planted-token-value-123456789";
    const login = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: "fix@example.test", password: "orchid kettle planet" },
      headers: { cookie: planted },
    });
    expect(login.statusCode).toBe(200);
    expect(cookieFrom(login)).not.toBe(planted);
    const withPlanted = await t.app.inject({ url: "/api/auth/user", headers: { cookie: planted } });
    expect(withPlanted.json()).toBeNull();
  });

  it("logout deletes the session on the server", async () => {
    const user = await createUser(t);
    const [before] = await t.database.db.select({ n: count() }).from(sessions);
    const res = await call(t, user, { method: "GET", url: "/api/logout" });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe("/");
    const [after] = await t.database.db.select({ n: count() }).from(sessions);
    expect(after?.n).toBe((before?.n ?? 0) - 1);
    expect((await call(t, user, { url: "/api/auth/user" })).json()).toBeNull();
  });

  it.each([
    ["/dashboard", "/sign-in?returnTo=%2Fdashboard"],
    ["https://evil.example/", "/sign-in?returnTo=%2F"],
    ["//evil.example", "/sign-in?returnTo=%2F"],
    ["/\\evil.example", "/sign-in?returnTo=%2F"],
  ])("/api/login?returnTo=%s redirects to a same-origin sign-in", async (returnTo, location) => {
    const res = await t.app.inject({ url: `/api/login?returnTo=${encodeURIComponent(returnTo)}` });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(location);
  });
});

describe("platform", () => {
  it("answers health once the database answers", async () => {
    const res = await t.app.inject({ url: "/api/health" });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe("ok");
  });

  it("answers unknown API paths with a JSON 404", async () => {
    const res = await t.app.inject({ url: "/api/nope" });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toMatch(/Not found/);
  });

  it("answers malformed JSON with 400 and an oversized body with 413", async () => {
    const bad = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty("message");
    const big = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: JSON.stringify({ email: "a@b.c", password: "x".repeat(2_000_000) }),
      headers: { "content-type": "application/json" },
    });
    expect(big.statusCode).toBe(413);
  });

  it("sends security headers", async () => {
    const res = await t.app.inject({ url: "/api/health" });
    expect(res.headers["content-security-policy"]).toMatch(/frame-ancestors 'none'/);
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(res.headers["strict-transport-security"]).toBeUndefined();
  });

  it("serves the OpenAPI document", async () => {
    const res = await t.app.inject({ url: "/api/docs/json" });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().paths)).toContain("/api/auth/register");
  });
});

describe("NUL characters", () => {
  it.each([
    ["GET", "/api/tasks/open?search=%00", undefined, /querystring\.search/],
    ["POST", "/api/auth/register", { email: "nul@example.test", password: "orchid kettle planet", firstName: "a\u0000b", lastName: "c" }, /body\.firstName/],
    ["POST", "/api/contact", { name: "N", email: "n@example.test", subject: "s\u0000", message: "m" }, /body\.subject/],
  ])("%s %s answers 400 naming the field", async (method, url, payload, pattern) => {
    const [before] = await t.database.db.select({ n: count() }).from(users);
    const res = await t.app.inject({ method: method as "GET" | "POST", url, payload, headers: { origin: TEST_ORIGIN } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(pattern);
    const [after] = await t.database.db.select({ n: count() }).from(users);
    expect(after?.n).toBe(before?.n);
  });
});
