import { randomBytes } from "node:crypto";
import { count, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/server/db/client.js";
import { openTestSocket, type TestSocket } from "../test-socket.js";
import { emailOutbox } from "../../src/server/db/schema/site.js";
import { tasks } from "../../src/server/db/schema/tasks.js";
import { sessions } from "../../src/server/db/schema/users.js";
import { hashToken } from "../../src/server/features/auth/sessions.js";
import { call, createUser, TEST_ORIGIN, useTestApp, type TestApp, type TestUser } from "../create-test-app.js";
import { startFakeOidcProvider } from "../fakes/fake-oidc-provider.js";
import { taskAt } from "../fixtures/factory.js";
import { taskBody } from "../fixtures/task-bodies.js";

// Issue 8, "Attack": sessions (fixation, logout, idle and absolute expiry), CSRF on every
// state-changing route, and the realtime socket's Origin and session checks. Each refusal is
// paired with the same request from our own origin going through, so none of these can pass
// because the request was broken in some other way. docs/security.md explains the rules.

const DAY = 86_400_000;
const t = await useTestApp();
const https = await useTestApp({ PUBLIC_URL: "https://errandly.example" });

const OIDC_CLIENT = { id: "errandly", secret: "oidc-secret" };
const idp = await startFakeOidcProvider(OIDC_CLIENT);
afterAll(() => idp.close());
const sso = await useTestApp({ OIDC_ISSUER_URL: idp.issuer, OIDC_CLIENT_ID: OIDC_CLIENT.id, OIDC_CLIENT_SECRET: OIDC_CLIENT.secret });

const FOREIGN_ORIGINS = [
  "https://evil.example",
  "null", // a sandboxed iframe or a redirected request
  "http://localhost:3000.evil.example", // our host as a prefix of theirs
  "http://localhost:3001", // another port of our host is another origin
  "https://localhost:3000", // another scheme too
];

/** The `name=value` pair a response sets for `name`, or null when it clears it or sets none. */
function cookieNamed(res: { headers: Record<string, unknown> }, name: string): string | null {
  const raw = res.headers["set-cookie"];
  const all = (Array.isArray(raw) ? raw : [raw]).filter((c) => c !== undefined).map(String);
  const pair = all.filter((c) => c.startsWith(`${name}=`)).at(-1)?.split(";")[0] ?? "";
  return pair === "" || pair === `${name}=` ? null : pair;
}

/** Who a Cookie header signs in as on `app`, or null. */
async function whoIs(app: TestApp, cookie: string): Promise<string | null> {
  const res = await app.app.inject({ url: "/api/auth/user", headers: { cookie } });
  return (res.json() as { id: string } | null)?.id ?? null;
}

let accounts = 0;
/** A local account through the real sign-up route; returns its credentials and first cookie. */
async function register(app: TestApp = t) {
  accounts += 1;
  const email = `member${accounts}-${randomBytes(3).toString("hex")}@example.test`;
  const password = "correct horse battery";
  const res = await app.app.inject({
    method: "POST",
    url: "/api/auth/register",
    payload: { email, password, firstName: "Mia", lastName: "Member" },
    headers: { origin: TEST_ORIGIN },
  });
  // Registering signs nobody in (docs/product.md): the first cookie comes from signing in.
  expect(res.statusCode).toBe(202);
  const signIn = await app.app.inject({ method: "POST", url: "/api/auth/login", payload: { email, password }, headers: { origin: TEST_ORIGIN } });
  expect(signIn.statusCode).toBe(200);
  return { id: (signIn.json() as { id: string }).id, email, password, cookie: cookieNamed(signIn, "errandly_session") ?? "" };
}

function login(email: string, password: string, cookie?: string) {
  return t.app.inject({
    method: "POST",
    url: "/api/auth/login",
    payload: { email, password },
    headers: { origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) },
  });
}

const tokenOf = (cookie: string) => cookie.slice(cookie.indexOf("=") + 1);
const sessionRow = async (cookie: string) =>
  (await t.database.db.select().from(sessions).where(eq(sessions.tokenHash, hashToken(tokenOf(cookie)))))[0];

const newTask = taskBody({ lat: 38.97841, lon: -76.49223 });
const taskCount = async () => (await t.database.db.select({ n: count() }).from(tasks))[0]?.n ?? 0;

// ---- the realtime socket (/ws: the chat panel and the notification bell both use it) -----------

let wsUrl = "";
beforeAll(async () => {
  wsUrl = `${(await t.app.listen({ port: 0, host: "127.0.0.1" })).replace("http://", "ws://")}/ws`;
});

type Upgrade = { status: number; socket: TestSocket | null };

/** Opens /ws with these headers (test/test-socket.ts): the HTTP status of a refused upgrade, or the open socket (101). */
async function upgrade(headers: Record<string, string>): Promise<Upgrade> {
  const opened = await openTestSocket(wsUrl, headers);
  return "refused" in opened ? { status: opened.refused, socket: null } : { status: 101, socket: opened };
}

/** A task `poster` posted and `provider` claimed, so both may chat about it. */
async function claimedTask(poster: TestUser, provider: TestUser): Promise<string> {
  return (await taskAt(t, "claimed", { poster, provider, budgetCents: 4000 })).task.id;
}

describe("session fixation", () => {
  it("local sign-in drops a planted unknown token and a planted live session, and issues a fresh token", async () => {
    const victim = await register();
    const attacker = await createUser(t);
    for (const planted of [`errandly_session=${randomBytes(32).toString("base64url")}`, attacker.cookie]) {
      const res = await login(victim.email, victim.password, planted);
      expect(res.statusCode).toBe(200);
      const issued = cookieNamed(res, "errandly_session");
      expect(issued).not.toBeNull();
      expect(issued).not.toBe(planted);
      expect(await whoIs(t, issued ?? "")).toBe(victim.id);
      // Whoever planted the token holds nothing that signs in as the victim.
      expect(await whoIs(t, planted)).toBeNull();
    }
  });

  it("sign-up sets no session, and its e-mail link never adopts a planted one: it drops it, as sign-in does", async () => {
    const attacker = await createUser(t);
    const email = `fresh-${randomBytes(3).toString("hex")}@example.test`;
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/register",
      payload: { email, password: "correct horse battery", firstName: "F", lastName: "R" },
      headers: { origin: TEST_ORIGIN, cookie: attacker.cookie },
    });
    expect(res.statusCode).toBe(202);
    expect(cookieNamed(res, "errandly_session")).toBeNull();
    const [mail] = await t.database.db.select().from(emailOutbox).where(eq(emailOutbox.to, email));
    const token = /verify-email\?token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? "")?.[1] ?? "";
    const verified = await t.app.inject({
      method: "POST",
      url: "/api/auth/verify-email",
      payload: { token },
      // The same browser: the planted session and the sign-up cookie registration set.
      headers: { origin: TEST_ORIGIN, cookie: `${attacker.cookie}; ${cookieNamed(res, "errandly_sign_up") ?? ""}` },
    });
    expect(verified.statusCode).toBe(200);
    const issued = cookieNamed(verified, "errandly_session");
    expect(issued).not.toBe(attacker.cookie);
    expect(await whoIs(t, issued ?? "")).toBe((verified.json() as { id: string }).id);
    // Whoever planted the token holds nothing that signs in as the new account.
    expect(await whoIs(t, attacker.cookie)).toBeNull();
  });

  it("single sign-on (OIDC) drops a planted session and issues a fresh token", async () => {
    const attacker = await createUser(sso);
    const start = await sso.app.inject({ url: "/api/auth/oidc/start?returnTo=%2Fdashboard" });
    expect(start.statusCode).toBe(302);
    const authorize = new URL(String(start.headers.location));
    const flow = cookieNamed(start, "errandly_oidc") ?? "";
    const code = idp.issueCode(authorize, { sub: "victim-sub", email: "victim.sso@example.test", email_verified: true });
    const res = await sso.app.inject({
      url: `/api/auth/oidc/callback?${new URLSearchParams({ code, state: authorize.searchParams.get("state") ?? "" }).toString()}`,
      headers: { cookie: `${flow}; ${attacker.cookie}` },
    });
    expect(res.headers.location).toBe("/dashboard");
    const issued = cookieNamed(res, "errandly_session") ?? "";
    expect(issued).not.toBe(attacker.cookie);
    const victimId = await whoIs(sso, issued);
    expect(victimId).not.toBeNull();
    expect(victimId).not.toBe(attacker.id);
    expect(await whoIs(sso, attacker.cookie)).toBeNull();
  });

  it("over https reads only the __Host- cookie, which a sibling subdomain cannot plant", async () => {
    const user = await createUser(https);
    const token = tokenOf(user.cookie);
    expect(await whoIs(https, `__Host-errandly_session=${token}`)).toBe(user.id);
    expect(await whoIs(https, `errandly_session=${token}`)).toBeNull();
  });
});

describe("logout", () => {
  it("POST /api/auth/logout deletes the session on the server; a stolen copy is refused on REST and on the socket", async () => {
    const poster = await createUser(t);
    const stolen = poster.cookie;
    expect(await sessionRow(stolen)).toBeDefined();
    const upgradeBefore = await upgrade({ origin: TEST_ORIGIN, cookie: stolen });
    expect(upgradeBefore.status).toBe(101);
    upgradeBefore.socket?.close();

    const out = await call(t, poster, { method: "POST", url: "/api/auth/logout" });
    expect(out.statusCode).toBe(200);
    expect(String(out.headers["set-cookie"])).toMatch(/errandly_session=;.*Expires=Thu, 01 Jan 1970/);
    expect(await sessionRow(stolen)).toBeUndefined();

    // The copy an attacker kept: reads, writes and the socket all refuse it.
    expect((await call(t, poster, { url: "/api/auth/user" })).json()).toBeNull();
    expect((await call(t, poster, { url: "/api/tasks/my-tasks" })).statusCode).toBe(401);
    const before = await taskCount();
    const write = await call(t, poster, { method: "POST", url: "/api/tasks", payload: newTask });
    expect(write.statusCode).toBe(401);
    expect(await taskCount()).toBe(before);
    expect((await upgrade({ origin: TEST_ORIGIN, cookie: stolen })).status).toBe(401);
  });

  it("GET /api/logout (the header's navigation) deletes the session; a navigation from another site does not", async () => {
    const user = await createUser(t);
    const crossSite = await call(t, user, { url: "/api/logout", headers: { "sec-fetch-site": "cross-site" } });
    expect(crossSite.statusCode).toBe(302);
    expect(crossSite.headers.location).toBe("/");
    expect(await whoIs(t, user.cookie)).toBe(user.id);

    const own = await call(t, user, { url: "/api/logout", headers: { "sec-fetch-site": "same-origin" } });
    expect(own.statusCode).toBe(302);
    expect(await sessionRow(user.cookie)).toBeUndefined();
    expect(await whoIs(t, user.cookie)).toBeNull();
    expect((await upgrade({ origin: TEST_ORIGIN, cookie: user.cookie })).status).toBe(401);
  });

  it("closes the open sockets of a session that logged out", async () => {
    const poster = await createUser(t);
    const provider = await createUser(t, { verifiedProvider: true });
    const taskId = await claimedTask(poster, provider);
    const chat = await upgrade({ origin: TEST_ORIGIN, cookie: provider.cookie });
    const bell = await upgrade({ origin: TEST_ORIGIN, cookie: provider.cookie });
    if (!chat.socket || !bell.socket) throw new Error("sockets did not open");
    chat.socket.send(JSON.stringify({ type: "auth", taskId }));
    expect((await chat.socket.next("auth_success")).type).toBe("auth_success");
    bell.socket.send(JSON.stringify({ type: "subscribe_notifications" }));
    expect((await bell.socket.next("notification")).type).toBe("notification");

    const closed = [chat.socket.closed(), bell.socket.closed()];
    expect((await call(t, provider, { method: "POST", url: "/api/auth/logout" })).statusCode).toBe(200);
    await t.app.ctx.scheduler.runAll();
    expect(await Promise.all(closed)).toEqual([1008, 1008]);
  });
});

describe("expiry", () => {
  it("idle: a session unused for SESSION_IDLE_DAYS (7) is refused; use slides the window", async () => {
    const account = await register();
    const used = cookieNamed(await login(account.email, account.password), "errandly_session") ?? "";
    const unused = cookieNamed(await login(account.email, account.password), "errandly_session") ?? "";
    expect(await whoIs(t, used)).toBe(account.id);
    expect(await whoIs(t, unused)).toBe(account.id);

    t.clock.advance(7 * DAY - 60_000);
    expect(await whoIs(t, used)).toBe(account.id); // seen a minute before its idle expiry: extended
    t.clock.advance(60_000);
    expect(await whoIs(t, unused)).toBeNull(); // exactly 7 idle days
    expect((await upgrade({ origin: TEST_ORIGIN, cookie: unused })).status).toBe(401);
    const before = await taskCount();
    expect((await t.app.inject({ method: "POST", url: "/api/tasks", payload: newTask, headers: { origin: TEST_ORIGIN, cookie: unused } })).statusCode).toBe(401);
    expect(await taskCount()).toBe(before);

    expect(await whoIs(t, used)).toBe(account.id); // 7 days after sign-in, but only a minute idle
    t.clock.advance(7 * DAY);
    expect(await whoIs(t, used)).toBeNull();

    // The cleanup job removes what expired.
    expect(await sessionRow(unused)).toBeDefined();
    await t.app.ctx.scheduler.runAll();
    expect(await sessionRow(unused)).toBeUndefined();
    expect(await sessionRow(used)).toBeUndefined();
  });

  it("absolute: a session in daily use is refused SESSION_ABSOLUTE_DAYS (30) after sign-in", async () => {
    const account = await register();
    const res = await login(account.email, account.password);
    const cookie = cookieNamed(res, "errandly_session") ?? "";
    // The browser forgets it at the same moment.
    expect(String(res.headers["set-cookie"])).toMatch(/Max-Age=2592000/);
    for (let day = 6; day < 30; day += 6) {
      t.clock.advance(6 * DAY);
      expect(await whoIs(t, cookie)).toBe(account.id);
    }
    t.clock.advance(6 * DAY - 1000); // 30 days less a second; last seen 6 days ago
    expect(await whoIs(t, cookie)).toBe(account.id);
    t.clock.advance(1000);
    expect(await whoIs(t, cookie)).toBeNull();
    expect((await upgrade({ origin: TEST_ORIGIN, cookie })).status).toBe(401);
  });

  it("closes an open socket once its session has expired", async () => {
    const user = await createUser(t);
    const open = await upgrade({ origin: TEST_ORIGIN, cookie: user.cookie });
    if (!open.socket) throw new Error("socket did not open");
    open.socket.send(JSON.stringify({ type: "subscribe_notifications" }));
    await open.socket.next();
    const closed = open.socket.closed();
    t.clock.advance(7 * DAY + 1000);
    // One round: the sweep closes sockets whose session is past its expiry, deleted or not.
    await t.app.ctx.scheduler.runAll();
    expect(await closed).toBe(1008);
  });
});

// ---- CSRF on every state-changing route ---------------------------------------------------------

interface Route {
  method: string;
  url: string;
}

const STATE_CHANGING = ["POST", "PUT", "PATCH", "DELETE"];

/** Every route the router holds, read from Fastify's own route tree. */
function routerRoutes(app: FastifyInstance): Route[] {
  const found: Route[] = [];
  const pathAt: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split("\n")) {
    const match = /^((?:[│ ] {3})*)[├└]── (.+?)(?: \(([^)]*)\))?$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? "").length / 4;
    const url = `${depth > 0 ? (pathAt[depth - 1] ?? "") : ""}${match[2] ?? ""}`;
    pathAt[depth] = url;
    for (const method of (match[3] ?? "").split(",").map((m) => m.trim())) if (method) found.push({ method, url });
  }
  return found;
}

/** Every operation in the OpenAPI document, as router paths. */
function documentedRoutes(app: FastifyInstance): Route[] {
  const doc = app.swagger() as { paths?: Record<string, Record<string, unknown>> };
  return Object.entries(doc.paths ?? {}).flatMap(([path, operations]) =>
    Object.keys(operations).map((method) => ({ method: method.toUpperCase(), url: path.replace(/\{(\w+)\}/g, ":$1") })),
  );
}

const key = (r: Route) => `${r.method} ${r.url}`;
const stateChanging = routerRoutes(t.app).filter((r) => STATE_CHANGING.includes(r.method));

/** A digest of every row of every table: equal digests mean the request changed nothing. */
async function databaseDigest(): Promise<string> {
  const tables = await queryRows<{ name: string }>(
    t.database.db,
    sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  );
  const parts = tables.map(
    ({ name }) => sql`select ${name} as name, md5(coalesce(string_agg(r::text, '|' order by r::text), '')) as digest from ${sql.identifier(name)} r`,
  );
  const rows = await queryRows<{ name: string; digest: string }>(t.database.db, sql.join(parts, sql` union all `));
  // A union's rows come in no promised order (a parallel plan reorders them): sorted, as the tables were.
  return rows
    .map((r) => `${r.name}:${r.digest}`)
    .sort()
    .join(",");
}

describe("CSRF: the route inventory", () => {
  it("reads every state-changing route from the router, and agrees with the OpenAPI document", () => {
    const documented = documentedRoutes(t.app).filter((r) => STATE_CHANGING.includes(r.method)).map(key);
    expect(stateChanging.map(key).sort()).toEqual([...new Set(documented)].sort());
    for (const known of ["POST /api/auth/login", "POST /api/tasks", "PATCH /api/tasks/:id/claim", "PUT /api/objects/put/:token", "POST /api/stripe/webhook"]) {
      expect(stateChanging.map(key)).toContain(known);
    }
    expect(stateChanging.length).toBeGreaterThanOrEqual(35);
  });
});

describe("CSRF: every state-changing route refuses another origin and changes nothing", () => {
  let admin: TestUser;
  let taskId = "";
  let userId = "";
  beforeAll(async () => {
    admin = await createUser(t, { role: "admin" });
    const poster = await createUser(t);
    const provider = await createUser(t, { verifiedProvider: true });
    taskId = await claimedTask(poster, provider);
    userId = provider.id;
  });

  // Real ids, so the only thing wrong with these requests is where they come from.
  const concrete = (url: string) =>
    url
      .replace(/:(id|taskId)\b/g, taskId)
      .replace(/:userId\b/g, userId)
      .replace(/:token\b/g, randomBytes(32).toString("base64url"));

  it.each(stateChanging.map((r) => [key(r), r] as const))("%s", async (_name, route) => {
    const before = await databaseDigest();
    const send = (headers: Record<string, string>) =>
      t.app.inject({
        method: route.method as "POST",
        url: concrete(route.url),
        payload: {},
        headers: { cookie: admin.cookie, ...headers },
      });
    for (const origin of FOREIGN_ORIGINS) {
      const res = await send({ origin });
      expect(res.statusCode, `Origin: ${origin}`).toBe(403);
      expect(res.json()).toEqual({ message: "Cross-origin requests are not allowed" });
    }
    // Fetch metadata alone refuses too: with no Origin, and even beside our own Origin.
    for (const origin of [undefined, TEST_ORIGIN]) {
      const res = await send({ "sec-fetch-site": "cross-site", ...(origin ? { origin } : {}) });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: "Cross-site requests are not allowed" });
    }
    expect(await databaseDigest()).toBe(before);
  });
});

describe("CSRF: the same requests from our own origin go through", () => {
  it("creating a task", async () => {
    const poster = await createUser(t);
    const before = await taskCount();
    const refused = await call(t, poster, { method: "POST", url: "/api/tasks", payload: newTask, headers: { origin: "https://evil.example" } });
    expect(refused.statusCode).toBe(403);
    expect(await taskCount()).toBe(before);
    const site = await call(t, poster, { method: "POST", url: "/api/tasks", payload: newTask, headers: { "sec-fetch-site": "same-origin" } });
    expect(site.statusCode).toBe(201);
    expect(await taskCount()).toBe(before + 1);
  });

  it("claiming a task", async () => {
    const poster = await createUser(t);
    const provider = await createUser(t, { verifiedProvider: true });
    const created = await call(t, poster, { method: "POST", url: "/api/tasks", payload: newTask });
    const id = (created.json() as { id: string }).id;
    const status = async () => (await t.database.db.select({ status: tasks.status }).from(tasks).where(eq(tasks.id, id)))[0]?.status;
    const claim = (headers: Record<string, string>) => call(t, provider, { method: "PATCH", url: `/api/tasks/${id}/claim`, headers });
    expect((await claim({ "sec-fetch-site": "cross-site" })).statusCode).toBe(403);
    expect(await status()).toBe("open");
    expect((await claim({ origin: TEST_ORIGIN })).statusCode).toBe(200);
    expect(await status()).toBe("claimed");
  });

  it("signing out", async () => {
    const user = await createUser(t);
    const out = (origin: string) => call(t, user, { method: "POST", url: "/api/auth/logout", headers: { origin } });
    expect((await out("https://evil.example")).statusCode).toBe(403);
    expect(await whoIs(t, user.cookie)).toBe(user.id);
    expect((await out(TEST_ORIGIN)).statusCode).toBe(200);
    expect(await whoIs(t, user.cookie)).toBeNull();
  });

  it("a request with neither Origin nor Sec-Fetch-Site (curl, a server) is judged by its credentials alone", async () => {
    const before = await taskCount();
    const anonymous = await t.app.inject({ method: "POST", url: "/api/tasks", payload: newTask });
    expect(anonymous.statusCode).toBe(401);
    expect(await taskCount()).toBe(before);
    const poster = await createUser(t);
    const withCookie = await t.app.inject({ method: "POST", url: "/api/tasks", payload: newTask, headers: { cookie: poster.cookie } });
    expect(withCookie.statusCode).toBe(201);
  });

  it("the Stripe webhook, called server to server without Origin, reaches its signature check", async () => {
    const serverToServer = await t.app.inject({ method: "POST", url: "/api/stripe/webhook", payload: { type: "payment_intent.succeeded" } });
    // Not configured here (sandbox payments): the route itself answers, not the CSRF rule.
    expect(serverToServer.statusCode).toBe(404);
    expect(serverToServer.json()).toEqual({ message: "Stripe is not configured" });
    const fromBrowser = await t.app.inject({
      method: "POST",
      url: "/api/stripe/webhook",
      payload: { type: "payment_intent.succeeded" },
      headers: { origin: "https://evil.example" },
    });
    expect(fromBrowser.statusCode).toBe(403);
  });
});

// ---- the socket's own checks --------------------------------------------------------------------

describe("the realtime socket (/ws, shared by chat and notifications)", () => {
  it("refuses a foreign, look-alike or missing Origin before the upgrade, even with a valid session", async () => {
    const user = await createUser(t);
    for (const origin of FOREIGN_ORIGINS) {
      expect((await upgrade({ origin, cookie: user.cookie })).status, `Origin: ${origin}`).toBe(403);
    }
    expect((await upgrade({ cookie: user.cookie })).status).toBe(403);
  });

  it("refuses a missing, unknown or malformed session", async () => {
    for (const cookie of [undefined, `errandly_session=${randomBytes(32).toString("base64url")}`, "errandly_session=x", "errandly_session="]) {
      expect((await upgrade({ origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) })).status, String(cookie)).toBe(401);
    }
  });

  it("opens for our own origin with a live session, for the chat and for the notification bell", async () => {
    const poster = await createUser(t);
    const provider = await createUser(t, { verifiedProvider: true });
    const taskId = await claimedTask(poster, provider);
    const chat = await upgrade({ origin: TEST_ORIGIN, cookie: poster.cookie });
    const bell = await upgrade({ origin: TEST_ORIGIN, cookie: poster.cookie });
    if (!chat.socket || !bell.socket) throw new Error("sockets did not open");
    chat.socket.send(JSON.stringify({ type: "auth", taskId }));
    expect((await chat.socket.next("auth_success")).type).toBe("auth_success");
    bell.socket.send(JSON.stringify({ type: "subscribe_notifications" }));
    expect(await bell.socket.next("notification")).toEqual({ type: "notification", unreadCount: expect.any(Number) });
    chat.socket.close();
    bell.socket.close();
  });
});
