import { randomUUID } from "node:crypto";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { and, eq, inArray, ne } from "drizzle-orm";
import { generateSync } from "otplib";
import type { FastifyInstance, InjectOptions, RouteOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TaskStatus } from "../../src/shared/constants.js";
import { messages, notifications } from "../../src/server/db/schema/chat.js";
import { jobAlerts } from "../../src/server/db/schema/job-alerts.js";
import { reports, userBlocks } from "../../src/server/db/schema/moderation.js";
import { taskOffers } from "../../src/server/db/schema/offers.js";
import { taskQuestions } from "../../src/server/db/schema/questions.js";
import { disputeMessages, escrowHolds, ledgerTransactions, payments, tips } from "../../src/server/db/schema/payments.js";
import { backgroundChecks } from "../../src/server/db/schema/background-checks.js";
import { calendarFeeds, providerCalendars } from "../../src/server/db/schema/calendar.js";
import { tasks } from "../../src/server/db/schema/tasks.js";
import { providerProfiles, uploads } from "../../src/server/db/schema/providers.js";
import { pushSubscriptions } from "../../src/server/db/schema/push.js";
import { reviews } from "../../src/server/db/schema/reviews.js";
import { passkeys, securityEvents } from "../../src/server/db/schema/security.js";
import { issueToken } from "../../src/server/features/auth/tokens.js";
import { VERIFY_EMAIL_FIRST_MESSAGE } from "../../src/shared/auth.js";
import { ADMIN_SECOND_FACTOR_MESSAGE, SECOND_FACTOR_REQUIRED } from "../../src/shared/security-rules.js";
import { sessions, users } from "../../src/server/db/schema/users.js";
import { hashPassword } from "../../src/server/features/auth/passwords.js";
import { createSession, hashToken } from "../../src/server/features/auth/sessions.js";
import { announceStatement } from "../../src/server/task-updates.js";
import type { TaskRow } from "../../src/server/transition-actions.js";
import { call, createUser, TEST_ORIGIN, useTestApp, type TestUser } from "../create-test-app.js";
import { startFakeOidcProvider } from "../fakes/fake-oidc-provider.js";
import { askQuestion, BASE_OFFER, createApplicant, makeOffer, postOffersTask, postRequestTask, taskAt as factoryTaskAt, taskRow as storedTask, type TaskStage } from "../fixtures/factory.js";
import { tinyPng } from "../fixtures/test-files.js";
import { openTestSocket, type TestSocket } from "../test-socket.js";
import {
  ACTORS,
  expectedFrame,
  expectedStatus,
  HTTP_MATRIX,
  isAdminArea,
  SOCKET_MATRIX,
  VERIFIED_EMAIL_ROUTES,
  type Actor,
  type FrameOutcome,
  type RouteKey,
  type SocketFrameKey,
} from "./authorization-matrix-table.js";

// Plays authorization-matrix-table.ts against the real app: first that the table names exactly the
// routes the app registers, then every route × actor with a task at the stage the route needs, a
// valid request (so a 400 cannot hide the authorization decision) and, for reads and refused writes,
// a check that nothing leaked and nothing changed. How to add a route: see the top of the table file.

const oidc = await startFakeOidcProvider({ id: "errandly", secret: "matrix-secret" });
afterAll(() => oidc.close());

/**
 * Every route the app registers, as Fastify announces it to onRoute hooks. buildApp creates its
 * Fastify instance and registers the routes in one call, so the hook is added through Fastify's
 * "fastify.initialization" diagnostics channel, which hands over each new instance before any
 * plugin has run; the subscription lasts only while this file's app is built.
 */
const announcedRoutes: RouteOptions[] = [];
const collectRoutes = (message: unknown) => {
  (message as { fastify: FastifyInstance }).fastify.addHook("onRoute", (route) => {
    announcedRoutes.push(route);
  });
};
subscribe("fastify.initialization", collectRoutes);
const t = await useTestApp({
  // Single sign-on on, so its two routes are registered and in the matrix too.
  OIDC_ISSUER_URL: oidc.issuer,
  OIDC_CLIENT_ID: "errandly",
  OIDC_CLIENT_SECRET: "matrix-secret",
  // No built web app: the SPA's static files register no routes, so every route left is ours to judge.
  WEB_DIST_DIR: `/tmp/errandly-no-web-${randomUUID()}`,
});
unsubscribe("fastify.initialization", collectRoutes);

const BUDGET_CENTS = 10_000; // $100: completion holds the money for the 24-hour approval window.
const STREET = "1 Main St"; // the factory's street address: what strangers must never see.
const CARD = { cardNumber: "4242 4242 4242 4242", expMonth: 12, expYear: 2030, cvc: "123" };
const LOGIN = { email: `matrix-login-${randomUUID().slice(0, 8)}@example.test`, password: "matrix-password-123" };

let wsUrl = "";
beforeAll(async () => {
  wsUrl = (await t.app.listen({ port: 0, host: "127.0.0.1" })).replace("http://", "ws://");
  await must(call(t, null, { method: "POST", url: "/api/auth/register", payload: { ...LOGIN, firstName: "Lee", lastName: "Login" } }), 202);
});

// ---------------------------------------------------------------------------------------------
// The route table, read from Fastify itself.

/**
 * "METHOD /path" of every route the app registered, from the onRoute hook above. HEAD is dropped
 * where Fastify added it for a GET, and the OpenAPI viewer under /api/docs is left out: static
 * documentation, public by design (plugins/auth.ts).
 */
function registeredRoutes(routes: readonly RouteOptions[]): string[] {
  const found = new Set<string>();
  for (const route of routes) {
    if (route.url.startsWith("/api/docs")) continue;
    for (const method of [route.method].flat()) found.add(`${method} ${route.url}`);
  }
  return [...found].filter((key) => !(key.startsWith("HEAD ") && found.has(`GET ${key.slice(5)}`))).sort();
}

describe("the route table", () => {
  it("has a matrix row for every registered route, and a route for every row", () => {
    const routes = registeredRoutes(announcedRoutes);
    const rows = Object.keys(HTTP_MATRIX);
    expect(routes.length, "no routes announced to the onRoute hook").toBeGreaterThan(0);
    expect({
      "routes without a row in authorization-matrix-table.ts": routes.filter((r) => !rows.includes(r)),
      "rows in authorization-matrix-table.ts for routes that do not exist": rows.filter((r) => !routes.includes(r)),
    }).toEqual({
      "routes without a row in authorization-matrix-table.ts": [],
      "rows in authorization-matrix-table.ts for routes that do not exist": [],
    });
  });
});

describe("routes that need a verified e-mail", () => {
  it("are exactly the listed ones, and refuse a signed-in person who has not verified with 403", async () => {
    const marked = new Set<string>();
    for (const route of announcedRoutes) {
      if (route.config?.verifiedEmail) for (const method of [route.method].flat()) marked.add(`${method} ${route.url}`);
    }
    expect([...marked].sort()).toEqual([...VERIFIED_EMAIL_ROUTES].sort());
    const unverified = await createUser(t, { emailVerified: false });
    for (const key of VERIFIED_EMAIL_ROUTES) {
      const [method = "POST", path = ""] = key.split(" ");
      // The check runs before the body is read, so any body (and any task id) shows it.
      const res = await call(t, unverified, { method: method as "POST", url: path.replace(":id", randomUUID()), payload: {} });
      expect(res.statusCode, key).toBe(403);
      expect(res.json(), key).toEqual({ message: VERIFY_EMAIL_FIRST_MESSAGE });
    }
  });
});

describe("admins always on two factors", () => {
  it("an admin whose session was not proven by a second factor gets 403 with a plain message on every admin route", async () => {
    const adminRoutes = (Object.keys(HTTP_MATRIX) as RouteKey[]).filter((key) => key.split(" ")[1]?.startsWith("/api/admin/"));
    expect(adminRoutes.length).toBeGreaterThan(10);
    // Signed in with the password alone (docs/decisions/049-second-factors.md).
    const admin = await createUser(t, { role: "admin" });
    await t.database.db.update(sessions).set({ secondFactor: null }).where(eq(sessions.userId, admin.id));
    for (const key of adminRoutes) {
      const [method = "GET", path = ""] = key.split(" ");
      // The check runs before the body is read, so any body and any id show it.
      const url = path.replace(/:\w+/g, randomUUID());
      const res = await call(t, admin, { method: method as "GET", url, ...(method === "GET" ? {} : { payload: {} }) });
      expect(res.statusCode, key).toBe(403);
      expect(res.json(), key).toEqual({ message: ADMIN_SECOND_FACTOR_MESSAGE, reason: SECOND_FACTOR_REQUIRED });
    }
  });
});

// ---------------------------------------------------------------------------------------------
// The cast and the task: fresh for every write, one per route for reads.

type Stage = "open" | "claimed" | "paid" | "in_progress" | "completed" | "disputed" | "expired";

const STAGE_STATUS: Record<Stage, TaskStatus> = {
  open: "open",
  claimed: "claimed",
  paid: "claimed",
  in_progress: "in_progress",
  completed: "completed",
  disputed: "completed",
  expired: "payment_expired",
};

/** The task's two parties and the task at a stage of its life (none without a stage). */
interface Scene {
  poster: TestUser;
  assigned: TestUser;
  /** The task; reading it in a scenario without a stage is a mistake in the scenario. */
  readonly task: TaskRow;
  /** What the scenario's prepare() made for the request (a file's path), if anything. */
  prepared: string;
}

/** A scene as one actor sees it. */
interface World extends Scene {
  actorKind: Actor;
  /** The caller; null when signed out. */
  actor: TestUser | null;
  /** Another user the request is about (an applicant under review), when there is one. */
  subject?: TestUser;
  /** "<route> as <actor>", for assertion messages. */
  label: string;
}

interface Answer {
  statusCode: number;
  body: string;
  headers: Record<string, unknown>;
}

let ipCounter = 0;
/** A distinct client address per request: the per-IP rate limits of public forms never interfere. */
function nextIp(): string {
  ipCounter += 1;
  return `10.77.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
}

async function must(response: Promise<Answer>, status: number): Promise<Answer> {
  const res = await response;
  if (res.statusCode !== status) throw new Error(`fixture request answered ${res.statusCode}, expected ${status}: ${res.body}`);
  return res;
}

const parse = <T>(res: Answer): T => JSON.parse(res.body) as T;

const taskRow = (id: string): Promise<TaskRow> => storedTask(t, id);

const FACTORY_STAGE: Record<Stage, TaskStage> = {
  open: "open",
  claimed: "claimed",
  paid: "paid",
  in_progress: "in_progress",
  completed: "completed",
  disputed: "disputed",
  expired: "payment_expired",
};

/** A task of the poster's at `stage`, reached by the factory through the same routes and jobs the app runs. */
async function taskAt(stage: Stage, poster: TestUser, assigned: TestUser): Promise<TaskRow> {
  const { task } = await factoryTaskAt(t, FACTORY_STAGE[stage], { poster, provider: assigned, budgetCents: BUDGET_CENTS });
  return task;
}

async function buildScene(stage: Stage | null): Promise<Scene> {
  const poster = await createUser(t);
  const assigned = await createUser(t, { verifiedProvider: true });
  const task = stage ? await taskAt(stage, poster, assigned) : null;
  return {
    poster,
    assigned,
    get task(): TaskRow {
      if (!task) throw new Error("the scenario reads the task but has no stage");
      return task;
    },
    prepared: "",
  };
}

/** The scene with the actor in it: the poster and provider are the scene's, anyone else is new. */
async function enter(scene: Scene, routeLabel: string, actorKind: Actor): Promise<World> {
  const actors: Record<Actor, () => Promise<TestUser | null>> = {
    signedOut: async () => null,
    user: () => createUser(t),
    poster: async () => scene.poster,
    assignedProvider: async () => scene.assigned,
    otherProvider: () => createUser(t, { verifiedProvider: true }),
    admin: () => createUser(t, { role: "admin" }),
    oneFactorAdmin: () => createUser(t, { role: "admin", secondFactor: false }),
  };
  return {
    actorKind,
    actor: await actors[actorKind](),
    poster: scene.poster,
    assigned: scene.assigned,
    get task(): TaskRow {
      return scene.task;
    },
    prepared: scene.prepared,
    label: `${routeLabel} as ${actorKind}`,
  };
}

// ---------------------------------------------------------------------------------------------
// Fixture helpers for routes that need more than a task.

async function uploadUrl(user: TestUser, kind: "id_document" | "profile_photo" | "task_photo" | "dispute_photo"): Promise<string> {
  const res = await must(call(t, user, { method: "POST", url: "/api/objects/upload", payload: { kind } }), 200);
  return parse<{ uploadURL: string }>(res).uploadURL;
}

/** An upload link with the file already sent, not yet attached as a document or photo. */
async function uploadedUrl(user: TestUser, kind: "id_document" | "profile_photo" | "task_photo" | "dispute_photo"): Promise<string> {
  const url = await uploadUrl(user, kind);
  await must(call(t, user, { method: "PUT", url, payload: tinyPng(), headers: { "content-type": "image/png" } }), 200);
  return url;
}

/** A finished file of `kind`: its "/objects/<id>" path. */
async function uploadedFile(user: TestUser, kind: "id_document" | "profile_photo"): Promise<string> {
  const url = await uploadedUrl(user, kind);
  const res =
    kind === "id_document"
      ? await must(call(t, user, { method: "PUT", url: "/api/provider/set-id-document", payload: { idDocumentURL: url } }), 200)
      : await must(call(t, user, { method: "PUT", url: "/api/provider/set-profile-photo", payload: { profilePhotoURL: url } }), 200);
  return parse<{ objectPath: string }>(res).objectPath;
}

/** The poster's photo on the scene's task: its id. */
async function posterTaskPhoto(scene: Scene): Promise<void> {
  const url = await uploadedUrl(scene.poster, "task_photo");
  const res = await must(call(t, scene.poster, { method: "POST", url: `/api/tasks/${scene.task.id}/photos`, payload: { photoURL: url } }), 200);
  const [photo] = parse<{ photos: { id: string }[] }>(res).photos;
  if (!photo) throw new Error("no task photo");
  scene.prepared = photo.id;
}

/** The poster's answer in the task's dispute carries a photo: its id. */
async function posterDisputePhoto(scene: Scene): Promise<void> {
  const photoURLs = [await uploadedUrl(scene.poster, "dispute_photo")];
  await must(call(t, scene.poster, { method: "POST", url: `/api/tasks/${scene.task.id}/dispute/messages`, payload: { body: "A photo of it", photoURLs } }), 200);
  const answer = parse<{ dispute: { messages: { photos: { id: string }[] }[] } }>(await must(call(t, scene.poster, get(`/api/tasks/${scene.task.id}/dispute`)), 200));
  const photo = answer.dispute.messages.flatMap((m) => m.photos)[0];
  if (!photo) throw new Error("no dispute photo");
  scene.prepared = photo.id;
}

async function taskPhotoIds(taskId: string): Promise<string[]> {
  return parse<{ photos: { id: string }[] }>(await call(t, null, get(`/api/tasks/${taskId}`))).photos.map((p) => p.id);
}

async function posterIdDocument(scene: Scene): Promise<void> {
  scene.prepared = await uploadedFile(scene.poster, "id_document");
}

/** A signed-in user with a pending provider application, for the admin review routes. */
const pendingApplicant = () => createApplicant(t, { profile: { bio: "Reliable" } });

/** Hashed once: scrypt per actor would make the password routes' rows slow. */
const MATRIX_PASSWORD = "matrix-password-123";
const matrixPasswordHash = hashPassword(MATRIX_PASSWORD);

async function givePassword(user: TestUser): Promise<void> {
  await t.database.db.update(users).set({ passwordHash: await matrixPasswordHash }).where(eq(users.id, user.id));
}

/** A second session of the poster's (another browser): its id in scene.prepared. */
async function posterSecondSession(scene: Scene): Promise<void> {
  await createSession(t.database.db, scene.poster.id, { idleDays: 7, absoluteDays: 30 }, t.clock.now());
  const current = hashToken(scene.poster.cookie.slice(scene.poster.cookie.indexOf("=") + 1));
  const [other] = await t.database.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.userId, scene.poster.id), ne(sessions.tokenHash, current)));
  if (!other) throw new Error("the poster's second session was not made");
  scene.prepared = other.id;
}

/** A passkey of the poster's (stored as a registration leaves it): its id in scene.prepared. */
async function posterPasskey(scene: Scene): Promise<void> {
  const [key] = await t.database.db
    .insert(passkeys)
    .values({ userId: scene.poster.id, credentialId: randomUUID(), publicKey: "AQID", name: "Phone" })
    .returning({ id: passkeys.id });
  if (!key) throw new Error("the poster's passkey was not made");
  scene.prepared = key.id;
}

/** The scene's approved provider asks for a new photo: its path in scene.prepared, waiting for an admin. */
async function pendingPhotoOfProvider(scene: Scene): Promise<void> {
  scene.prepared = await uploadedFile(scene.assigned, "profile_photo");
  await must(call(t, scene.assigned, { method: "PUT", url: "/api/account/photo", payload: { photoURL: scene.prepared } }), 200);
}

async function firstName(userId: string): Promise<string | undefined> {
  const [row] = await t.database.db.select({ firstName: users.firstName }).from(users).where(eq(users.id, userId));
  return row?.firstName;
}
async function shownPhoto(userId: string): Promise<string | null | undefined> {
  const [row] = await t.database.db.select({ url: users.profileImageUrl }).from(users).where(eq(users.id, userId));
  return row?.url;
}
async function pendingPhoto(userId: string): Promise<string | null | undefined> {
  const [row] = await t.database.db.select({ url: users.pendingProfileImageUrl }).from(users).where(eq(users.id, userId));
  return row?.url;
}

async function insertClearCheck(userId: string): Promise<void> {
  await t.database.db.insert(backgroundChecks).values({ userId, adapter: "manual", checkedWhat: "County records", result: "clear", completedAt: t.clock.now(), createdAt: t.clock.now() });
}

async function backgroundCheckCount(userId: string): Promise<number> {
  return (await t.database.db.select({ id: backgroundChecks.id }).from(backgroundChecks).where(eq(backgroundChecks.userId, userId))).length;
}

async function applicationStatus(userId: string): Promise<string | undefined> {
  const [row] = await t.database.db.select({ status: providerProfiles.verificationStatus }).from(providerProfiles).where(eq(providerProfiles.userId, userId));
  return row?.status;
}

async function postMessage(from: TestUser, taskId: string, content: string): Promise<string> {
  const res = await must(call(t, from, { method: "POST", url: "/api/messages", payload: { taskId, content } }), 201);
  return parse<{ id: string }>(res).id;
}

async function posterReview(scene: Scene): Promise<void> {
  await must(
    call(t, scene.poster, { method: "POST", url: "/api/reviews", payload: { taskId: scene.task.id, reviewedId: scene.assigned.id, rating: 4, comment: "Kind" } }),
    201,
  );
}

async function reviewOf(scene: Scene): Promise<string> {
  const [row] = await t.database.db.select({ id: reviews.id }).from(reviews).where(eq(reviews.taskId, scene.task.id));
  if (!row) throw new Error("the poster's review was not stored");
  return row.id;
}

async function reviewHidden(id: string): Promise<boolean> {
  const [row] = await t.database.db.select({ hiddenAt: reviews.hiddenAt }).from(reviews).where(eq(reviews.id, id));
  return row?.hiddenAt != null;
}

async function suspended(userId: string): Promise<boolean> {
  const [row] = await t.database.db.select({ suspendedAt: users.suspendedAt }).from(users).where(eq(users.id, userId));
  return row?.suspendedAt != null;
}

async function posterNotificationId(w: World): Promise<string> {
  const [row] = await t.database.db.select({ id: notifications.id }).from(notifications).where(eq(notifications.userId, w.poster.id));
  if (!row) throw new Error("the claim left the poster no notification");
  return row.id;
}

async function holdStatus(taskId: string): Promise<string | undefined> {
  const [hold] = await t.database.db.select({ status: escrowHolds.status }).from(escrowHolds).where(eq(escrowHolds.taskId, taskId));
  return hold?.status;
}

/** The ledger transaction of the task's payment: the id of the poster's payment receipt. */
async function captureOf(taskId: string): Promise<string> {
  const [row] = await t.database.db
    .select({ id: ledgerTransactions.id })
    .from(ledgerTransactions)
    .where(and(eq(ledgerTransactions.taskId, taskId), eq(ledgerTransactions.kind, "capture")));
  if (!row) throw new Error("the payment left no capture in the ledger");
  return row.id;
}

/** The poster approves the release at once, so the provider has earnings this year. */
async function releaseEarly(scene: Scene): Promise<void> {
  await must(call(t, scene.poster, post(`/api/tasks/${scene.task.id}/approve-release`)), 200);
}

const isParty = (w: World) => w.actorKind === "poster" || w.actorKind === "assignedProvider";
const isInsider = (w: World) => isParty(w) || w.actorKind === "admin";

/** An open task of the scene's poster that takes offers, with the scene's provider's offer on it (scene.prepared: "taskId offerId"). */
async function offeredTask(scene: Scene): Promise<void> {
  const task = await postOffersTask(t, scene.poster);
  scene.prepared = `${task.id} ${await makeOffer(t, scene.assigned, task.id)}`;
}

/** A task the poster requested from the scene's provider (docs/product.md, Requesting a provider), waiting for the answer. */
async function requestedTask(scene: Scene): Promise<void> {
  scene.prepared = (await postRequestTask(t, scene.poster, scene.assigned)).id;
}

/** The requested provider's answer; a refused caller leaves the request waiting. */
function requestAnswer(path: "accept-request" | "decline-request"): Scenario {
  return {
    prepare: requestedTask,
    request: (w) => ({ method: "PATCH", url: `/api/tasks/${w.prepared}/${path}`, ...(path === "decline-request" ? { payload: { reason: "Away that week" } } : {}) }),
    check: async (w, res) => {
      if (res.statusCode < 300) return;
      expect((await taskRow(w.prepared)).status, w.label).toBe("requested");
    },
  };
}

/** An instant `days` ahead of the test clock, as the forms send it. */
const daysAhead = (days: number) => new Date(t.clock.now().getTime() + days * 86_400_000).toISOString();

/** A task of the scene's poster dated two days ahead, claimed by the scene's provider (scene.prepared: its id). */
async function datedClaim(scene: Scene): Promise<void> {
  const { task } = await factoryTaskAt(t, "claimed", { poster: scene.poster, provider: scene.assigned, body: { scheduledDate: daysAhead(2) } });
  scene.prepared = task.id;
}

/** The poster proposed a new time for the scene's claimed task; the provider answers. A refused caller leaves it waiting. */
function timeAnswer(path: "accept-time" | "decline-time"): Scenario {
  return {
    stage: "claimed",
    prepare: async (scene) => {
      await must(call(t, scene.poster, post(`/api/tasks/${scene.task.id}/propose-time`, { startsAt: daysAhead(3) })), 200);
    },
    request: (w) => ({ method: "PATCH", url: `/api/tasks/${w.task.id}/${path}` }),
    check: async (w, res) => expect((await taskRow(w.task.id)).proposedStartAt === null, w.label).toBe(res.statusCode === 200),
  };
}

/** A paid task whose start was an hour ago and whose provider has not started (scene.prepared: its id). */
async function lateProvider(scene: Scene): Promise<void> {
  const { task } = await factoryTaskAt(t, "paid", { poster: scene.poster, provider: scene.assigned, budgetCents: BUDGET_CENTS, body: { scheduledDate: daysAhead(1) } });
  // Its start passes: written by hand, as the clock is shared by every row of this file.
  await t.database.db.update(tasks).set({ scheduledDate: new Date(t.clock.now().getTime() - 3_600_000) }).where(eq(tasks.id, task.id));
  scene.prepared = task.id;
}

function offered(w: World): { taskId: string; offerId: string } {
  const [taskId = "", offerId = ""] = w.prepared.split(" ");
  return { taskId, offerId };
}

async function offerStatus(taskId: string, providerId: string): Promise<string | undefined> {
  const [row] = await t.database.db
    .select({ status: taskOffers.status })
    .from(taskOffers)
    .where(and(eq(taskOffers.taskId, taskId), eq(taskOffers.providerId, providerId)));
  return row?.status;
}

/** The scene's provider's question on the scene's open task (scene.prepared: its id). */
async function askedQuestion(scene: Scene): Promise<void> {
  scene.prepared = await askQuestion(t, scene.assigned, scene.task.id);
}

function questionsOf(taskId: string) {
  return t.database.db.select().from(taskQuestions).where(eq(taskQuestions.taskId, taskId));
}

// ---------------------------------------------------------------------------------------------
// Sockets: the upgrade and the frames.

/** Opens /ws as `user` with the suites' one socket helper: the socket, or the HTTP status the upgrade was refused with. */
function openSocket(user: TestUser | null): Promise<TestSocket | { refused: number }> {
  const headers: Record<string, string> = { origin: TEST_ORIGIN };
  if (user) headers.cookie = user.cookie;
  return openTestSocket(`${wsUrl}/ws`, headers);
}

// ---------------------------------------------------------------------------------------------
// One scenario per row of HTTP_MATRIX: what the request needs and what must hold of the answer.

interface Scenario {
  /** Where the world's task stands when the request is sent; no task without a stage. */
  stage?: Stage;
  /** A read that changes nothing: one scene serves all six actors, which keeps the suite fast. */
  readOnly?: boolean;
  /** Setup beyond the stage, once per scene (messages, reviews, files). */
  prepare?(scene: Scene): Promise<void>;
  /** A valid request, after whatever setup it needs. */
  request?(w: World): Promise<InjectOptions> | InjectOptions;
  /** For what inject cannot play (the socket upgrade). */
  send?(w: World): Promise<Answer>;
  /** Besides the status: nothing leaked, nothing changed by a refused caller. */
  check?(w: World, res: Answer): Promise<void> | void;
  /** Routes that hash passwords (scrypt per actor) get more than the default time. */
  slow?: boolean;
}

const get = (url: string): InjectOptions => ({ method: "GET", url });
const post = (url: string, payload?: object): InjectOptions => ({ method: "POST", url, ...(payload ? { payload } : {}) });

/** A "my tasks" list: the caller's own tasks only, the scene's task exactly when the caller is `owner`. */
function ownTasks(url: string, field: "userId" | "providerId", owner: Actor): Scenario {
  return {
    readOnly: true,
    stage: "claimed",
    request: () => get(url),
    check: (w, res) => {
      if (!w.actor) return;
      const list = parse<({ id: string } & Record<typeof field, string | null>)[]>(res);
      expect(list.filter((task) => task[field] !== w.actor?.id), w.label).toEqual([]);
      expect(list.some((task) => task.id === w.task.id), w.label).toBe(w.actorKind === owner);
    },
  };
}

/** A person's lifecycle transition from `stage`; a refused one leaves the task where it was. */
function taskTransition(name: "claim" | "start" | "complete" | "cancel" | "reactivate" | "decline-provider" | "withdraw" | "release-claim", stage: Stage): Scenario {
  return {
    stage,
    request: (w) => ({ method: "PATCH", url: `/api/tasks/${w.task.id}/${name}` }),
    check: async (w, res) => {
      if (res.statusCode < 300) return;
      expect((await taskRow(w.task.id)).status, w.label).toBe(STAGE_STATUS[stage]);
    },
  };
}

/** An admin decision on a fresh pending application; a refused caller leaves it pending. */
function applicationDecision(decision: "approve" | "reject" | "review", payload: object | undefined, decided: string): Scenario {
  return {
    request: async (w) => {
      w.subject = await pendingApplicant();
      // Approval needs a clear background check (docs/decisions/064-background-checks.md).
      if (decision === "approve") await insertClearCheck(w.subject.id);
      return post(`/api/admin/applications/${w.subject.id}/${decision}`, payload);
    },
    check: async (w) => {
      const applicant = w.subject;
      if (!applicant) throw new Error(`${w.label}: no applicant`);
      expect(await applicationStatus(applicant.id), w.label).toBe(w.actorKind === "admin" ? decided : "pending");
    },
  };
}

/** Payout onboarding after the account exists: providers create theirs first, as the page does. */
function payoutOnboarding(url: string): Scenario {
  return {
    request: async (w) => {
      if (w.actor && (w.actorKind === "assignedProvider" || w.actorKind === "otherProvider")) {
        await must(call(t, w.actor, { method: "POST", url: "/api/stripe/connect/account" }), 201);
      }
      return post(url);
    },
  };
}

const SCENARIOS: Record<RouteKey, Scenario> = {
  "GET /api/health": { readOnly: true, request: () => get("/api/health") },
  "GET /api/health/ready": { readOnly: true, request: () => get("/api/health/ready") },
  "GET /metrics": { readOnly: true, request: () => get("/metrics") },
  "GET /robots.txt": { readOnly: true, request: () => get("/robots.txt") },
  // The open task's page address, and nothing of the task itself (its street least of all).
  "GET /sitemap.xml": {
    readOnly: true,
    stage: "open",
    request: () => get("/sitemap.xml"),
    check: (w, res) => {
      expect(res.body, w.label).toContain(`/task/${w.task.id}</loc>`);
      expect(res.body, w.label).not.toContain(STREET);
    },
  },
  "GET /api/auth/config": { readOnly: true, request: () => get("/api/auth/config") },
  "POST /api/auth/register": {
    request: () => post("/api/auth/register", { email: `new-${randomUUID()}@example.test`, password: "a-long-password", firstName: "New", lastName: "Person" }),
  },
  // A new address each time: the per-address limit (5 in 15 minutes) would otherwise answer the sixth actor.
  "POST /api/auth/forgot-password": { request: () => post("/api/auth/forgot-password", { email: `forgot-${randomUUID()}@example.test` }) },
  // Reads the link and uses nothing, so each actor may ask about one token.
  "POST /api/auth/reset-password/check": {
    request: async () => {
      const owner = await createUser(t);
      const token = await issueToken(t.database.db, { userId: owner.id, purpose: "password_reset", now: t.clock.now() });
      return post("/api/auth/reset-password/check", { token });
    },
  },
  "POST /api/auth/reset-password": {
    request: async () => {
      const owner = await createUser(t);
      const token = await issueToken(t.database.db, { userId: owner.id, purpose: "password_reset", now: t.clock.now() });
      return post("/api/auth/reset-password", { token, password: "a-new-long-password" });
    },
  },
  "POST /api/auth/verify-email": {
    request: async () => {
      const owner = await createUser(t, { emailVerified: false });
      const token = await issueToken(t.database.db, { userId: owner.id, purpose: "email_verify", now: t.clock.now() });
      // Opened outside the browser that signed up, the link asks its follower for a password
      // (decisions 044 and 067): whoever holds it sets one and is signed in.
      return post("/api/auth/verify-email", { token, password: "a-new-long-password" });
    },
  },
  // Every actor is verified already: the answer says so and sends nothing.
  "POST /api/auth/resend-verification": { request: () => post("/api/auth/resend-verification") },
  // The actors have no password (single sign-on style accounts), so none is asked for.
  "POST /api/auth/change-email": { request: () => post("/api/auth/change-email", { newEmail: `moved-${randomUUID()}@example.test` }) },
  "POST /api/auth/login": { request: () => post("/api/auth/login", LOGIN) },
  "GET /api/auth/login": { readOnly: true, request: () => get("/api/auth/login?returnTo=/dashboard") },
  "POST /api/auth/second-factor": { request: () => post("/api/auth/second-factor", { code: "123456" }) },
  "POST /api/auth/passkey/options": { request: () => post("/api/auth/passkey/options") },
  "POST /api/auth/passkey": { request: () => post("/api/auth/passkey", { response: { id: "x" } }) },
  "POST /api/auth/step-up": {
    slow: true,
    request: async (w) => {
      if (w.actor) await givePassword(w.actor);
      return post("/api/auth/step-up", { password: MATRIX_PASSWORD });
    },
  },
  "POST /api/auth/step-up/passkey/options": { readOnly: true, prepare: posterPasskey, request: () => post("/api/auth/step-up/passkey/options") },
  "POST /api/auth/step-up/passkey": { request: () => post("/api/auth/step-up/passkey", { response: { id: "x" } }) },
  "GET /api/account/security": { readOnly: true, request: () => get("/api/account/security") },
  "GET /api/account/security/events": {
    readOnly: true,
    request: () => get("/api/account/security/events"),
    check: async (w, res) => {
      if (!w.actor) return;
      // One's own log only.
      const ids = parse<{ id: string }[]>(res).map((e) => e.id);
      const owners = ids.length === 0 ? [] : await t.database.db.select({ userId: securityEvents.userId }).from(securityEvents).where(inArray(securityEvents.id, ids));
      expect(owners.filter((o) => o.userId !== w.actor?.id), w.label).toEqual([]);
    },
  },
  "POST /api/account/security/totp": { request: () => post("/api/account/security/totp") },
  "POST /api/account/security/totp/confirm": {
    request: async (w) => {
      const started = w.actor ? await call(t, w.actor, post("/api/account/security/totp")) : null;
      const secret = started?.statusCode === 200 ? started.json<{ secret: string }>().secret : "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
      return post("/api/account/security/totp/confirm", { code: generateSync({ secret, epoch: Math.floor(t.clock.now().getTime() / 1000) }) });
    },
  },
  "DELETE /api/account/security/totp": { request: () => ({ method: "DELETE", url: "/api/account/security/totp" }) },
  "POST /api/account/security/recovery-codes": { request: () => post("/api/account/security/recovery-codes") },
  "POST /api/account/security/passkeys/options": { request: () => post("/api/account/security/passkeys/options") },
  "POST /api/account/security/passkeys": { request: () => post("/api/account/security/passkeys", { name: "Laptop", response: { id: "x" } }) },
  "PATCH /api/account/security/passkeys/:id": {
    prepare: posterPasskey,
    request: (w) => ({ method: "PATCH", url: `/api/account/security/passkeys/${w.prepared}`, payload: { name: "Renamed" } }),
  },
  "DELETE /api/account/security/passkeys/:id": {
    prepare: posterPasskey,
    request: (w) => ({ method: "DELETE", url: `/api/account/security/passkeys/${w.prepared}` }),
    check: async (w) => {
      const [row] = await t.database.db.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.id, w.prepared));
      expect(row === undefined, w.label).toBe(w.actorKind === "poster");
    },
  },
  "POST /api/admin/users/:id/second-factors/reset": {
    prepare: posterPasskey,
    request: (w) => post(`/api/admin/users/${w.poster.id}/second-factors/reset`),
    check: async (w) => {
      const [row] = await t.database.db.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.id, w.prepared));
      expect(row === undefined, w.label).toBe(w.actorKind === "admin");
    },
  },
  "GET /api/admin/users/:id/security-events": { readOnly: true, request: (w) => get(`/api/admin/users/${w.poster.id}/security-events`) },
  "POST /api/auth/logout": { request: () => post("/api/auth/logout") },
  "GET /api/auth/user": {
    readOnly: true,
    request: () => get("/api/auth/user"),
    // Each person is told who they are; a visitor that nobody is signed in.
    check: (w, res) => expect(parse<{ id: string } | null>(res)?.id ?? null, w.label).toBe(w.actor?.id ?? null),
  },
  "GET /api/login": { readOnly: true, request: () => get("/api/login?returnTo=/dashboard") },
  "GET /api/logout": { request: () => get("/api/logout") },
  "GET /api/auth/oidc/start": {
    readOnly: true,
    request: () => get("/api/auth/oidc/start?returnTo=/dashboard"),
    check: (w, res) => expect(String(res.headers.location), w.label).toMatch(new RegExp(`^${oidc.issuer}`)),
  },
  "GET /api/auth/oidc/callback": {
    readOnly: true,
    // No flow cookie: nobody, signed in or not, completes a sign-in they did not start here.
    request: () => get("/api/auth/oidc/callback?code=stolen&state=guess"),
    check: (w, res) => expect(res.headers.location, w.label).toBe("/sign-in?error=oidc"),
  },

  "POST /api/contact": {
    request: () => post("/api/contact", { name: "Sam", email: "sam@example.test", subject: "Hello", message: "A question about fees" }),
  },
  "POST /api/appointments": {
    request: () =>
      post("/api/appointments", {
        name: "Sam Visitor",
        email: "sam@example.test",
        phone: "410 555 0100",
        reason: "I would like help setting up my account",
        preferContact: "call",
        // 15:00 UTC: 11 AM at the office, within opening hours.
        appointmentDate: new Date(t.clock.now().getTime() + 3 * 86_400_000 + 3 * 3_600_000).toISOString(),
      }),
  },
  "GET /api/admin/contact-messages": { readOnly: true, request: () => get("/api/admin/contact-messages") },
  "GET /api/admin/appointments": { readOnly: true, request: () => get("/api/admin/appointments") },

  "POST /api/tasks": {
    request: () =>
      post("/api/tasks", {
        title: "Pick up groceries",
        description: "From the store on Main St",
        category: "errands",
        budget: 40,
        location: "9 Elm St",
        city: "Annapolis",
        state: "MD",
      }),
  },
  "GET /api/tasks/open": {
    readOnly: true,
    stage: "open",
    request: () => get("/api/tasks/open?pageSize=50"),
    check: (w, res) => {
      expect(parse<unknown[]>(res).length, w.label).toBeGreaterThan(0);
      expect(res.body, w.label).not.toContain(STREET);
    },
  },
  "GET /api/tasks/open/radius-counts": {
    readOnly: true,
    stage: "open",
    // The job board's filters (docs/product.md#job-board-filters): counts only, the same for everyone.
    request: () => get("/api/tasks/open/radius-counts?near=21401&radiusMiles=10&minBudget=0&when=flexible"),
    check: (w, res) => {
      expect(parse<{ counts: { radiusMiles: number }[] }>(res).counts.map((c) => c.radiusMiles), w.label).toEqual([5, 10, 25, 50]);
      expect(res.body, w.label).not.toContain(STREET);
    },
  },
  "GET /api/map/config": { readOnly: true, request: () => get("/api/map/config") },
  "GET /api/tasks/my-tasks": ownTasks("/api/tasks/my-tasks", "userId", "poster"),
  "GET /api/tasks/my-jobs": ownTasks("/api/tasks/my-jobs", "providerId", "assignedProvider"),
  "GET /api/tasks/declined": {
    readOnly: true,
    stage: "claimed",
    prepare: async (scene) => {
      await call(t, scene.poster, { method: "PATCH", url: `/api/tasks/${scene.task.id}/decline-provider` });
    },
    request: () => get("/api/tasks/declined"),
    // Only the declined provider learns that they were declined.
    check: (w, res) => {
      if (!w.actor) return;
      expect(parse<{ taskIds: string[] }>(res).taskIds.includes(w.task.id), w.label).toBe(w.actorKind === "assignedProvider");
    },
  },
  "GET /api/tasks/:id": {
    readOnly: true,
    stage: "claimed",
    request: (w) => get(`/api/tasks/${w.task.id}`),
    check: (w, res) => {
      const detail = parse<{ visibility: string; location?: string; provider: { id: string; lastName?: string } | null }>(res);
      // Who claimed is a card everyone sees (decisions 023 and 024); the full name only for insiders.
      expect(detail.provider?.id ?? null, w.label).toBe(w.task.providerId);
      expect(detail.provider?.lastName !== undefined, w.label).toBe(isInsider(w));
      if (isInsider(w)) {
        expect(detail, w.label).toMatchObject({ visibility: "private", location: STREET });
      } else {
        expect(detail.visibility, w.label).toBe("public");
        expect(res.body, w.label).not.toContain(STREET);
      }
    },
  },
  "PATCH /api/tasks/:id/claim": taskTransition("claim", "open"),
  "PATCH /api/tasks/:id/start": taskTransition("start", "paid"),
  "PATCH /api/tasks/:id/complete": taskTransition("complete", "in_progress"),
  "PATCH /api/tasks/:id/cancel": taskTransition("cancel", "paid"),
  "PATCH /api/tasks/:id/reactivate": taskTransition("reactivate", "expired"),
  "PATCH /api/tasks/:id/decline-provider": taskTransition("decline-provider", "claimed"),
  "PATCH /api/tasks/:id": {
    stage: "open",
    request: (w) => ({
      method: "PATCH",
      url: `/api/tasks/${w.task.id}`,
      payload: { title: "An edited title", description: "An edited description", budget: 60, scheduledDate: null, location: "12 Main St", city: "Annapolis", state: "MD" },
    }),
    // A refused caller leaves the task as it was.
    check: async (w, res) => expect((await taskRow(w.task.id)).title === "An edited title", w.label).toBe(res.statusCode === 200),
  },
  "PATCH /api/tasks/:id/withdraw": taskTransition("withdraw", "paid"),
  "PATCH /api/tasks/:id/release-claim": taskTransition("release-claim", "claimed"),
  "POST /api/tasks/:id/photos": {
    stage: "open",
    request: async (w) => ({
      method: "POST",
      url: `/api/tasks/${w.task.id}/photos`,
      // Each signed-in actor offers a finished task photo of their own.
      payload: { photoURL: w.actor ? await uploadedUrl(w.actor, "task_photo") : `/api/objects/put/${"x".repeat(43)}` },
    }),
    check: async (w, res) => expect((await taskPhotoIds(w.task.id)).length, w.label).toBe(res.statusCode === 200 ? 1 : 0),
  },
  "DELETE /api/tasks/:id/photos/:photoId": {
    stage: "open",
    prepare: posterTaskPhoto,
    request: (w) => ({ method: "DELETE", url: `/api/tasks/${w.task.id}/photos/${w.prepared}` }),
    check: async (w, res) => expect(await taskPhotoIds(w.task.id), w.label).toEqual(res.statusCode === 200 ? [] : [w.prepared]),
  },
  "GET /api/task-photos/:photoId/:size": {
    readOnly: true,
    stage: "open",
    prepare: posterTaskPhoto,
    request: (w) => get(`/api/task-photos/${w.prepared}/small`),
    check: (w, res) => expect(res.headers["content-type"], w.label).toBe("image/webp"),
  },
  "GET /api/tasks/:id/offers": {
    readOnly: true,
    prepare: offeredTask,
    request: (w) => get(`/api/tasks/${offered(w).taskId}/offers`),
    // The poster reads every offer; anyone else only their own.
    check: (w, res) => {
      if (!w.actor) return;
      const providers = parse<{ offers: { provider: { id: string } }[] }>(res).offers.map((o) => o.provider.id);
      expect(providers, w.label).toEqual(w.actorKind === "poster" || w.actorKind === "assignedProvider" ? [w.assigned.id] : []);
    },
  },
  "PUT /api/tasks/:id/offer": {
    prepare: offeredTask,
    request: (w) => ({ method: "PUT", url: `/api/tasks/${offered(w).taskId}/offer`, payload: { ...BASE_OFFER, price: 33 } }),
    check: async (w, res) => {
      const mine = w.actor ? await offerStatus(offered(w).taskId, w.actor.id) : undefined;
      expect(mine, w.label).toBe(res.statusCode === 200 || w.actorKind === "assignedProvider" ? "open" : undefined);
    },
  },
  "DELETE /api/tasks/:id/offer": {
    prepare: offeredTask,
    request: async (w) => {
      // Another provider withdraws an offer of their own.
      if (w.actorKind === "otherProvider" && w.actor) await makeOffer(t, w.actor, offered(w).taskId);
      return { method: "DELETE", url: `/api/tasks/${offered(w).taskId}/offer` };
    },
    check: async (w) => expect(await offerStatus(offered(w).taskId, w.assigned.id), w.label).toBe(w.actorKind === "assignedProvider" ? "withdrawn" : "open"),
  },
  "PATCH /api/tasks/:id/accept-request": requestAnswer("accept-request"),
  "PATCH /api/tasks/:id/decline-request": requestAnswer("decline-request"),
  "POST /api/tasks/:id/offers/:offerId/accept": {
    prepare: offeredTask,
    request: (w) => post(`/api/tasks/${offered(w).taskId}/offers/${offered(w).offerId}/accept`, { price: BASE_OFFER.price }),
    check: async (w, res) => {
      if (res.statusCode < 300) return;
      expect((await taskRow(offered(w).taskId)).status, w.label).toBe("open");
    },
  },
  "GET /api/tasks/:id/questions": {
    stage: "open",
    readOnly: true,
    prepare: askedQuestion,
    request: (w) => get(`/api/tasks/${w.task.id}/questions`),
    check: (w, res) => expect(parse<{ questions: { id: string }[] }>(res).questions.map((q) => q.id), w.label).toEqual([w.prepared]),
  },
  "POST /api/tasks/:id/questions": {
    stage: "open",
    request: (w) => post(`/api/tasks/${w.task.id}/questions`, { body: "Is there parking near the door?" }),
    check: async (w, res) => expect((await questionsOf(w.task.id)).length, w.label).toBe(res.statusCode === 201 ? 1 : 0),
  },
  "POST /api/tasks/:id/questions/:questionId/answer": {
    stage: "open",
    prepare: askedQuestion,
    request: (w) => post(`/api/tasks/${w.task.id}/questions/${w.prepared}/answer`, { answer: "Yes, by the door." }),
    check: async (w, res) => expect((await questionsOf(w.task.id))[0]?.answer ?? null, w.label).toBe(res.statusCode === 200 ? "Yes, by the door." : null),
  },
  "POST /api/tasks/:id/questions/:questionId/hide": {
    stage: "open",
    prepare: askedQuestion,
    request: (w) => post(`/api/tasks/${w.task.id}/questions/${w.prepared}/hide`),
    check: async (w, res) => expect((await questionsOf(w.task.id))[0]?.hiddenAt !== null, w.label).toBe(res.statusCode === 200),
  },
  "POST /api/tasks/:id/questions/:questionId/unhide": {
    stage: "open",
    prepare: async (scene) => {
      await askedQuestion(scene);
      expect((await call(t, scene.poster, post(`/api/tasks/${scene.task.id}/questions/${scene.prepared}/hide`))).statusCode).toBe(200);
    },
    request: (w) => post(`/api/tasks/${w.task.id}/questions/${w.prepared}/unhide`),
    check: async (w, res) => expect((await questionsOf(w.task.id))[0]?.hiddenAt === null, w.label).toBe(res.statusCode === 200),
  },
  "GET /api/geocode": { readOnly: true, request: () => get("/api/geocode?q=Annapolis") },

  "POST /api/provider/apply": {
    request: async (w) => ({
      method: "POST",
      url: "/api/provider/apply",
      payload: {
        fullName: "Pat Applicant",
        email: "pat@example.test",
        phone: "(410) 555-0199",
        address: "12 Harbor Rd",
        city: "Annapolis",
        state: "MD",
        zipCode: "21401",
        serviceTypes: ["errands"],
        idDocumentUrl: w.actor ? await uploadedFile(w.actor, "id_document") : `/objects/${randomUUID()}`,
        profilePhotoUrl: w.actor ? await uploadedFile(w.actor, "profile_photo") : `/objects/${randomUUID()}`,
        availability: { monday: true },
        bio: "Reliable and friendly.",
        agreeTerms: true,
      },
    }),
  },
  "GET /api/provider/profile": {
    readOnly: true,
    request: () => get("/api/provider/profile"),
    check: (w, res) => {
      // Someone who never applied gets null; a provider gets their own profile and no one else's.
      const profile = parse<{ userId: string } | null>(res);
      if (res.statusCode === 200 && profile !== null) expect(profile.userId, w.label).toBe(w.actor?.id);
    },
  },
  "PATCH /api/provider/profile": {
    request: () => ({ method: "PATCH", url: "/api/provider/profile", payload: { bio: "Now with a van" } }),
    check: (w, res) => {
      if (res.statusCode === 200) expect(parse<{ userId: string }>(res).userId, w.label).toBe(w.actor?.id);
    },
  },

  "GET /api/alerts": {
    readOnly: true,
    request: () => get("/api/alerts"),
    check: (w, res) => {
      if (res.statusCode === 200) expect(parse<{ alerts: unknown[] }>(res).alerts, w.label).toEqual([]);
    },
  },
  "PUT /api/alerts": {
    request: () => ({ method: "PUT", url: "/api/alerts", payload: { alerts: [{ categories: ["pet"], near: "21401", radiusMiles: 10, minBudget: null }] } }),
    check: async (w, res) => {
      if (!w.actor) return;
      const saved = await t.database.db.select({ id: jobAlerts.id }).from(jobAlerts).where(eq(jobAlerts.userId, w.actor.id));
      expect(saved.length, w.label).toBe(res.statusCode === 200 ? 1 : 0);
    },
  },

  "GET /api/calendar": { readOnly: true, request: () => get("/api/calendar") },
  "PUT /api/calendar": {
    request: () => ({ method: "PUT", url: "/api/calendar", payload: { timeZone: "America/New_York", weeklyHours: { monday: [{ from: "09:00", to: "17:00" }] } } }),
    check: async (w, res) => {
      if (!w.actor) return;
      const saved = await t.database.db.select({ userId: providerCalendars.userId }).from(providerCalendars).where(eq(providerCalendars.userId, w.actor.id));
      expect(saved.length, w.label).toBe(res.statusCode === 200 ? 1 : 0);
    },
  },
  "GET /api/providers/:id/slots": { readOnly: true, request: (w) => get(`/api/providers/${w.assigned.id}/slots`) },
  "GET /api/calendar/upcoming": {
    readOnly: true,
    prepare: datedClaim,
    request: () => get("/api/calendar/upcoming"),
    // One's own dated tasks only: the scene's task exactly for its two people.
    check: (w, res) => {
      if (res.statusCode !== 200) return;
      expect(parse<{ items: { taskId: string }[] }>(res).items.some((item) => item.taskId === w.prepared), w.label).toBe(isParty(w));
    },
  },
  "GET /api/calendar/feed": { readOnly: true, request: () => get("/api/calendar/feed") },
  "POST /api/calendar/feed": {
    request: () => post("/api/calendar/feed"),
    check: async (w, res) => {
      if (!w.actor) return;
      expect((await t.database.db.select().from(calendarFeeds).where(eq(calendarFeeds.userId, w.actor.id))).length, w.label).toBe(res.statusCode === 201 ? 1 : 0);
    },
  },
  "DELETE /api/calendar/feed": { request: () => ({ method: "DELETE", url: "/api/calendar/feed" }) },
  "GET /api/calendar/feeds/:token/errandly.ics": {
    readOnly: true,
    prepare: async (scene) => {
      await datedClaim(scene);
      const made = await must(call(t, scene.poster, post("/api/calendar/feed")), 201);
      scene.prepared = `${scene.prepared} ${new URL(parse<{ url: string }>(made).url).pathname}`;
    },
    request: (w) => get(w.prepared.split(" ")[1] ?? ""),
    check: (w, res) => expect(res.body, w.label).toContain("BEGIN:VEVENT"),
  },
  "GET /api/tasks/:id/calendar.ics": {
    readOnly: true,
    prepare: datedClaim,
    request: (w) => get(`/api/tasks/${w.prepared}/calendar.ics`),
    check: (w, res) => expect(res.body.includes("BEGIN:VCALENDAR"), w.label).toBe(res.statusCode === 200),
  },
  "POST /api/tasks/:id/propose-time": {
    stage: "claimed",
    request: (w) => post(`/api/tasks/${w.task.id}/propose-time`, { startsAt: daysAhead(3) }),
    check: async (w, res) => expect((await taskRow(w.task.id)).proposedStartAt !== null, w.label).toBe(res.statusCode === 200),
  },
  "PATCH /api/tasks/:id/accept-time": timeAnswer("accept-time"),
  "PATCH /api/tasks/:id/decline-time": timeAnswer("decline-time"),
  "POST /api/tasks/:id/on-my-way": {
    stage: "paid",
    request: (w) => post(`/api/tasks/${w.task.id}/on-my-way`, {}),
    check: async (w, res) => expect((await taskRow(w.task.id)).onMyWayAt !== null, w.label).toBe(res.statusCode === 200),
  },
  "PATCH /api/tasks/:id/report-no-show": {
    prepare: lateProvider,
    request: (w) => ({ method: "PATCH", url: `/api/tasks/${w.prepared}/report-no-show` }),
    check: async (w, res) => expect((await taskRow(w.prepared)).status, w.label).toBe(res.statusCode === 200 ? "cancelled" : "claimed"),
  },

  "POST /api/objects/upload": { request: () => post("/api/objects/upload", { kind: "profile_photo" }) },
  "PUT /api/objects/put/:token": {
    request: async (w) => ({
      method: "PUT",
      url: await uploadUrl(w.poster, "id_document"),
      payload: tinyPng(),
      headers: { "content-type": "image/png" },
    }),
    check: async (w, res) => {
      if (w.actorKind === "poster") return;
      // Someone else's request must not spend the poster's link.
      const rows = await t.database.db.select({ usedAt: uploads.usedAt }).from(uploads).where(eq(uploads.ownerId, w.poster.id));
      expect(rows, w.label).toEqual([{ usedAt: null }]);
      expect(res.statusCode, w.label).not.toBe(200);
    },
  },
  "PUT /api/provider/set-id-document": {
    request: async (w) => ({ method: "PUT", url: "/api/provider/set-id-document", payload: { idDocumentURL: await uploadedUrl(w.poster, "id_document") } }),
  },
  "PUT /api/provider/set-profile-photo": {
    request: async (w) => ({
      method: "PUT",
      url: "/api/provider/set-profile-photo",
      payload: { profilePhotoURL: await uploadedUrl(w.poster, "profile_photo") },
    }),
  },
  "GET /objects/:id": { readOnly: true, prepare: posterIdDocument, request: (w) => get(w.prepared) },
  "GET /api/objects/:id": { readOnly: true, prepare: posterIdDocument, request: (w) => get(`/api${w.prepared}`) },

  "GET /api/admin/applications/pending": { readOnly: true, request: () => get("/api/admin/applications/pending") },
  "GET /api/admin/providers/active": { readOnly: true, request: () => get("/api/admin/providers/active") },
  "POST /api/admin/applications/:userId/approve": applicationDecision("approve", undefined, "approved"),
  "POST /api/admin/applications/:userId/reject": applicationDecision("reject", { reason: "The ID is unreadable" }, "rejected"),
  "POST /api/admin/applications/:userId/review": applicationDecision("review", undefined, "under_review"),
  "GET /api/admin/audit-log": { readOnly: true, request: () => get("/api/admin/audit-log") },
  "GET /api/admin/outbox": { readOnly: true, request: () => get("/api/admin/outbox") },
  "GET /api/providers": {
    readOnly: true,
    // With the place filter (docs/product.md#verification): createUser's providers are in ZIP 21401.
    request: () => get("/api/providers?near=21401&radiusMiles=5&sort=completed"),
    check: (w, res) => {
      // createUser's verified providers have this phone, street and ZIP code; the directory shows none.
      expect(parse<unknown[]>(res).length, w.label).toBeGreaterThan(0);
      // Whole words only: a ZIP code's five digits can turn up inside a random id's hex.
      for (const secret of ["4105550100", "1 Test St", "21401", w.assigned.email]) {
        expect(res.body, w.label).not.toMatch(new RegExp(`\\b${secret.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`));
      }
    },
  },

  "GET /api/messages/:taskId": {
    stage: "claimed",
    readOnly: true,
    prepare: async (scene) => {
      await postMessage(scene.poster, scene.task.id, "The gate code is 4321");
    },
    request: (w) => get(`/api/messages/${w.task.id}`),
    check: (w, res) => expect(res.body.includes("4321"), w.label).toBe(isInsider(w)),
  },
  "POST /api/messages": {
    stage: "claimed",
    request: (w) => post("/api/messages", { taskId: w.task.id, content: "On my way" }),
    check: async (w) => {
      const stored = await t.database.db.select().from(messages).where(eq(messages.taskId, w.task.id));
      expect(stored.length, w.label).toBe(isParty(w) ? 1 : 0);
    },
  },
  "PATCH /api/messages/:taskId/read": {
    stage: "claimed",
    request: async (w) => {
      const id = await postMessage(w.assigned, w.task.id, "Arriving in 5");
      return { method: "PATCH", url: `/api/messages/${w.task.id}/read`, payload: { ids: [id] } };
    },
    check: async (w) => {
      // Only the recipient's own messages can be marked read.
      const [message] = await t.database.db.select({ read: messages.read }).from(messages).where(eq(messages.taskId, w.task.id));
      expect(message?.read, w.label).toBe(w.actorKind === "poster");
    },
  },
  "GET /ws": {
    readOnly: true,
    send: async (w) => {
      const socket = await openSocket(w.actor);
      if ("refused" in socket) return { statusCode: socket.refused, body: "", headers: {} };
      socket.close();
      return { statusCode: 101, body: "", headers: {} };
    },
  },

  "GET /api/notifications": {
    readOnly: true,
    stage: "claimed",
    request: () => get("/api/notifications"),
    check: async (w, res) => {
      if (!w.actor) return;
      const ids = parse<{ notifications: { id: string }[] }>(res).notifications.map((n) => n.id);
      expect(ids.includes(await posterNotificationId(w)), w.label).toBe(w.actorKind === "poster");
    },
  },
  "POST /api/notifications/read": {
    stage: "claimed",
    request: async (w) => post("/api/notifications/read", { ids: [await posterNotificationId(w)] }),
    check: async (w) => {
      const [row] = await t.database.db.select({ read: notifications.read }).from(notifications).where(eq(notifications.userId, w.poster.id));
      expect(row?.read, w.label).toBe(w.actorKind === "poster");
    },
  },
  "GET /api/notifications/preferences": { readOnly: true, request: () => get("/api/notifications/preferences") },
  "PUT /api/notifications/preferences": {
    request: () => ({ method: "PUT", url: "/api/notifications/preferences", payload: { email: { chat_message: false } } }),
  },
  "GET /api/push/key": {
    readOnly: true,
    request: () => get("/api/push/key"),
    check: (w, res) => {
      if (res.statusCode === 200) expect(parse<{ publicKey: string | null }>(res).publicKey, w.label).toEqual(expect.any(String));
    },
  },
  "POST /api/push/subscriptions": {
    request: () => post("/api/push/subscriptions", { endpoint: `https://fcm.googleapis.com/fcm/send/${randomUUID()}`, keys: { p256dh: "BPushKey", auth: "authSecret" } }),
    check: async (w, res) => {
      if (!w.actor) return;
      const devices = await t.database.db.select({ id: pushSubscriptions.id }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, w.actor.id));
      expect(devices.length, w.label).toBe(res.statusCode === 200 ? 1 : 0);
    },
  },
  "DELETE /api/push/subscriptions": {
    request: () => ({ method: "DELETE", url: "/api/push/subscriptions", payload: { endpoint: "https://fcm.googleapis.com/fcm/send/none" } }),
  },

  "GET /api/account": {
    readOnly: true,
    request: () => get("/api/account"),
    check: (w, res) => {
      if (w.actor) expect(parse<{ email: string }>(res).email, w.label).toBe(w.actor.email);
    },
  },
  "PATCH /api/account/profile": {
    request: () => ({ method: "PATCH", url: "/api/account/profile", payload: { firstName: "Renamed", lastName: "Person" } }),
    check: async (w) => expect(await firstName(w.poster.id), w.label).toBe(w.actorKind === "poster" ? "Renamed" : "Kept"),
    prepare: async (scene) => {
      await t.database.db.update(users).set({ firstName: "Kept" }).where(eq(users.id, scene.poster.id));
    },
  },
  "PUT /api/account/photo": {
    request: async (w) => ({
      method: "PUT",
      url: "/api/account/photo",
      payload: { photoURL: w.actor ? await uploadedFile(w.actor, "profile_photo") : `/objects/${randomUUID()}` },
    }),
  },
  "DELETE /api/account/photo": { request: () => ({ method: "DELETE", url: "/api/account/photo" }) },
  "POST /api/account/password": {
    slow: true,
    request: async (w) => {
      if (w.actor) await givePassword(w.actor);
      return post("/api/account/password", { currentPassword: MATRIX_PASSWORD, newPassword: "matrix-password-456" });
    },
  },
  "GET /api/account/sessions": {
    readOnly: true,
    prepare: posterSecondSession,
    request: () => get("/api/account/sessions"),
    check: (w, res) => {
      if (!w.actor) return;
      const ids = parse<{ id: string }[]>(res).map((s) => s.id);
      expect(ids.includes(w.prepared), w.label).toBe(w.actorKind === "poster");
    },
  },
  "DELETE /api/account/sessions/:id": {
    prepare: posterSecondSession,
    request: (w) => ({ method: "DELETE", url: `/api/account/sessions/${w.prepared}` }),
    check: async (w) => {
      const [row] = await t.database.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.id, w.prepared));
      expect(row === undefined, w.label).toBe(w.actorKind === "poster");
    },
  },
  "POST /api/account/sessions/sign-out-others": {
    prepare: posterSecondSession,
    request: () => post("/api/account/sessions/sign-out-others"),
    check: async (w) => {
      const [row] = await t.database.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.id, w.prepared));
      expect(row === undefined, w.label).toBe(w.actorKind === "poster");
    },
  },
  "GET /api/account/export": {
    readOnly: true,
    stage: "completed",
    request: () => get("/api/account/export"),
    check: (w, res) => {
      if (!w.actor) return;
      // Each caller's own data only: the poster's e-mail is in nobody else's export.
      expect(res.body.includes(w.poster.email), w.label).toBe(w.actorKind === "poster");
    },
  },
  "DELETE /api/account": {
    slow: true,
    request: async (w) => {
      if (w.actor) await givePassword(w.actor);
      return { method: "DELETE", url: "/api/account", payload: { password: MATRIX_PASSWORD } };
    },
    check: async (w) => {
      const [row] = await t.database.db.select({ deletedAt: users.deletedAt }).from(users).where(eq(users.id, w.poster.id));
      expect(row?.deletedAt != null, w.label).toBe(w.actorKind === "poster");
    },
  },
  "GET /api/admin/photo-changes": { readOnly: true, prepare: pendingPhotoOfProvider, request: () => get("/api/admin/photo-changes") },
  "POST /api/admin/photo-changes/:userId/approve": {
    prepare: pendingPhotoOfProvider,
    request: (w) => post(`/api/admin/photo-changes/${w.assigned.id}/approve`),
    check: async (w) => expect(await shownPhoto(w.assigned.id), w.label).toBe(w.actorKind === "admin" ? w.prepared : null),
  },
  "POST /api/admin/photo-changes/:userId/reject": {
    prepare: pendingPhotoOfProvider,
    request: (w) => post(`/api/admin/photo-changes/${w.assigned.id}/reject`, { reason: "Not a photo of a face" }),
    check: async (w) => expect(await pendingPhoto(w.assigned.id), w.label).toBe(w.actorKind === "admin" ? null : w.prepared),
  },

  "POST /api/reviews": {
    stage: "completed",
    request: (w) =>
      post("/api/reviews", {
        taskId: w.task.id,
        // Outsiders pose as the customer reviewing the provider.
        reviewedId: w.actorKind === "assignedProvider" ? w.poster.id : w.assigned.id,
        rating: 5,
        comment: "Great",
      }),
    check: async (w) => {
      const stored = await t.database.db.select().from(reviews).where(eq(reviews.taskId, w.task.id));
      expect(stored.length, w.label).toBe(isParty(w) ? 1 : 0);
    },
  },
  "GET /api/reviews/task/:taskId": {
    stage: "completed",
    readOnly: true,
    prepare: posterReview,
    request: (w) => get(`/api/reviews/task/${w.task.id}`),
    check: (w, res) => {
      if (res.statusCode !== 200) return;
      // Blind: the provider has not reviewed yet, so the poster's review stays hidden from them.
      const visible = parse<{ reviews: unknown[] }>(res).reviews.length;
      expect(visible, w.label).toBe(w.actorKind === "assignedProvider" ? 0 : 1);
    },
  },
  "GET /api/reviews/user/:userId": {
    stage: "completed",
    readOnly: true,
    prepare: posterReview,
    request: (w) => get(`/api/reviews/user/${w.assigned.id}`),
    check: (w, res) => expect(parse<{ count: number }>(res).count, w.label).toBe(0),
  },

  "GET /api/users/:id/profile": {
    stage: "completed",
    readOnly: true,
    prepare: posterReview,
    request: (w) => get(`/api/users/${w.assigned.id}/profile`),
    check: (w, res) => {
      // The provider's record for everyone alike: display name only, nothing from the application
      // but city and state, and the poster's review still blind (the provider has not reviewed yet).
      expect(parse<{ completedAsProvider: number; rating: { count: number } }>(res), w.label).toMatchObject({
        completedAsProvider: 1,
        rating: { count: 0 },
      });
      for (const secret of ["4105550100", "1 Test St", "21401", w.assigned.email, w.poster.email]) expect(res.body, w.label).not.toContain(secret);
    },
  },

  "POST /api/ask-felix": {
    request: () =>
      post("/api/ask-felix", {
        message: "Please calculate the budget for this task.",
        mode: "recommend",
        context: {
          startLocation: "1 Main St",
          startLat: 38.9784,
          startLon: -76.4922,
          endLocation: "2 Charles St",
          endLat: 39.2904,
          endLon: -76.6122,
        },
      }),
  },

  "GET /api/payments/config": { readOnly: true, request: () => get("/api/payments/config") },
  "POST /api/create-payment-intent": {
    stage: "claimed",
    request: (w) => post("/api/create-payment-intent", { taskId: w.task.id, amount: w.task.totalCents / 100 }),
    check: async (w) => {
      const stored = await t.database.db.select().from(payments).where(eq(payments.taskId, w.task.id));
      expect(stored.length, w.label).toBe(w.actorKind === "poster" ? 1 : 0);
    },
  },
  "POST /api/sandbox/payments/confirm": {
    stage: "claimed",
    request: async (w) => {
      const intent = await must(
        call(t, w.poster, { method: "POST", url: "/api/create-payment-intent", payload: { taskId: w.task.id, amount: w.task.totalCents / 100 } }),
        200,
      );
      return post("/api/sandbox/payments/confirm", { clientSecret: parse<{ clientSecret: string }>(intent).clientSecret, ...CARD });
    },
    check: async (w) => {
      expect((await taskRow(w.task.id)).paymentCapturedAt !== null, w.label).toBe(w.actorKind === "poster");
    },
  },
  "GET /api/tasks/:id/escrow": { readOnly: true, stage: "paid", request: (w) => get(`/api/tasks/${w.task.id}/escrow`) },
  "POST /api/tasks/:id/approve-release": {
    stage: "completed",
    request: (w) => post(`/api/tasks/${w.task.id}/approve-release`),
    check: async (w) => expect(await holdStatus(w.task.id), w.label).toBe(w.actorKind === "poster" ? "released" : "holding"),
  },
  "POST /api/tasks/:id/report-problem": {
    stage: "completed",
    request: (w) => post(`/api/tasks/${w.task.id}/report-problem`, { reason: "not_done", description: "The parcel never arrived" }),
    check: async (w) => expect(await holdStatus(w.task.id), w.label).toBe(isParty(w) ? "disputed" : "holding"),
  },
  "GET /api/tasks/:id/dispute": { readOnly: true, stage: "disputed", request: (w) => get(`/api/tasks/${w.task.id}/dispute`) },
  "POST /api/tasks/:id/dispute/messages": {
    stage: "disputed",
    request: (w) => post(`/api/tasks/${w.task.id}/dispute/messages`, { body: "My side of it" }),
    check: async (w) => {
      const written = await t.database.db.select().from(disputeMessages).where(eq(disputeMessages.body, "My side of it"));
      expect(written.some((m) => m.authorId === w.actor?.id), w.label).toBe(isInsider(w));
    },
  },
  "GET /api/dispute-photos/:photoId/:size": {
    readOnly: true,
    stage: "disputed",
    prepare: posterDisputePhoto,
    request: (w) => get(`/api/dispute-photos/${w.prepared}/small`),
    check: (w, res) => expect(res.headers["content-type"], w.label).toBe(res.statusCode === 200 ? "image/webp" : "application/json; charset=utf-8"),
  },
  "POST /api/tasks/:id/tip": {
    stage: "completed",
    request: (w) => post(`/api/tasks/${w.task.id}/tip`, { amount: 5, idempotencyKey: randomUUID() }),
    check: async (w) => {
      const stored = await t.database.db.select().from(tips).where(eq(tips.taskId, w.task.id));
      expect(stored.length, w.label).toBe(w.actorKind === "poster" ? 1 : 0);
    },
  },
  "GET /api/payments/earnings": {
    readOnly: true,
    stage: "paid",
    request: () => get("/api/payments/earnings"),
    check: (w, res) => {
      if (!w.actor) return;
      const listed = parse<{ tasks: { taskId: string }[] }>(res).tasks.some((task) => task.taskId === w.task.id);
      expect(listed, w.label).toBe(w.actorKind === "assignedProvider");
    },
  },
  "POST /api/stripe/connect/account": { request: () => post("/api/stripe/connect/account") },
  "POST /api/stripe/connect/account-link": payoutOnboarding("/api/stripe/connect/account-link"),
  "POST /api/sandbox/payouts/complete-onboarding": payoutOnboarding("/api/sandbox/payouts/complete-onboarding"),
  "GET /api/admin/finance": { readOnly: true, request: () => get("/api/admin/finance") },
  "POST /api/admin/disputes/:taskId/resolve": {
    stage: "disputed",
    request: (w) => post(`/api/admin/disputes/${w.task.id}/resolve`, { refund: w.task.totalCents / 100, reason: "The parcel never arrived" }),
    check: async (w) => expect(await holdStatus(w.task.id), w.label).toBe(w.actorKind === "admin" ? "refunded" : "disputed"),
  },
  "GET /api/receipts": {
    readOnly: true,
    stage: "paid",
    request: () => get("/api/receipts"),
    check: (w, res) => {
      if (!w.actor) return;
      const listed = parse<{ receipts: { task: { id: string } }[] }>(res).receipts.some((r) => r.task.id === w.task.id);
      expect(listed, w.label).toBe(w.actorKind === "poster");
    },
  },
  "GET /api/receipts/:id": {
    readOnly: true,
    stage: "paid",
    request: async (w) => get(`/api/receipts/${await captureOf(w.task.id)}`),
    check: (w, res) => {
      if (res.statusCode === 200) expect(parse<{ task: { id: string } }>(res).task.id, w.label).toBe(w.task.id);
      else expect(res.body, w.label).not.toContain(w.task.title);
    },
  },
  "GET /api/receipts/:id/pdf": { readOnly: true, stage: "paid", request: async (w) => get(`/api/receipts/${await captureOf(w.task.id)}/pdf`) },
  "GET /api/payments/payouts": { readOnly: true, request: () => get("/api/payments/payouts") },
  "GET /api/payments/earnings.csv": {
    readOnly: true,
    stage: "completed",
    prepare: releaseEarly,
    request: () => get("/api/payments/earnings.csv"),
    check: (w, res) => {
      if (w.actor) expect(res.body.includes(w.task.id), w.label).toBe(w.actorKind === "assignedProvider");
    },
  },
  "GET /api/payments/statements/:year": {
    readOnly: true,
    stage: "completed",
    prepare: releaseEarly,
    request: () => get(`/api/payments/statements/${t.clock.now().getUTCFullYear()}`),
  },
  "GET /api/payments/statements/:year/pdf": {
    readOnly: true,
    stage: "completed",
    prepare: releaseEarly,
    request: () => get(`/api/payments/statements/${t.clock.now().getUTCFullYear()}/pdf`),
  },
  "GET /api/admin/ledger": { readOnly: true, stage: "paid", request: (w) => get(`/api/admin/ledger?taskId=${w.task.id}`) },
  "GET /api/admin/ledger.csv": { readOnly: true, stage: "paid", request: (w) => get(`/api/admin/ledger.csv?taskId=${w.task.id}`) },
  "POST /api/reports": {
    // A person outside the scene is reported, so no actor reports themselves.
    request: async (w) => {
      w.subject = await createUser(t);
      return post("/api/reports", { targetType: "user", targetId: w.subject.id, reason: "spam", details: "Sends advertising in every chat" });
    },
    check: async (w) => {
      const stored = await t.database.db.select({ id: reports.id }).from(reports).where(eq(reports.reporterId, w.actor?.id ?? randomUUID()));
      expect(stored.length, w.label).toBe(w.actor ? 1 : 0);
    },
  },
  "GET /api/blocks": { readOnly: true, request: () => get("/api/blocks") },
  "PUT /api/blocks/:userId": {
    request: async (w) => {
      w.subject = await createUser(t);
      return { method: "PUT", url: `/api/blocks/${w.subject.id}` };
    },
    check: async (w) => {
      const stored = await t.database.db.select().from(userBlocks).where(eq(userBlocks.blockedId, w.subject?.id ?? randomUUID()));
      expect(stored.length, w.label).toBe(w.actor ? 1 : 0);
    },
  },
  "DELETE /api/blocks/:userId": {
    request: async (w) => {
      w.subject = await createUser(t);
      if (w.actor) await must(call(t, w.actor, { method: "PUT", url: `/api/blocks/${w.subject.id}` }), 200);
      return { method: "DELETE", url: `/api/blocks/${w.subject.id}` };
    },
    check: async (w) => expect(await t.database.db.select().from(userBlocks).where(eq(userBlocks.blockedId, w.subject?.id ?? randomUUID())), w.label).toEqual([]),
  },
  "GET /api/admin/reports": {
    readOnly: true,
    stage: "open",
    prepare: async (scene) => {
      const reporter = await createUser(t);
      await must(call(t, reporter, { method: "POST", url: "/api/reports", payload: { targetType: "task", targetId: scene.task.id, reason: "scam", details: "Asks for gift cards up front" } }), 201);
    },
    request: () => get("/api/admin/reports"),
    check: (w, res) => expect(res.body.includes("gift cards"), w.label).toBe(w.actorKind === "admin"),
  },
  "POST /api/admin/reports/:id/close": {
    stage: "open",
    prepare: async (scene) => {
      const reporter = await createUser(t);
      const res = await must(call(t, reporter, { method: "POST", url: "/api/reports", payload: { targetType: "task", targetId: scene.task.id, reason: "scam", details: "Asks for gift cards up front" } }), 201);
      scene.prepared = parse<{ id: string }>(res).id;
    },
    request: (w) => post(`/api/admin/reports/${w.prepared}/close`, { outcome: "no_action" }),
    check: async (w) => {
      const [row] = await t.database.db.select({ outcome: reports.outcome }).from(reports).where(eq(reports.id, w.prepared));
      expect(row?.outcome ?? null, w.label).toBe(w.actorKind === "admin" ? "no_action" : null);
    },
  },
  "POST /api/admin/tasks/:id/remove": {
    stage: "paid",
    request: (w) => post(`/api/admin/tasks/${w.task.id}/remove`, { reason: "Prohibited item" }),
    check: async (w) => expect((await taskRow(w.task.id)).status, w.label).toBe(w.actorKind === "admin" ? "cancelled" : "claimed"),
  },
  "POST /api/admin/reviews/:id/hide": {
    stage: "completed",
    prepare: async (scene) => {
      await posterReview(scene);
      scene.prepared = await reviewOf(scene);
    },
    request: (w) => post(`/api/admin/reviews/${w.prepared}/hide`, { reason: "Threatening language" }),
    check: async (w) => expect(await reviewHidden(w.prepared), w.label).toBe(w.actorKind === "admin"),
  },
  "POST /api/admin/reviews/:id/unhide": {
    stage: "completed",
    prepare: async (scene) => {
      await posterReview(scene);
      scene.prepared = await reviewOf(scene);
      await t.database.db.update(reviews).set({ hiddenAt: t.clock.now() }).where(eq(reviews.id, scene.prepared));
    },
    request: (w) => post(`/api/admin/reviews/${w.prepared}/unhide`, { reason: "Appeal accepted" }),
    check: async (w) => expect(await reviewHidden(w.prepared), w.label).toBe(w.actorKind !== "admin"),
  },
  "POST /api/admin/users/:id/suspend": {
    stage: "open",
    // The scene's poster is the one suspended: their open task is removed with it.
    request: (w) => post(`/api/admin/users/${w.poster.id}/suspend`, { reason: "Fraudulent payments" }),
    check: async (w) => {
      expect(await suspended(w.poster.id), w.label).toBe(w.actorKind === "admin");
      expect((await taskRow(w.task.id)).status, w.label).toBe(w.actorKind === "admin" ? "cancelled" : "open");
    },
  },
  "POST /api/admin/users/:id/unsuspend": {
    request: async (w) => {
      w.subject = await createUser(t);
      await t.database.db.update(users).set({ suspendedAt: t.clock.now(), suspensionReason: "Spam" }).where(eq(users.id, w.subject.id));
      return post(`/api/admin/users/${w.subject.id}/unsuspend`, { reason: "Appeal accepted" });
    },
    check: async (w) => expect(await suspended(w.subject?.id ?? randomUUID()), w.label).toBe(w.actorKind !== "admin"),
  },
  "POST /api/admin/providers/:userId/revoke": {
    request: (w) => post(`/api/admin/providers/${w.assigned.id}/revoke`, { reason: "Repeated no-shows" }),
    check: async (w) => expect(await applicationStatus(w.assigned.id), w.label).toBe(w.actorKind === "admin" ? "rejected" : "approved"),
  },
  // Background checks (docs/decisions/064-background-checks.md): on the approved provider; the
  // fixture's clear check is their one check until an admin records another.
  "GET /api/admin/background-checks/service": { readOnly: true, request: () => get("/api/admin/background-checks/service") },
  "POST /api/admin/providers/:userId/background-checks": {
    request: (w) => post(`/api/admin/providers/${w.assigned.id}/background-checks`, { checkedWhat: "County records, MD", result: "clear", checkedOn: "2026-05-30" }),
    check: async (w) => expect(await backgroundCheckCount(w.assigned.id), w.label).toBe(w.actorKind === "admin" ? 2 : 1),
  },
  "POST /api/admin/providers/:userId/background-checks/start": {
    request: (w) => post(`/api/admin/providers/${w.assigned.id}/background-checks/start`),
    check: async (w) => expect(await backgroundCheckCount(w.assigned.id), w.label).toBe(1),
  },
  "POST /api/background-checks/checkr/webhook": {
    request: () => ({
      method: "POST",
      url: "/api/background-checks/checkr/webhook",
      payload: JSON.stringify({ id: "evt_1", type: "report.completed" }),
      headers: { "content-type": "application/json", "x-checkr-signature": "0".repeat(64) },
    }),
  },
  "POST /api/stripe/webhook": {
    request: () => ({
      method: "POST",
      url: "/api/stripe/webhook",
      payload: JSON.stringify({ id: "evt_1", type: "payment_intent.succeeded" }),
      headers: { "content-type": "application/json", "stripe-signature": "t=1,v1=forged" },
    }),
  },
};

async function newScene(scenario: Scenario): Promise<Scene> {
  const scene = await buildScene(scenario.stage ?? null);
  await scenario.prepare?.(scene);
  return scene;
}

async function play(key: RouteKey, scene: Scene, actorKind: Actor): Promise<{ world: World; res: Answer }> {
  const scenario = SCENARIOS[key];
  const world = await enter(scene, key, actorKind);
  if (scenario.send) return { world, res: await scenario.send(world) };
  if (!scenario.request) throw new Error(`${key}: the scenario has neither request nor send`);
  const options = await scenario.request(world);
  const res = await call(t, world.actor, { ...options, remoteAddress: nextIp() });
  return { world, res };
}

describe("HTTP routes × actors", () => {
  for (const key of Object.keys(HTTP_MATRIX) as RouteKey[]) {
    it(key, async () => {
      const got: Partial<Record<Actor, number>> = {};
      const answers: string[] = [];
      const shared = SCENARIOS[key].readOnly ? await newScene(SCENARIOS[key]) : null;
      for (const actor of ACTORS) {
        const { world, res } = await play(key, shared ?? (await newScene(SCENARIOS[key])), actor);
        got[actor] = res.statusCode;
        if (res.statusCode !== expectedStatus(key, actor)) answers.push(`${actor}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        // The admin area tells an admin on one factor what to do, in the words the web shows (decision 068).
        if (actor === "oneFactorAdmin" && isAdminArea(key)) {
          expect(parse(res), world.label).toEqual({ message: ADMIN_SECOND_FACTOR_MESSAGE, reason: SECOND_FACTOR_REQUIRED });
        }
        await SCENARIOS[key].check?.(world, res);
      }
      expect(got, answers.join("\n")).toEqual(Object.fromEntries(ACTORS.map((actor) => [actor, expectedStatus(key, actor)])));
    }, SCENARIOS[key].slow ? 120_000 : undefined);
  }
});

// ---------------------------------------------------------------------------------------------
// Socket frames × actors, on a claimed task's chat.

/** The first frame the server answers with, as a table outcome. */
async function answer(socket: TestSocket, w: World): Promise<FrameOutcome> {
  let frame = await socket.next();
  // Pushes of the scene's own setup (its task was just posted and claimed) may arrive late: not answers.
  // Who may receive task_updated at all is the row "task_updated after a change".
  // The open task's "posted" push is public (the job board shows it), so it may reach anyone watching.
  while (frame.type === "job_board_changed" || (frame.type === "task_updated" && (isInsider(w) || frame.event === "posted"))) frame = await socket.next();
  if (frame.type === "notification") {
    // One's own count: the poster has the claim notice, nobody else has any.
    expect(frame.unreadCount, w.label).toBe(w.actorKind === "poster" ? 1 : 0);
  }
  if (frame.type === "auth_success" || frame.type === "error" || frame.type === "message" || frame.type === "notification") return frame.type;
  throw new Error(`${w.label}: unexpected frame ${JSON.stringify(frame)}`);
}

const FRAME_PLAYS: Record<SocketFrameKey, (socket: TestSocket, w: World) => Promise<FrameOutcome>> = {
  auth: (socket, w) => {
    socket.send({ type: "auth", taskId: w.task.id });
    return answer(socket, w);
  },
  "message after auth": async (socket, w) => {
    socket.send({ type: "auth", taskId: w.task.id });
    await answer(socket, w);
    socket.send({ type: "message", content: "Hello over the socket" });
    return answer(socket, w);
  },
  "message without auth": (socket, w) => {
    socket.send({ type: "message", content: "Hello over the socket" });
    return answer(socket, w);
  },
  subscribe_notifications: (socket, w) => {
    socket.send({ type: "subscribe_notifications" });
    return answer(socket, w);
  },
  "task_updated after a change": async (socket, w) => {
    // The marker is another, open task whose page this socket watches: the change under test cannot reach it that way.
    const { task: marker } = await factoryTaskAt(t, "open");
    await watchAndSubscribe(socket, w, marker.id);
    await must(call(t, w.poster, { method: "PATCH", url: `/api/tasks/${w.task.id}/cancel` }), 200);
    return heardCancel(socket, w, marker.id, []);
  },
  "task_updated while watching its page": async (socket, w) => {
    await watchAndSubscribe(socket, w, w.task.id);
    await announceStatement.rows(t.database.db, { taskId: w.task.id, event: "dispute", board: null, also: null });
    await must(call(t, w.poster, { method: "PATCH", url: `/api/tasks/${w.task.id}/cancel` }), 200);
    return heardCancel(socket, w, w.task.id, ["posted", "claim", "edited"]);
  },
  "a party's message after auth": async (socket, w) => {
    socket.send({ type: "auth", taskId: w.task.id });
    await answer(socket, w);
    // The marker: another, open task whose page this socket watches, changed after the message.
    const { task: marker } = await factoryTaskAt(t, "open");
    await watchAndSubscribe(socket, w, marker.id);
    await postMessage(w.poster, w.task.id, "The gate code is 4321");
    await announceStatement.rows(t.database.db, { taskId: marker.id, event: "edited", board: null, also: null });
    let outcome: FrameOutcome = "nothing";
    for (;;) {
      const frame = await socket.next();
      if (frame.type === "task_updated" && frame.taskId === marker.id && frame.event === "edited") return outcome;
      if (frame.type === "message") {
        expect(frame.content, w.label).toBe("The gate code is 4321");
        outcome = "message";
      }
    }
  },
};

/** Watches `taskId`'s page and subscribes to the bell; frames are handled in order, so the count's answer means both are in place. */
async function watchAndSubscribe(socket: TestSocket, w: World, taskId: string): Promise<void> {
  socket.send({ type: "watch_task", taskId });
  socket.send({ type: "subscribe_notifications" });
  await answer(socket, w);
}

/**
 * Reads the socket up to a public change ("edited") of the watched `marker` task, announced last:
 * one LISTEN connection hears notices in commit order and the hub pushes each at once, so every
 * frame about the cancel has arrived by then (a job-board frame may not have: it waits 250 ms).
 * The parties and admins may also hear the setup's late pushes; anyone else hearing anything about
 * the task but the cancel and `publicEvents` is a leak.
 */
async function heardCancel(socket: TestSocket, w: World, marker: string, publicEvents: string[]): Promise<FrameOutcome> {
  await announceStatement.rows(t.database.db, { taskId: marker, event: "edited", board: null, also: null });
  let outcome: FrameOutcome = "nothing";
  for (;;) {
    const frame = await socket.next();
    if (frame.type !== "task_updated") continue;
    if (frame.taskId === marker && frame.event === "edited") return outcome;
    if (frame.taskId !== w.task.id) continue;
    if (frame.event === "cancel") {
      expect(frame, w.label).toEqual({ type: "task_updated", taskId: w.task.id, status: "cancelled", event: "cancel" });
      outcome = "task_updated";
    } else if (!isInsider(w) && !publicEvents.includes(String(frame.event))) throw new Error(`${w.label} heard "${String(frame.event)}" of a task not theirs`);
  }
}

async function frameOutcome(key: SocketFrameKey, actorKind: Actor): Promise<FrameOutcome> {
  const w = await enter(await buildScene("claimed"), `frame ${key}`, actorKind);
  const socket = await openSocket(w.actor);
  if ("refused" in socket) {
    expect(socket.refused, w.label).toBe(401);
    return "refused";
  }
  let outcome: FrameOutcome;
  try {
    outcome = await FRAME_PLAYS[key](socket, w);
  } finally {
    socket.close();
  }
  // Only a party's message in a room they joined is stored (and the poster's own, written over REST); a refused frame stores nothing.
  const stored = await t.database.db.select().from(messages).where(eq(messages.taskId, w.task.id));
  expect(stored.length, w.label).toBe(key === "a party's message after auth" || (key === "message after auth" && isParty(w)) ? 1 : 0);
  return outcome;
}

describe("socket frames × actors", () => {
  for (const key of Object.keys(SOCKET_MATRIX) as SocketFrameKey[]) {
    it(key, async () => {
      const got: Partial<Record<Actor, FrameOutcome>> = {};
      for (const actor of ACTORS) got[actor] = await frameOutcome(key, actor);
      expect(got).toEqual(Object.fromEntries(ACTORS.map((actor) => [actor, expectedFrame(key, actor)])));
    });
  }
});
