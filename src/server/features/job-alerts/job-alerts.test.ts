import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ALERTS_FOR_PROVIDERS_MESSAGE, ALERT_EMAIL_INTERVAL_MS, TOO_MANY_ALERTS_MESSAGE, type JobAlertInput, type JobAlertList } from "../../../shared/job-alerts.js";
import type { CreateTaskBody } from "../../../shared/tasks.js";
import { call, createUser, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import { postTaskForm, providerWithAlert } from "../../../../test/fixtures/factory.js";
import { taskNear21401 } from "../../../../test/fixtures/task-bodies.js";
import { notifications } from "../../db/schema/chat.js";
import { jobAlertMatches, jobAlerts } from "../../db/schema/job-alerts.js";
import { emailOutbox } from "../../db/schema/site.js";
import { sendAlertDigests } from "./service.js";

// Job alerts (docs/product.md#job-alerts, docs/decisions/032-job-alerts.md): saving and reading the
// list, who is told when a task is posted, and the 15-minute digest e-mail.

const t = await useTestApp();

const annapolis: JobAlertInput = { categories: ["pet", "errands"], near: "21401", radiusMiles: 10, minBudget: 30 };

const save = (user: TestUser | null, alerts: unknown) => call(t, user, { method: "PUT", url: "/api/alerts", payload: { alerts } });
const read = (user: TestUser | null) => call(t, user, { url: "/api/alerts" });

const post = (poster: TestUser, body: Partial<CreateTaskBody> = {}) => postTaskForm(t, poster, taskNear21401(body));

const alertsOf = async (user: TestUser) =>
  t.database.db.select().from(notifications).where(and(eq(notifications.userId, user.id), eq(notifications.kind, "task_alert")));
const mailsTo = async (user: TestUser) =>
  t.database.db.select().from(emailOutbox).where(and(eq(emailOutbox.to, user.email), eq(emailOutbox.kind, "task_alert")));

describe("PUT and GET /api/alerts", () => {
  it("saves a provider's list, reads it back, and replaces it whole", async () => {
    const provider = await createUser(t, { verifiedProvider: true });
    expect((await read(provider)).json()).toEqual({ alerts: [] });
    const second: JobAlertInput = { categories: ["moving"], near: " 38.98, -76.49 ", radiusMiles: 50, minBudget: null };
    const saved = await save(provider, [annapolis, second]);
    expect(saved.statusCode, saved.body).toBe(200);
    const expected = [
      { id: expect.any(String), categories: ["pet", "errands"], near: "21401", radiusMiles: 10, minBudget: 30 },
      { id: expect.any(String), categories: ["moving"], near: "38.98, -76.49", radiusMiles: 50, minBudget: null },
    ];
    expect(saved.json()).toEqual({ alerts: expected });
    expect((await read(provider)).json()).toEqual({ alerts: expected });
    // The minimum budget is kept in cents.
    const [row] = await t.database.db.select().from(jobAlerts).where(eq(jobAlerts.userId, provider.id)).limit(1);
    expect(row?.minBudgetCents).toBe(3000);

    expect((await save(provider, [second])).json()).toEqual({ alerts: [expected[1]] });
    expect((await save(provider, [])).json()).toEqual({ alerts: [] });
  });

  it.each([
    [[{ ...annapolis, near: "Annapolis" }], "alerts.0.near", /5-digit ZIP code or a position/],
    [[{ ...annapolis, near: "00000" }], "alerts.0.near", /don't know the ZIP code 00000/],
    [[{ ...annapolis, near: "95.1,-76.5" }], "alerts.0.near", /Latitude must be between -90 and 90/],
    [[annapolis, { ...annapolis, radiusMiles: 7 }], "alerts.1.radiusMiles", /5, 10, 25 or 50/],
    [[{ ...annapolis, categories: ["pet", "gardening"] }], "alerts.0.categories.1", /Unknown category/],
    [[{ ...annapolis, categories: [] }], "alerts.0.categories", /at least one category/],
    [[{ ...annapolis, minBudget: -5 }], "alerts.0.minBudget", /0 or more/],
    [Array.from({ length: 11 }, () => annapolis), "alerts", /at most 10 job alerts/],
  ])("refuses %j with 400 under %s and changes nothing", async (alerts, field, message) => {
    const provider = await providerWithAlert(t, annapolis);
    const res = await save(provider, alerts);
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json() as { message: string; fieldErrors: Record<string, string> };
    expect(body.fieldErrors[field]).toMatch(message);
    expect((await read(provider)).json<JobAlertList>().alerts).toHaveLength(1);
  });

  it("keeps exactly 10", async () => {
    const provider = await createUser(t, { verifiedProvider: true });
    const res = await save(provider, Array.from({ length: 10 }, () => annapolis));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<JobAlertList>().alerts).toHaveLength(10);
    expect(TOO_MANY_ALERTS_MESSAGE).toMatch(/at most 10/);
  });

  it("is for verified providers only: others get 403 saying why, the signed-out 401", async () => {
    const user = await createUser(t);
    for (const res of [await read(user), await save(user, [annapolis])]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: ALERTS_FOR_PROVIDERS_MESSAGE });
    }
    const admin = await createUser(t, { role: "admin" });
    expect((await read(admin)).statusCode).toBe(403);
    expect((await read(null)).statusCode).toBe(401);
    expect((await save(null, [annapolis])).statusCode).toBe(401);
    expect(await t.database.db.select().from(jobAlerts).where(eq(jobAlerts.userId, user.id))).toEqual([]);
  });
});

describe("a posted task that matches", () => {
  it("rings the bell of exactly the providers whose alert it matches", async () => {
    const poster = await createUser(t);
    const match = await createUser(t, { verifiedProvider: true });
    const otherCategory = await createUser(t, { verifiedProvider: true });
    const tooFar = await createUser(t, { verifiedProvider: true });
    const tooCheap = await createUser(t, { verifiedProvider: true });
    const unverified = await createUser(t, { role: "provider" });
    const selfPoster = await createUser(t, { verifiedProvider: true });
    await save(match, [annapolis, { ...annapolis, radiusMiles: 5 }]);
    await save(otherCategory, [{ ...annapolis, categories: ["moving"] }]);
    // Baltimore (39.29,-76.61) is 22 miles from the task.
    await save(tooFar, [{ ...annapolis, near: "39.29,-76.61", radiusMiles: 10 }]);
    await save(tooCheap, [{ ...annapolis, minBudget: 40.01 }]);
    await save(selfPoster, [annapolis]);
    // Never approved: an alert left in the table from before must not fire.
    await t.database.db.insert(jobAlerts).values({ userId: unverified.id, categories: ["pet"], near: "21401", lat: 38.99, lon: -76.55, radiusMiles: 50 });

    const task = await post(poster);
    const own = await post(selfPoster, { title: "My own dog" });

    // Two of its alerts matched, one notice; the distance is from the approximate position, rounded.
    expect((await alertsOf(match)).filter((n) => n.taskId === task.id)).toEqual([
      expect.objectContaining({ title: "New task near you: Walk the dog · $40 · 3.3 mi", body: "Pet Care in Annapolis, MD", read: false }),
    ]);
    for (const other of [otherCategory, tooFar, tooCheap, unverified, poster]) expect(await alertsOf(other)).toEqual([]);
    // Each poster is never told about their own task; the other matching provider is.
    expect((await alertsOf(selfPoster)).map((n) => n.taskId)).toEqual([task.id]);
    expect((await alertsOf(match)).map((n) => n.taskId).sort()).toEqual([task.id, own.id].sort());

    // A wider radius reaches Baltimore; a task with no position matches nothing.
    await save(tooFar, [{ ...annapolis, near: "39.29,-76.61", radiusMiles: 25 }]);
    await post(poster, { location: "The barn past the creek", city: "Nowheresville", lat: null, lon: null });
    expect(await alertsOf(tooFar)).toEqual([]);
    const second = await post(poster, { title: "Second walk" });
    expect((await alertsOf(tooFar)).map((n) => [n.taskId, n.title])).toEqual([[second.id, "New task near you: Second walk · $40 · 22 mi"]]);

    // The bell count includes it.
    const bell = await call(t, match, { url: "/api/notifications" });
    expect(bell.json()).toMatchObject({ unreadCount: 3 });
    expect((await alertsOf(match)).map((n) => n.taskId)).toContain(second.id);
  });
});

describe("the digest e-mail", () => {
  it("sends one e-mail per 15 minutes listing every match since the last one; the bell is told each time", async () => {
    const poster = await createUser(t);
    const provider = await providerWithAlert(t, annapolis);

    const first = await post(poster, { title: "Dog walk one" });
    t.clock.advance(5 * 60_000);
    const second = await post(poster, { title: "Dog walk two", budget: 55 });
    expect(await mailsTo(provider)).toEqual([]);
    await t.app.ctx.scheduler.runAll();
    const mails = await mailsTo(provider);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe("2 new tasks match your job alerts");
    expect(mails[0]?.text).toContain(`Dog walk one · $40 · 3.3 mi\n${t.env.PUBLIC_URL}/task/${first.id}`);
    expect(mails[0]?.text).toContain(`Dog walk two · $55 · 3.3 mi\n${t.env.PUBLIC_URL}/task/${second.id}`);

    // A third match 5 minutes later waits: the last e-mail went less than 15 minutes ago.
    t.clock.advance(5 * 60_000);
    const third = await post(poster, { title: "Dog walk three" });
    expect(await alertsOf(provider)).toHaveLength(3);
    await t.app.ctx.scheduler.runAll();
    expect(await mailsTo(provider)).toHaveLength(1);
    t.clock.advance(ALERT_EMAIL_INTERVAL_MS - 5 * 60_000 - 1);
    await t.app.ctx.scheduler.runAll();
    expect(await mailsTo(provider)).toHaveLength(1);
    t.clock.advance(1);
    await t.app.ctx.scheduler.runAll();
    const later = await mailsTo(provider);
    expect(later).toHaveLength(2);
    expect(later.find((m) => m.subject === "New task near you: Dog walk three")?.text).toContain(`/task/${third.id}`);
    // Nothing left to send.
    t.clock.advance(ALERT_EMAIL_INTERVAL_MS);
    await t.app.ctx.scheduler.runAll();
    expect(await mailsTo(provider)).toHaveLength(2);
  });

  it("sends none when the provider turned alert e-mails off; the bell still rings", async () => {
    const poster = await createUser(t);
    const provider = await providerWithAlert(t, annapolis);
    const off = await call(t, provider, { method: "PUT", url: "/api/notifications/preferences", payload: { email: { task_alert: false } } });
    expect(off.statusCode, off.body).toBe(200);
    await post(poster);
    await t.app.ctx.scheduler.runAll();
    expect(await alertsOf(provider)).toHaveLength(1);
    expect(await mailsTo(provider)).toEqual([]);
    expect(await t.database.db.select().from(jobAlertMatches).where(eq(jobAlertMatches.userId, provider.id))).toEqual([]);
  });

  it("leaves out tasks that are no longer open", async () => {
    const poster = await createUser(t);
    const provider = await providerWithAlert(t, annapolis);
    const rival = await createUser(t, { verifiedProvider: true });
    const task = await post(poster, { title: "Taken already" });
    expect((await call(t, rival, { method: "PATCH", url: `/api/tasks/${task.id}/claim` })).statusCode).toBe(200);
    await t.app.ctx.scheduler.runAll();
    expect(await mailsTo(provider)).toEqual([]);
  });

  it("is safe on several instances: each digest goes once", async () => {
    const poster = await createUser(t);
    const providers = [await providerWithAlert(t, annapolis), await providerWithAlert(t, annapolis), await providerWithAlert(t, annapolis)];
    t.clock.advance(ALERT_EMAIL_INTERVAL_MS);
    await post(poster, { title: "Raced walk" });
    const before = await t.database.db.select().from(emailOutbox).where(eq(emailOutbox.kind, "task_alert"));
    const sent = await Promise.all([sendAlertDigests(t.app.ctx), sendAlertDigests(t.app.ctx), sendAlertDigests(t.app.ctx)]);
    const after = await t.database.db.select().from(emailOutbox).where(eq(emailOutbox.kind, "task_alert"));
    // Earlier tests' providers may be due as well; whoever is due gets one e-mail, from one instance.
    expect(after.length - before.length).toBe(sent.reduce((a, b) => a + b, 0));
    const fresh = after.filter((m) => !before.some((b) => b.id === m.id));
    expect(new Set(fresh.map((m) => m.to)).size).toBe(fresh.length);
    for (const p of providers) expect(await mailsTo(p)).toHaveLength(1);
  });
});

describe("the account", () => {
  it("exports the alerts and deletes them with the account", async () => {
    const provider = await providerWithAlert(t, annapolis);
    const exported = await call(t, provider, { url: "/api/account/export" });
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.json()).toMatchObject({ jobAlerts: [{ categories: ["pet", "errands"], near: "21401", radiusMiles: 10, minBudgetCents: 3000 }] });
    // A test user has no password, so it confirms with its e-mail address (as single sign-on accounts do).
    const deleted = await call(t, provider, { method: "DELETE", url: "/api/account", payload: { email: provider.email } });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await t.database.db.select().from(jobAlerts).where(eq(jobAlerts.userId, provider.id))).toEqual([]);
  });
});
