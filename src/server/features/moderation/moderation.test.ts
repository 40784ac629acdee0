import { formatDollarsExact } from "../../../shared/money.js";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { BLOCKED_MESSAGE, SUSPENDED_SIGN_IN_MESSAGE } from "../../../shared/moderation.js";
import { OPEN_DISPUTE_ADMIN_MESSAGE } from "../../../shared/task-lifecycle.js";
import { notifications } from "../../db/schema/chat.js";
import { ledgerTransactions } from "../../db/schema/payments.js";
import { providerProfiles } from "../../db/schema/providers.js";
import { reviews } from "../../db/schema/reviews.js";
import { auditLog, users } from "../../db/schema/users.js";
import { hashPassword } from "../auth/passwords.js";
import { createSession } from "../auth/sessions.js";
import { call, createUser, TEST_ORIGIN, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import { askQuestion, BASE_OFFER, createProvider, postOffersTask, postTask, recordClearCheck, reportProblem, taskAt, taskRow, transition } from "../../../../test/fixtures/factory.js";

// Moderation (docs/product.md, Moderation): reports and the admin's queue, blocks, removing a
// task, hiding a review, suspending an account and revoking an approval.

const t = await useTestApp();
let admin: TestUser;
let baseUrl = "";
beforeAll(async () => {
  admin = await createUser(t, { role: "admin" });
  baseUrl = (await t.app.listen({ port: 0, host: "127.0.0.1" })).replace("http://", "ws://");
});

const report = (user: TestUser, payload: Record<string, unknown>) => call(t, user, { method: "POST", url: "/api/reports", payload });
const adminPost = (url: string, payload: Record<string, unknown> = { reason: "Breaks the community rules" }) => call(t, admin, { method: "POST", url, payload });

async function noticesOf(userId: string, kind = "moderation") {
  return t.database.db.select().from(notifications).where(and(eq(notifications.userId, userId), eq(notifications.kind, kind)));
}

/** A second signed-in session of the same person, as another browser would hold. */
async function secondSession(user: TestUser): Promise<TestUser> {
  const token = await createSession(t.database.db, user.id, { idleDays: 7, absoluteDays: 30 }, t.clock.now(), {}, { firstFactor: "password" });
  return { ...user, cookie: `errandly_session=${token}` };
}

describe("reports", () => {
  it("lets anyone signed in report a task, and shows it to admins in context until closed", async () => {
    const { task } = await taskAt(t, "open", { body: { title: "Buy fake watches" } });
    const reporter = await createUser(t);
    const res = await report(reporter, { targetType: "task", targetId: task.id, reason: "scam", details: "Asks for counterfeit goods" });
    expect(res.statusCode).toBe(201);
    const { id } = res.json() as { id: string };

    const queue = await call(t, admin, { url: "/api/admin/reports" });
    expect(queue.statusCode).toBe(200);
    const entry = (queue.json() as { id: string }[]).find((r) => r.id === id);
    expect(entry).toMatchObject({ targetType: "task", taskId: task.id, taskTitle: "Buy fake watches", taskStatus: "open", reason: "scam", subjectId: task.userId, subjectSuspended: false });

    expect((await adminPost(`/api/admin/reports/${id}/close`, { outcome: "no_action", note: "Looked fine" })).statusCode).toBe(200);
    const again = await adminPost(`/api/admin/reports/${id}/close`, { outcome: "no_action" });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already closed/);
    const open = (await call(t, admin, { url: "/api/admin/reports" })).json() as { id: string }[];
    expect(open.map((r) => r.id)).not.toContain(id);
    const closed = (await call(t, admin, { url: "/api/admin/reports?status=closed" })).json() as { id: string; outcome: string }[];
    expect(closed.find((r) => r.id === id)?.outcome).toBe("no_action");
    const [entryLog] = await t.database.db.select().from(auditLog).where(and(eq(auditLog.action, "report.close"), eq(auditLog.targetId, id)));
    expect(entryLog?.actorId).toBe(admin.id);
  });

  it("refuses a reason off the list, one's own content, and what the reporter cannot see", async () => {
    const { task, poster, provider } = await taskAt(t, "claimed");
    const bad = await report(poster, { targetType: "user", targetId: provider.id, reason: "rude", details: "Was rude to me on the phone" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toHaveProperty("reason");
    const self = await report(poster, { targetType: "task", targetId: task.id, reason: "spam", details: "Reporting my own task here" });
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toMatch(/cannot report yourself/);
    const sent = await call(t, provider, { method: "POST", url: "/api/messages", payload: { taskId: task.id, content: "Call me on my number" } });
    expect(sent.statusCode).toBe(201);
    const stranger = await createUser(t);
    const hidden = await report(stranger, { targetType: "message", targetId: sent.json().id, reason: "spam", details: "A message I should not see" });
    expect(hidden.statusCode).toBe(404);
    const mine = await report(poster, { targetType: "message", targetId: sent.json().id, reason: "harassment", details: "Keeps asking to call" });
    expect(mine.statusCode).toBe(201);
  });

  it("takes a report of a public question, shown to admins with the question and its task; a hidden one only from its poster or asker", async () => {
    const { task, poster } = await taskAt(t, "open", { body: { title: "Move a sofa" } });
    const asker = await createProvider(t);
    const questionId = await askQuestion(t, asker, task.id, "Pay me outside the app and I will do it cheaper?");
    expect((await report(asker, { targetType: "question", targetId: questionId, reason: "spam", details: "My own question here" })).statusCode).toBe(400);
    const reader = await createUser(t);
    const res = await report(reader, { targetType: "question", targetId: questionId, reason: "scam", details: "Asks to pay off the platform" });
    expect(res.statusCode).toBe(201);
    const entry = ((await call(t, admin, { url: "/api/admin/reports" })).json() as { id: string }[]).find((r) => r.id === res.json().id);
    expect(entry).toMatchObject({
      targetType: "question",
      taskId: task.id,
      taskTitle: "Move a sofa",
      subjectId: asker.id,
      excerpt: "Pay me outside the app and I will do it cheaper?",
    });

    expect((await call(t, poster, { method: "POST", url: `/api/tasks/${task.id}/questions/${questionId}/hide` })).statusCode).toBe(200);
    const details = { reason: "scam", details: "Asks to pay off the platform" } as const;
    expect((await report(await createUser(t), { targetType: "question", targetId: questionId, ...details })).statusCode).toBe(404);
    expect((await report(poster, { targetType: "question", targetId: questionId, ...details })).statusCode).toBe(201);
  });

  it("is rate limited like other writes", async () => {
    const reporter = await createUser(t);
    const target = await createUser(t);
    const statuses: number[] = [];
    for (let i = 0; i < 21; i += 1) statuses.push((await report(reporter, { targetType: "user", targetId: target.id, reason: "spam", details: `Spam number ${i} again` })).statusCode);
    expect(statuses.slice(0, 20).every((s) => s === 201)).toBe(true);
    expect(statuses[20]).toBe(429);
  });
});

describe("blocking", () => {
  it("keeps a blocked provider from claiming the poster's task until unblocked", async () => {
    const { task, poster } = await taskAt(t, "open");
    const provider = await createProvider(t);
    expect((await call(t, poster, { method: "PUT", url: `/api/blocks/${provider.id}` })).statusCode).toBe(200);
    const list = await call(t, poster, { url: "/api/blocks" });
    expect(list.json()).toEqual([expect.objectContaining({ userId: provider.id })]);

    const refused = await call(t, provider, { method: "PATCH", url: `/api/tasks/${task.id}/claim` });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(BLOCKED_MESSAGE);
    expect((await taskRow(t, task.id)).status).toBe("open");

    expect((await call(t, poster, { method: "DELETE", url: `/api/blocks/${provider.id}` })).statusCode).toBe(200);
    expect((await call(t, provider, { method: "PATCH", url: `/api/tasks/${task.id}/claim` })).statusCode).toBe(200);
  });

  it("refuses chat between a blocked pair, on the route and on the socket", async () => {
    const { task, poster, provider } = await taskAt(t, "claimed");
    expect((await call(t, provider, { method: "PUT", url: `/api/blocks/${poster.id}` })).statusCode).toBe(200);
    const res = await call(t, poster, { method: "POST", url: "/api/messages", payload: { taskId: task.id, content: "Hello there" } });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(BLOCKED_MESSAGE);

    const socket = new WebSocket(`${baseUrl}/ws`, { headers: { origin: TEST_ORIGIN, cookie: poster.cookie } });
    const frames: { type: string; message?: string }[] = [];
    const errorFrame = new Promise<{ message?: string }>((resolve) => {
      socket.on("message", (data: WebSocket.RawData) => {
        const frame = JSON.parse(String(data)) as { type: string; message?: string };
        frames.push(frame);
        if (frame.type === "auth_success") socket.send(JSON.stringify({ type: "message", content: "Hello over the socket" }));
        if (frame.type === "error") resolve(frame);
      });
    });
    await new Promise<void>((resolve) => socket.once("open", () => resolve()));
    socket.send(JSON.stringify({ type: "auth", taskId: task.id }));
    expect((await errorFrame).message).toBe(BLOCKED_MESSAGE);
    socket.close();
  });

  it("keeps a blocked provider from making an offer on the poster's task, either way round", async () => {
    const poster = await createUser(t);
    const task = await postOffersTask(t, poster);
    const provider = await createProvider(t);
    expect((await call(t, provider, { method: "PUT", url: `/api/blocks/${poster.id}` })).statusCode).toBe(200);
    const refused = await call(t, provider, { method: "PUT", url: `/api/tasks/${task.id}/offer`, payload: BASE_OFFER });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(BLOCKED_MESSAGE);
    expect((await call(t, poster, { url: `/api/tasks/${task.id}/offers` })).json()).toEqual({ offers: [] });
    expect((await call(t, provider, { method: "DELETE", url: `/api/blocks/${poster.id}` })).statusCode).toBe(200);
    expect((await call(t, provider, { method: "PUT", url: `/api/tasks/${task.id}/offer`, payload: BASE_OFFER })).statusCode).toBe(200);
  });

  it("hides a blocked pair's cards from each other in the provider directory, and from nobody else", async () => {
    const provider = await createProvider(t);
    const blocker = await createUser(t);
    const bystander = await createUser(t);
    const listed = async (who: TestUser | null) =>
      (await call(t, who, { url: "/api/providers" })).json<{ userId: string }[]>().some((card) => card.userId === provider.id);
    expect(await listed(blocker)).toBe(true);
    expect((await call(t, blocker, { method: "PUT", url: `/api/blocks/${provider.id}` })).statusCode).toBe(200);
    expect(await listed(blocker)).toBe(false);
    expect(await listed(bystander)).toBe(true);
    expect(await listed(null)).toBe(true);
    const other = await createProvider(t);
    expect((await call(t, other, { method: "PUT", url: `/api/blocks/${blocker.id}` })).statusCode).toBe(200);
    const cards = (await call(t, blocker, { url: "/api/providers" })).json<{ userId: string }[]>();
    expect(cards.some((card) => card.userId === other.id)).toBe(false);
  });

  it("refuses blocking oneself and someone who does not exist", async () => {
    const user = await createUser(t);
    expect((await call(t, user, { method: "PUT", url: `/api/blocks/${user.id}` })).statusCode).toBe(400);
    expect((await call(t, user, { method: "PUT", url: "/api/blocks/00000000-0000-4000-8000-000000000000" })).statusCode).toBe(404);
  });
});

describe("removing a task", () => {
  it("refunds a paid task in full, tells both parties how to appeal, and audits it", async () => {
    const { task, poster, provider } = await taskAt(t, "paid");
    const res = await adminPost(`/api/admin/tasks/${task.id}/remove`, { reason: "Prohibited item" });
    expect(res.statusCode).toBe(200);
    expect((await taskRow(t, task.id)).status).toBe("cancelled");
    const refunds = await t.database.db.select().from(ledgerTransactions).where(and(eq(ledgerTransactions.taskId, task.id), eq(ledgerTransactions.kind, "refund")));
    expect(refunds).toHaveLength(1);
    const [notice] = await noticesOf(poster.id);
    expect(notice?.body).toContain("Prohibited item");
    // In the statement's words (docs/decisions/073-one-account-of-each-tasks-money.md): the whole payment came back.
    expect(notice?.body).toContain(`${formatDollarsExact(task.totalCents)} was refunded to your card`);
    expect(notice?.body).toContain(`${TEST_ORIGIN}/contact`);
    expect(await noticesOf(provider.id)).toHaveLength(1);
    const [logged] = await t.database.db.select().from(auditLog).where(and(eq(auditLog.action, "task.remove"), eq(auditLog.targetId, task.id)));
    expect(logged?.reason).toBe("Prohibited item");
  });

  it("refuses a completed task with 409 and an unknown one with 404", async () => {
    const { task } = await taskAt(t, "completed");
    const done = await adminPost(`/api/admin/tasks/${task.id}/remove`);
    expect(done.statusCode).toBe(409);
    expect(done.json().message).toMatch(/not yet completed or cancelled/);
    expect((await adminPost("/api/admin/tasks/00000000-0000-4000-8000-000000000000/remove")).statusCode).toBe(404);
  });

  it("refuses (409) to remove a task while a problem reported on it is open, and suspending its provider leaves it to the dispute; no money moves", async () => {
    const { task, poster, provider } = await taskAt(t, "in_progress");
    await reportProblem(t, poster, task);
    const refunds = () => t.database.db.select().from(ledgerTransactions).where(and(eq(ledgerTransactions.taskId, task.id), eq(ledgerTransactions.kind, "refund")));

    const removed = await adminPost(`/api/admin/tasks/${task.id}/remove`, { reason: "Prohibited item" });
    expect(removed.statusCode).toBe(409);
    expect(removed.json().message).toBe(OPEN_DISPUTE_ADMIN_MESSAGE);
    // Suspending the provider ends their sessions, and releases their other claims but not this task:
    // its money and people stay for the dispute.
    const other = await taskAt(t, "claimed", { provider });
    const suspended = await adminPost(`/api/admin/users/${provider.id}/suspend`, { reason: "Fraudulent payments" });
    expect(suspended.statusCode).toBe(200);
    expect(await taskRow(t, task.id)).toMatchObject({ status: "in_progress", providerId: provider.id });
    expect(await taskRow(t, other.task.id)).toMatchObject({ status: "open", providerId: null });
    expect(await refunds()).toHaveLength(0);
    expect((await call(t, provider, { url: "/api/auth/user" })).json()).toBeNull();

    // The way out the sentence points to: the admin resolves the dispute, which settles the money.
    expect((await adminPost(`/api/admin/disputes/${task.id}/resolve`, { refund: 0, reason: "Work was done" })).statusCode).toBe(200);
  });
});

describe("hiding a review", () => {
  it("takes it out of the rating and the profile, and back when shown again", async () => {
    const { task, poster, provider } = await taskAt(t, "completed");
    for (const [from, to, rating] of [[poster, provider, 1], [provider, poster, 5]] as const) {
      const res = await call(t, from, { method: "POST", url: "/api/reviews", payload: { taskId: task.id, reviewedId: to.id, rating, comment: "Honest words" } });
      expect(res.statusCode).toBe(201);
    }
    const [review] = await t.database.db.select().from(reviews).where(and(eq(reviews.taskId, task.id), eq(reviews.reviewerId, poster.id)));
    if (!review) throw new Error("no review");
    const rating = async () => (await t.database.db.select({ count: users.ratingCount, sum: users.ratingSum }).from(users).where(eq(users.id, provider.id)))[0];
    expect(await rating()).toEqual({ count: 1, sum: 1 });

    expect((await adminPost(`/api/admin/reviews/${review.id}/hide`, { reason: "Threatening language" })).statusCode).toBe(200);
    expect(await rating()).toEqual({ count: 0, sum: 0 });
    const profile = await call(t, null, { url: `/api/users/${provider.id}/profile` });
    expect(JSON.stringify(profile.json())).not.toContain("Honest words");
    expect(await noticesOf(poster.id)).toHaveLength(1);
    expect((await adminPost(`/api/admin/reviews/${review.id}/hide`)).statusCode).toBe(409);

    expect((await adminPost(`/api/admin/reviews/${review.id}/unhide`, { reason: "Appeal accepted" })).statusCode).toBe(200);
    expect(await rating()).toEqual({ count: 1, sum: 1 });
  });
});

describe("suspending an account", () => {
  it("ends every session and socket at once, refuses sign-in with the reason, closes their tasks and hides the profile", async () => {
    const email = `suspended-${Date.now()}@example.test`;
    const person = await createProvider(t, { email });
    await t.database.db.update(users).set({ passwordHash: await hashPassword("correct horse battery") }).where(eq(users.id, person.id));
    const other = await secondSession(person);
    const posted = await postTask(t, person);
    const { task: claimed, poster } = await taskAt(t, "paid", { provider: person });

    const socket = new WebSocket(`${baseUrl}/ws`, { headers: { origin: TEST_ORIGIN, cookie: other.cookie } });
    await new Promise<void>((resolve) => socket.once("open", () => resolve()));
    const closed = new Promise<number>((resolve) => socket.once("close", (code) => resolve(code)));

    const res = await adminPost(`/api/admin/users/${person.id}/suspend`, { reason: "Fraudulent payments" });
    expect(res.statusCode).toBe(200);
    // The sessions trigger tells the chat hub at once; no scheduled job runs here.
    expect(await closed).toBe(1008);
    for (const session of [person, other]) expect((await call(t, session, { url: "/api/auth/user" })).json()).toBeNull();

    const login = await t.app.inject({ method: "POST", url: "/api/auth/login", payload: { email, password: "correct horse battery" }, headers: { origin: TEST_ORIGIN } });
    expect(login.statusCode).toBe(403);
    expect(login.json().message).toContain(SUSPENDED_SIGN_IN_MESSAGE);
    expect(login.json().message).toContain("Fraudulent payments");
    expect(String(login.headers["set-cookie"] ?? "")).not.toContain("errandly_session=");

    expect((await taskRow(t, posted.id)).status).toBe("cancelled");
    const released = await taskRow(t, claimed.id);
    expect(released).toMatchObject({ status: "open", providerId: null, paymentCapturedAt: null });
    const refunds = await t.database.db.select().from(ledgerTransactions).where(and(eq(ledgerTransactions.taskId, claimed.id), eq(ledgerTransactions.kind, "refund")));
    expect(refunds).toHaveLength(1);
    expect(await noticesOf(poster.id)).toHaveLength(1);
    expect((await call(t, null, { url: `/api/users/${person.id}/profile` })).statusCode).toBe(404);
    const [notice] = await noticesOf(person.id);
    expect(notice?.body).toContain(`${TEST_ORIGIN}/contact`);

    expect((await adminPost(`/api/admin/users/${person.id}/suspend`)).statusCode).toBe(409);
    expect((await adminPost(`/api/admin/users/${person.id}/unsuspend`, { reason: "Appeal accepted" })).statusCode).toBe(200);
    const again = await t.app.inject({ method: "POST", url: "/api/auth/login", payload: { email, password: "correct horse battery" }, headers: { origin: TEST_ORIGIN } });
    expect(again.statusCode).toBe(200);
  });

  it("refuses to suspend an admin or oneself", async () => {
    const otherAdmin = await createUser(t, { role: "admin" });
    expect((await adminPost(`/api/admin/users/${otherAdmin.id}/suspend`)).statusCode).toBe(403);
    expect((await adminPost(`/api/admin/users/${admin.id}/suspend`)).statusCode).toBe(400);
  });
});

describe("revoking a provider's approval", () => {
  it("stops their claims until the approval flow approves them again", async () => {
    const provider = await createProvider(t);
    const { task } = await taskAt(t, "open");
    expect((await adminPost(`/api/admin/providers/${provider.id}/revoke`, { reason: "Repeated no-shows" })).statusCode).toBe(200);
    expect((await call(t, provider, { method: "PATCH", url: `/api/tasks/${task.id}/claim` })).statusCode).toBe(403);
    expect(await noticesOf(provider.id)).toHaveLength(1);
    expect((await adminPost(`/api/admin/providers/${provider.id}/revoke`)).statusCode).toBe(409);
    // Applying again is the ordinary flow; an admin approving it restores the claim.
    await t.database.db.update(providerProfiles).set({ verificationStatus: "pending" }).where(eq(providerProfiles.userId, provider.id));
    await recordClearCheck(t, admin, provider.id);
    expect((await call(t, admin, { method: "POST", url: `/api/admin/applications/${provider.id}/approve` })).statusCode).toBe(200);
    expect(await transition(t, "claim", task.id, provider)).not.toBeNull();
  });
});
