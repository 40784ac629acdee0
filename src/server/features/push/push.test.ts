import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";
import { call, createUser, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import { postTaskForm, providerWithAlert } from "../../../../test/fixtures/factory.js";
import { taskNear21401 } from "../../../../test/fixtures/task-bodies.js";
import { startLocalPushService, type LocalSubscription } from "../../../../test/fakes/local-push-service.js";
import { pushOutbox, pushSubscriptions } from "../../db/schema/push.js";
import { deliverQueuedPushes } from "./delivery.js";

// Web Push (docs/decisions/062-web-push-and-installable-app.md) against a push service on localhost:
// a posted task reaches a matching provider's device within the test, opt-outs hold, a device
// the push service says is gone is forgotten, and only push services' addresses are taken.

const t = await useTestApp({ PUSH_SERVICE_HOSTS: "localhost" });
const service = await startLocalPushService();
afterAll(() => service.close());

const post = (poster: TestUser) => postTaskForm(t, poster, taskNear21401());

const publicKey = async (user: TestUser) => {
  const res = await call(t, user, { url: "/api/push/key" });
  expect(res.statusCode).toBe(200);
  const key = res.json<{ publicKey: string | null }>().publicKey;
  if (!key) throw new Error("push is disabled in the test app");
  return key;
};

/** A provider with a job alert around Annapolis and one device subscribed. */
async function alertedProviderWithDevice(): Promise<{ provider: TestUser; device: LocalSubscription }> {
  const provider = await providerWithAlert(t);
  const device = await service.subscribe(await publicKey(provider));
  const res = await call(t, provider, { method: "POST", url: "/api/push/subscriptions", payload: { endpoint: device.endpoint, keys: device.keys } });
  expect(res.statusCode, res.body).toBe(200);
  return { provider, device };
}

const devicesOf = (user: TestUser) => t.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, user.id));

describe("Web Push", () => {
  it("pushes a matching job alert to the provider's device within seconds of the post", async () => {
    const { device } = await alertedProviderWithDevice();
    const task = await post(await createUser(t));
    // Sent after commit by the instance that hears push_outbox: nothing here runs the scheduler.
    await vi.waitFor(async () => expect(await service.received(device)).toHaveLength(1), { timeout: 10_000, interval: 50 });
    const [payload] = await service.received(device);
    expect(JSON.parse(payload ?? "")).toEqual({
      kind: "task_alert",
      title: "New task near you: Walk the dog · $40 · 3.3 mi",
      body: "Pet Care in Annapolis, MD",
      url: `/task/${task.id}`,
    });
  });

  it("turns on the kinds people act on with the first device, and respects a kind turned off", async () => {
    const { provider: wants, device: wanted } = await alertedProviderWithDevice();
    const { provider: declines, device: declined } = await alertedProviderWithDevice();
    const prefs = (await call(t, declines, { url: "/api/notifications/preferences" })).json();
    expect(prefs.push).toMatchObject({
      task_alert: true,
      task_claimed: true,
      offer_received: true,
      question_asked: true,
      question_answered: true,
      payment_received: true,
      chat_message: true,
      work_started: false,
    });
    const off = await call(t, declines, { method: "PUT", url: "/api/notifications/preferences", payload: { push: { task_alert: false } } });
    expect(off.json().push.task_alert).toBe(false);
    // The e-mail choices are untouched by a push change.
    expect(off.json().email.task_alert).toBe(true);
    expect((await call(t, wants, { url: "/api/notifications/preferences" })).json().push.task_alert).toBe(true);

    await post(await createUser(t));
    await vi.waitFor(async () => expect(await service.received(wanted)).toHaveLength(1), { timeout: 10_000, interval: 50 });
    // Every push queued so far has gone out (a push for the declined device would be among them).
    await deliverQueuedPushes(t.app.ctx, t.app.ctx.push);
    await vi.waitFor(async () => expect(await t.database.db.select().from(pushOutbox)).toEqual([]), { timeout: 10_000, interval: 50 });
    expect(await service.received(declined)).toEqual([]);
  });

  it("forgets a device its push service says is gone (410)", async () => {
    const { provider, device } = await alertedProviderWithDevice();
    await service.expire(device);
    expect(await devicesOf(provider)).toHaveLength(1);
    await post(await createUser(t));
    await vi.waitFor(async () => expect(await devicesOf(provider)).toHaveLength(0), { timeout: 10_000, interval: 50 });
  });

  it("takes only a push service's address, and lets a person remove only their own device", async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const device = await service.subscribe(await publicKey(user));
    const subscribe = (who: TestUser | null, endpoint: string) =>
      call(t, who, { method: "POST", url: "/api/push/subscriptions", payload: { endpoint, keys: device.keys } });

    expect((await subscribe(null, device.endpoint)).statusCode).toBe(401);
    // The server would post to whatever is stored: an internal address is refused, under its field.
    for (const endpoint of ["http://169.254.169.254/latest/meta-data", "https://evil.example/push", "http://fcm.googleapis.com/send/x"]) {
      const res = await subscribe(user, endpoint);
      expect(res.statusCode, endpoint).toBe(400);
      expect(res.json().fieldErrors.endpoint).toMatch(/push service is not one this server sends to/);
    }
    const badKeys = await call(t, user, { method: "POST", url: "/api/push/subscriptions", payload: { endpoint: device.endpoint, keys: { p256dh: "not base64!", auth: "" } } });
    expect(badKeys.statusCode).toBe(400);
    expect(badKeys.json().fieldErrors).toHaveProperty(["keys.p256dh"]);

    expect((await subscribe(user, device.endpoint)).statusCode).toBe(200);
    // Someone else's endpoint changes nothing.
    const foreign = await call(t, other, { method: "DELETE", url: "/api/push/subscriptions", payload: { endpoint: device.endpoint } });
    expect(foreign.statusCode).toBe(200);
    expect(await devicesOf(user)).toHaveLength(1);
    const own = await call(t, user, { method: "DELETE", url: "/api/push/subscriptions", payload: { endpoint: device.endpoint } });
    expect(own.statusCode).toBe(200);
    expect(await devicesOf(user)).toHaveLength(0);
  });
});
