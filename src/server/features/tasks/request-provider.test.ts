import { and, eq } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";
import { BLOCKED_MESSAGE } from "../../../shared/moderation.js";
import type { NotificationList } from "../../../shared/notifications.js";
import { DECLINE_CHOSEN_MESSAGE } from "../../../shared/task-lifecycle.js";
import { REQUEST_MESSAGES } from "../../../shared/task-requests.js";
import type { TaskDetail } from "../../../shared/tasks.js";
import { providerProfiles } from "../../db/schema/providers.js";
import { emailOutbox } from "../../db/schema/site.js";
import { call, createUser, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import { BASE_BODY, createPoster, createProvider, postRequestTask, postTask, taskRow, transition } from "../../../../test/fixtures/factory.js";
import { startLocalPushService } from "../../../../test/fakes/local-push-service.js";

// Requesting a provider (docs/product.md, Requesting a provider; docs/decisions/065-requesting-a-provider.md).

const t = await useTestApp({ PAYMENT_WINDOW_MINUTES: "30", PUSH_SERVICE_HOSTS: "localhost" });
const pushService = await startLocalPushService();
afterAll(() => pushService.close());

const HOUR = 3_600_000;
const decline = (user: TestUser, taskId: string, reason?: string) =>
  call(t, user, { method: "PATCH", url: `/api/tasks/${taskId}/decline-request`, payload: reason === undefined ? {} : { reason } });
const accept = (user: TestUser, taskId: string) => call(t, user, { method: "PATCH", url: `/api/tasks/${taskId}/accept-request` });
const boardIds = async () => (await call(t, null, { url: "/api/tasks/open?pageSize=50" })).json<{ id: string }[]>().map((c) => c.id);
async function noticesOf(user: TestUser, kind: string) {
  const res = await call(t, user, { url: "/api/notifications" });
  return res.json<NotificationList>().notifications.filter((n) => n.kind === kind);
}
const message = (res: { json: <T>() => T }) => res.json<{ message: string }>().message;

describe("posting a request", () => {
  it("offers the task to that provider only: not on the board, hidden from others, the provider told", async () => {
    const poster = await createPoster(t, { firstName: "Pat", lastName: "Quinn" });
    const sam = await createProvider(t, { firstName: "Sam", lastName: "Porter" });
    const other = await createProvider(t);
    const task = await postRequestTask(t, poster, sam);
    expect(task.status).toBe("requested");
    expect(task.requestExpiresAt?.getTime()).toBe(t.clock.now().getTime() + 24 * HOUR);
    expect(task.requestFallback).toBe("open");
    expect(await boardIds()).not.toContain(task.id);
    expect((await call(t, other, { url: `/api/tasks/${task.id}` })).statusCode).toBe(404);
    expect((await call(t, null, { url: `/api/tasks/${task.id}` })).statusCode).toBe(404);
    expect((await call(t, other, { method: "PATCH", url: `/api/tasks/${task.id}/claim` })).statusCode).toBe(409);
    const seen = (await call(t, sam, { url: `/api/tasks/${task.id}` })).json<TaskDetail>();
    expect(seen).toMatchObject({ requestedProviderId: sam.id, requestedProviderName: "Sam P.", requestFallback: "open", requestExpiresAt: task.requestExpiresAt?.toISOString() });
    const [notice] = await noticesOf(sam, "task_requested");
    expect(notice?.body).toBe(`Pat Q. asks you to do "${BASE_BODY.title}" for $50.00. Open the task to accept or decline within 24 hours.`);
  });

  it("refuses yourself, a person who is not an approved provider, offers mode, and a blocked provider", async () => {
    const poster = await createPoster(t);
    const mine = await call(t, poster, { method: "POST", url: "/api/tasks", payload: { ...BASE_BODY, request: { providerId: poster.id } } });
    expect(mine.statusCode).toBe(400);
    expect(mine.json<{ fieldErrors: Record<string, string> }>().fieldErrors.request).toBe(REQUEST_MESSAGES.yourself);
    const plain = await createPoster(t);
    const notProvider = await call(t, poster, { method: "POST", url: "/api/tasks", payload: { ...BASE_BODY, request: { providerId: plain.id } } });
    expect(notProvider.statusCode).toBe(400);
    expect(notProvider.json<{ fieldErrors: Record<string, string> }>().fieldErrors.request).toBe(REQUEST_MESSAGES.notAProvider);
    const provider = await createProvider(t);
    const offers = await call(t, poster, { method: "POST", url: "/api/tasks", payload: { ...BASE_BODY, hiringMode: "offers", request: { providerId: provider.id } } });
    expect(offers.statusCode).toBe(400);
    const badWindow = await call(t, poster, { method: "POST", url: "/api/tasks", payload: { ...BASE_BODY, request: { providerId: provider.id, windowHours: 5 } } });
    expect(badWindow.statusCode).toBe(400);
    expect((await call(t, provider, { method: "PUT", url: `/api/blocks/${poster.id}` })).statusCode).toBe(200);
    const blocked = await call(t, poster, { method: "POST", url: "/api/tasks", payload: { ...BASE_BODY, request: { providerId: provider.id } } });
    expect(blocked.statusCode).toBe(403);
    expect(message(blocked)).toBe(BLOCKED_MESSAGE);
  });
});

describe("answering", () => {
  it("accept: claimed by the requested provider at the posted budget, the payment window starts, the poster told", async () => {
    const poster = await createPoster(t);
    const sam = await createProvider(t);
    const task = await postRequestTask(t, poster, sam, {}, { budgetCents: 7500 });
    const res = await accept(sam, task.id);
    expect(res.statusCode).toBe(200);
    const row = await taskRow(t, task.id);
    expect(row).toMatchObject({ status: "claimed", providerId: sam.id, budgetCents: 7500, totalCents: task.totalCents });
    expect(row.paymentDeadline?.getTime()).toBe(t.clock.now().getTime() + 30 * 60_000);
    expect(await noticesOf(poster, "task_claimed")).toHaveLength(1);
  });

  it("tells the poster their request was accepted, not that the task was claimed, and offers no Decline (issue 41)", async () => {
    const poster = await createPoster(t);
    const sam = await createProvider(t, { firstName: "Sam", lastName: "Porter" });
    const task = await postRequestTask(t, poster, sam);
    expect((await accept(sam, task.id)).statusCode).toBe(200);
    const [notice] = await noticesOf(poster, "task_claimed");
    expect(notice).toMatchObject({ title: "Your request was accepted", body: `Sam P. accepted your request for "${BASE_BODY.title}". Pay within 30 minutes to confirm.` });
    const seen = (await call(t, poster, { url: `/api/tasks/${task.id}` })).json<TaskDetail>();
    expect(seen).toMatchObject({ status: "claimed", requestedProviderId: sam.id, requestedProviderName: "Sam P.", requestOutcome: "accepted" });
    // The poster chose Sam: the table refuses a Decline (Cancel Task is the way out).
    const refused = await call(t, poster, { method: "PATCH", url: `/api/tasks/${task.id}/decline-provider` });
    expect(refused.statusCode).toBe(409);
    expect(message(refused)).toBe(DECLINE_CHOSEN_MESSAGE);
    expect((await taskRow(t, task.id)).status).toBe("claimed");
  });

  it("shows the poster a declined or unanswered request on the task, until someone else claims it (issue 41)", async () => {
    const poster = await createPoster(t);
    const sam = await createProvider(t, { firstName: "Sam", lastName: "Porter" });
    const other = await createProvider(t);
    const declined = await postRequestTask(t, poster, sam);
    const cancelled = await postRequestTask(t, poster, sam, { fallback: "cancel" });
    const lapsed = await postRequestTask(t, poster, sam, { windowHours: 4 });
    expect((await decline(sam, declined.id)).statusCode).toBe(200);
    expect((await decline(sam, cancelled.id)).statusCode).toBe(200);
    t.clock.advance(4 * HOUR);
    await t.app.ctx.scheduler.runAll();
    const seen = async (user: TestUser, id: string) => (await call(t, user, { url: `/api/tasks/${id}` })).json<TaskDetail>();
    const ended = { requestedProviderId: sam.id, requestedProviderName: "Sam P.", requestExpiresAt: null };
    expect(await seen(poster, declined.id)).toMatchObject({ status: "open", ...ended, requestFallback: "open", requestOutcome: "declined" });
    expect(await seen(poster, cancelled.id)).toMatchObject({ status: "cancelled", ...ended, requestFallback: "cancel", requestOutcome: "declined" });
    expect(await seen(poster, lapsed.id)).toMatchObject({ status: "open", ...ended, requestFallback: "open", requestOutcome: "not_answered" });
    // Another provider claims: an ordinary claim, which the poster may decline; nobody reads whom the poster asked first.
    expect(await transition(t, "claim", declined.id, other)).not.toBeNull();
    const none = { requestedProviderId: null, requestedProviderName: null, requestOutcome: null };
    expect(await seen(poster, declined.id)).toMatchObject({ status: "claimed", ...none });
    expect(await seen(other, declined.id)).toMatchObject(none);
    expect((await call(t, poster, { method: "PATCH", url: `/api/tasks/${declined.id}/decline-provider` })).statusCode).toBe(200);
  });

  it("refuses another provider (403), the poster (403), and a provider no longer verified (403)", async () => {
    const poster = await createPoster(t);
    const sam = await createProvider(t);
    const other = await createProvider(t);
    const task = await postRequestTask(t, poster, sam);
    for (const who of [other, poster]) {
      expect((await accept(who, task.id)).statusCode).toBe(403);
      expect((await decline(who, task.id)).statusCode).toBe(403);
    }
    // An admin revoked Sam's verification after the request was made.
    await t.database.db.update(providerProfiles).set({ verificationStatus: "rejected" }).where(eq(providerProfiles.userId, sam.id));
    const res = await accept(sam, task.id);
    expect(res.statusCode).toBe(403);
    expect(message(res)).toBe("Only verified providers can accept a request. Finish your provider verification first.");
    expect((await taskRow(t, task.id)).status).toBe("requested");
  });

  it("decline opens the task to everyone, sends job alerts then, and tells the poster with the reason", async () => {
    const poster = await createPoster(t);
    const sam = await createProvider(t, { firstName: "Sam", lastName: "Porter" });
    const alerted = await createProvider(t);
    const alert = { categories: [BASE_BODY.category], near: "21401", radiusMiles: 10, minBudget: null };
    expect((await call(t, alerted, { method: "PUT", url: "/api/alerts", payload: { alerts: [alert] } })).statusCode).toBe(200);
    const task = await postRequestTask(t, poster, sam, {}, { body: { lat: 38.98, lon: -76.49 } });
    expect(await noticesOf(alerted, "task_alert")).toHaveLength(0);
    const res = await decline(sam, task.id, "I am away that week.");
    expect(res.statusCode).toBe(200);
    expect((await taskRow(t, task.id)).status).toBe("open");
    expect(await boardIds()).toContain(task.id);
    expect(await noticesOf(alerted, "task_alert")).toHaveLength(1);
    const [notice] = await noticesOf(poster, "request_ended");
    expect(notice?.body).toBe(
      `Sam P. declined your request for "${BASE_BODY.title}". Their reason: "I am away that week." As you chose, it is now open on the job board for every provider to claim.`,
    );
    // Another provider may now claim it.
    expect(await transition(t, "claim", task.id, alerted)).not.toBeNull();
  });

  it("decline cancels the task when the poster chose so", async () => {
    const poster = await createPoster(t);
    const sam = await createProvider(t);
    const task = await postRequestTask(t, poster, sam, { fallback: "cancel" });
    expect((await decline(sam, task.id)).statusCode).toBe(200);
    const row = await taskRow(t, task.id);
    expect(row.status).toBe("cancelled");
    expect(row.cancelledAt).not.toBeNull();
    expect(await boardIds()).not.toContain(task.id);
    expect((await noticesOf(poster, "request_ended"))[0]?.body).toContain("As you chose, the task was cancelled");
  });

  it("refuses a second answer with a sentence", async () => {
    const poster = await createPoster(t);
    const sam = await createProvider(t);
    const task = await postRequestTask(t, poster, sam);
    expect((await accept(sam, task.id)).statusCode).toBe(200);
    const again = await decline(sam, task.id);
    expect(again.statusCode).toBe(409);
    expect(message(again)).toBe("This request has already been answered, has lapsed or was cancelled by the poster.");
  });

  it("refuses a decline reason that is too long with a field error", async () => {
    const poster = await createPoster(t);
    const sam = await createProvider(t);
    const task = await postRequestTask(t, poster, sam);
    const res = await decline(sam, task.id, "x".repeat(301));
    expect(res.statusCode).toBe(400);
    expect((await taskRow(t, task.id)).status).toBe("requested");
  });
});

describe("the answer window, through the scheduler", () => {
  it("lapses to open or cancelled as chosen, once the window passed, and tells the poster", async () => {
    const poster = await createPoster(t);
    const sam = await createProvider(t);
    const opens = await postRequestTask(t, poster, sam, { windowHours: 4 });
    const cancels = await postRequestTask(t, poster, sam, { windowHours: 4, fallback: "cancel" });
    const later = await postRequestTask(t, poster, sam, { windowHours: 12 });
    t.clock.advance(4 * HOUR - 1000);
    await t.app.ctx.scheduler.runAll();
    expect((await taskRow(t, opens.id)).status).toBe("requested");
    t.clock.advance(1000);
    await t.app.ctx.scheduler.runAll();
    expect((await taskRow(t, opens.id)).status).toBe("open");
    expect((await taskRow(t, cancels.id)).status).toBe("cancelled");
    expect((await taskRow(t, later.id)).status).toBe("requested");
    const ended = await noticesOf(poster, "request_ended");
    expect(ended.filter((n) => n.title === "Your request was not answered")).toHaveLength(2);
    // Too late to accept now.
    expect((await accept(sam, opens.id)).statusCode).toBe(409);
  });
});

describe("races: exactly one winner", () => {
  it("accept against the lapse", async () => {
    const poster = await createPoster(t);
    const sam = await createProvider(t);
    const task = await postRequestTask(t, poster, sam, { windowHours: 4 });
    t.clock.advance(4 * HOUR - 1);
    const acceptance = accept(sam, task.id);
    // The lapse job reads the clock after the accept's transaction took it: it may or may not be due.
    t.clock.advance(1);
    const [res] = await Promise.all([acceptance, t.app.ctx.scheduler.runAll()]);
    const row = await taskRow(t, task.id);
    if (res.statusCode === 200) expect(row).toMatchObject({ status: "claimed", providerId: sam.id });
    else expect(row.status).toBe("open");
    expect(await noticesOf(poster, "task_claimed")).toHaveLength(res.statusCode === 200 ? 1 : 0);
    expect(await noticesOf(poster, "request_ended")).toHaveLength(res.statusCode === 200 ? 0 : 1);
  });

  // The poster's cancel takes the cancel_request row while the request waits, and the cancel row once
  // it was accepted, by the status it read: a cancel that read "requested" and lost to the accept is
  // refused (409), so the poster never cancels a claim they were not shown. Whatever the order, the
  // task is cancelled exactly when the cancel succeeded, and Sam hears of it exactly once, in the
  // words of what he had: a request (request_cancelled) or a claim (task_cancelled).
  it("accept against the poster's cancel", async () => {
    const poster = await createPoster(t);
    const sam = await createProvider(t);
    for (let round = 0; round < 3; round += 1) {
      const task = await postRequestTask(t, poster, sam);
      const [accepted, cancelled] = await Promise.all([accept(sam, task.id), call(t, poster, { method: "PATCH", url: `/api/tasks/${task.id}/cancel` })]);
      expect([200, 409]).toContain(accepted.statusCode);
      expect([200, 409]).toContain(cancelled.statusCode);
      expect(accepted.statusCode === 200 || cancelled.statusCode === 200).toBe(true);
      if (cancelled.statusCode === 409) {
        expect(message(cancelled)).toBe("Your request was answered or ran out just now. The task page shows what happened, and you can still cancel it from there.");
      }
      const row = await taskRow(t, task.id);
      expect(row.status).toBe(cancelled.statusCode === 200 ? "cancelled" : "claimed");
      expect(row.providerId).toBe(accepted.statusCode === 200 ? sam.id : null);
      const requestNotices = (await noticesOf(sam, "request_cancelled")).filter((n) => n.taskId === task.id);
      const claimNotices = (await noticesOf(sam, "task_cancelled")).filter((n) => n.taskId === task.id);
      expect(requestNotices).toHaveLength(accepted.statusCode === 409 ? 1 : 0);
      expect(claimNotices).toHaveLength(accepted.statusCode === 200 && cancelled.statusCode === 200 ? 1 : 0);
    }
  });
});

describe("the provider's list and the poster's cancel", () => {
  it("lists the request among the provider's jobs while it waits, and the poster may cancel it", async () => {
    const poster = await createPoster(t);
    const sam = await createProvider(t);
    const task = await postRequestTask(t, poster, sam);
    const jobs = (await call(t, sam, { url: "/api/tasks/my-jobs" })).json<{ id: string; status: string }[]>();
    expect(jobs.find((j) => j.id === task.id)?.status).toBe("requested");
    expect((await call(t, poster, { method: "PATCH", url: `/api/tasks/${task.id}/cancel` })).statusCode).toBe(200);
    expect((await taskRow(t, task.id)).status).toBe("cancelled");
    const after = (await call(t, sam, { url: "/api/tasks/my-jobs" })).json<{ id: string }[]>();
    expect(after.map((j) => j.id)).not.toContain(task.id);
  });

  it("tells the requested provider when the poster cancels: bell, e-mail and push, with the task's title", async () => {
    const poster = await createPoster(t, { firstName: "Pat", lastName: "Quinn" });
    const sam = await createProvider(t);
    const task = await postRequestTask(t, poster, sam);
    // Sam turns on notifications on one device after the request came: its first-device kinds include a cancelled request.
    const key = (await call(t, sam, { url: "/api/push/key" })).json<{ publicKey: string }>().publicKey;
    const device = await pushService.subscribe(key);
    expect((await call(t, sam, { method: "POST", url: "/api/push/subscriptions", payload: { endpoint: device.endpoint, keys: device.keys } })).statusCode).toBe(200);

    // Only the poster cancels: not the requested provider, another provider, or an admin.
    const admin = await createUser(t, { role: "admin" });
    for (const who of [sam, await createProvider(t), admin]) {
      const refused = await call(t, who, { method: "PATCH", url: `/api/tasks/${task.id}/cancel` });
      expect(refused.statusCode).toBe(403);
      expect(message(refused)).toBe("Only the task owner can cancel this task");
    }
    expect((await taskRow(t, task.id)).status).toBe("requested");

    const res = await call(t, poster, { method: "PATCH", url: `/api/tasks/${task.id}/cancel` });
    expect(res.statusCode).toBe(200);
    const row = await taskRow(t, task.id);
    expect(row.status).toBe("cancelled");
    expect(row.cancelledAt).not.toBeNull();

    const body = `Pat Q. cancelled their request for "${BASE_BODY.title}" before you answered. There is nothing to accept or decline now; you can find other tasks on the job board.`;
    const [notice] = await noticesOf(sam, "request_cancelled");
    expect(notice).toMatchObject({ title: "A request for you was cancelled", body, taskId: task.id });
    const mails = await t.database.db.select().from(emailOutbox).where(and(eq(emailOutbox.to, sam.email), eq(emailOutbox.kind, "request_cancelled")));
    expect(mails.map((m) => m.subject)).toEqual(["A request for you was cancelled"]);
    expect(mails[0]?.text).toContain(body);
    await vi.waitFor(async () => expect(await pushService.received(device)).toHaveLength(1), { timeout: 10_000, interval: 50 });
    const [push] = await pushService.received(device);
    expect(JSON.parse(push ?? "")).toEqual({ kind: "request_cancelled", title: "A request for you was cancelled", body, url: `/task/${task.id}` });
    // Nobody else is told: the poster did it.
    expect(await noticesOf(poster, "request_cancelled")).toHaveLength(0);
  });

  it("still posts a task for everyone the usual way", async () => {
    const poster = await createPoster(t);
    const task = await postTask(t, poster);
    expect(task).toMatchObject({ status: "open", requestedProviderId: null, requestExpiresAt: null, requestFallback: null });
  });
});
