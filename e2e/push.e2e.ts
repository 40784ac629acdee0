import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { startLocalPushService, type LocalSubscription } from "../test/fakes/local-push-service.js";
import { ALERT_NEAR_21401, taskNear21401 } from "../test/fixtures/task-bodies.js";
import { chromiumPath, DEMO, formatViolations, newPage, postAsDemoPoster, seriousAxeViolations, signIn, useServerAndBrowser } from "./harness.js";

// Issue 30, notifications that reach a closed tab (docs/product.md#chat-and-notifications, decision
// 062). The demo provider turns on notifications on this device in settings; the app is installable
// (Chromium's own installability check, as the installed Lighthouse 12 has no PWA category); a
// task the poster posts is pushed by the server to the device's push service, and that push,
// delivered to the page's service worker, shows a notification whose click opens the task.
//
// The test machine cannot reach a browser vendor's push service, so the page's PushManager is
// pointed at a push service on localhost (web-push-testing): the server encrypts and signs for it
// exactly as for FCM, and the test hands what it received to the service worker through the
// DevTools protocol (ServiceWorker.deliverPushMessage).

const service = await startLocalPushService();
afterAll(() => service.close());
const e2e = useServerAndBrowser({ PUSH_SERVICE_HOSTS: "localhost" });

const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000, interval: 100 });
const scrollsSideways = (p: Page) => p.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

async function expectAxeClean(p: Page, label: string) {
  const violations = await seriousAxeViolations(p);
  expect(violations, `${label}: ${formatViolations(violations)}`).toEqual([]);
}

/** The browser's side of a push service, played by the local one: subscribe and getSubscription. */
async function pointPushAtLocalService(context: BrowserContext, devices: Map<string, LocalSubscription>) {
  await context.exposeFunction("localPushSubscribe", async (applicationServerKey: string) => {
    const device = await service.subscribe(applicationServerKey);
    devices.set(device.endpoint, device);
    return { endpoint: device.endpoint, keys: device.keys };
  });
  await context.addInitScript(() => {
    if (!("PushManager" in window)) return;
    const local = window as unknown as { localPushSubscribe(key: string): Promise<{ endpoint: string; keys: Record<string, string> }> };
    let current: PushSubscription | null = null;
    PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
      const json = await local.localPushSubscribe(String(options?.applicationServerKey));
      current = {
        endpoint: json.endpoint,
        expirationTime: null,
        options: { userVisibleOnly: true, applicationServerKey: null },
        getKey: () => null,
        toJSON: () => ({ endpoint: json.endpoint, expirationTime: null, keys: json.keys }),
        unsubscribe: () => {
          current = null;
          return Promise.resolve(true);
        },
      } as PushSubscription;
      return current;
    };
    PushManager.prototype.getSubscription = function () {
      return Promise.resolve(current);
    };
  });
}

describe("notifications on a device", () => {
  for (const width of [390, 1366]) {
    it(`turns on push, is installable, and a pushed task opens from its notification at ${width} px`, async () => {
      const devices = new Map<string, LocalSubscription>();
      // A profile on disk: Chromium never offers to install from an incognito context, which newContext() is.
      const executablePath = chromiumPath();
      // The whole browser: the journeys' headless shell has no push service or notifications (decision 084).
      const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), "h-push-profile-")), {
        ...(executablePath ? { executablePath } : { channel: "chromium" }),
        headless: true,
        args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
        viewport: { width, height: 900 },
        permissions: ["notifications"],
      });
      await pointPushAtLocalService(context, devices);
      const provider = await newPage(context);
      await signIn(provider, e2e.server.url, DEMO.provider, DEMO.password, "/settings/notifications");
      const turnOn = provider.getByRole("button", { name: "Turn on notifications on this device" });
      await eventually(() => turnOn.isVisible()).toBe(true);

      // The worker is registered once the page is idle, and Chromium finds nothing missing to install the app.
      await eventually(() => provider.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state ?? null)).toBe("activated");
      const cdp = await context.newCDPSession(provider);
      const installability = await cdp.send("Page.getInstallabilityErrors");
      expect(installability.installabilityErrors).toEqual([]);

      expect(await scrollsSideways(provider)).toBe(false);
      await expectAxeClean(provider, `settings, push off, ${width}px`);
      await provider.screenshot({ path: `/tmp/h-shots/push-off-${width}.png`, fullPage: true });

      await turnOn.click();
      await eventually(() => provider.getByText("Notifications are on for this device.").isVisible()).toBe(true);
      // The first device turns on the kinds people act on, a new task for one's alerts among them.
      await eventually(() => provider.getByRole("switch", { name: /A new task matches my job alerts.*\(by push\)$/ }).getAttribute("aria-checked")).toBe("true");
      expect(devices.size).toBe(1);
      await expectAxeClean(provider, `settings, push on, ${width}px`);
      expect(await scrollsSideways(provider)).toBe(false);
      await provider.screenshot({ path: `/tmp/h-shots/push-on-${width}.png`, fullPage: true });

      // A matching task is posted; the server pushes it to the device's push service.
      await e2e.api(provider, "PUT", "/api/alerts", { alerts: [ALERT_NEAR_21401] });
      const title = `Walk Biscuit at ${width}`;
      const { task } = await postAsDemoPoster(e2e, taskNear21401({ title }));
      const [device] = devices.values();
      if (!device) throw new Error("no device subscribed");
      await eventually(async () => (await service.received(device)).length).toBe(1);
      const [payload = ""] = await service.received(device);
      expect(JSON.parse(payload)).toMatchObject({ kind: "task_alert", url: `/task/${task.id}` });

      // The push reaches the page's service worker, which shows it.
      const registered = new Promise<string>((resolve) => {
        cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
          const ours = registrations.find((r) => r.scopeURL.startsWith(e2e.server.url) && !r.isDeleted);
          if (ours) resolve(ours.registrationId);
        });
      });
      await cdp.send("ServiceWorker.enable");
      const registrationId = await registered;
      const deliver = () => cdp.send("ServiceWorker.deliverPushMessage", { origin: e2e.server.url, registrationId, data: payload });
      await deliver();
      // Read from the page, which holds the same registration whether or not the worker is running
      // at that moment. On a loaded CI machine one delivery once showed nothing within 20 s; a push
      // service retries what it could not hand over, and so does this loop (the tag keeps it one).
      const shown = async () => {
        const notifications = await provider.evaluate(async () => {
          const registration = await navigator.serviceWorker.getRegistration();
          return (await registration?.getNotifications())?.map((n) => ({ title: n.title, url: (n.data as { url: string }).url })) ?? [];
        });
        if (notifications.length === 0) await deliver();
        return notifications;
      };
      await eventually(shown).toEqual([{ title: expect.stringContaining(title), url: `/task/${task.id}` }]);

      // Its click (the handler's own function) brings the open tab to the task.
      const worker = context.serviceWorkers().at(-1) ?? (await context.waitForEvent("serviceworker"));
      await worker.evaluate(async () => {
        const sw = self as unknown as { registration: ServiceWorkerRegistration; openPage(url: string): Promise<unknown> };
        const [notification] = await sw.registration.getNotifications();
        if (notification) await sw.openPage((notification.data as { url: string }).url);
      });
      await eventually(() => new URL(provider.url()).pathname).toBe(`/task/${task.id}`);
      await eventually(() => provider.getByRole("heading", { name: title }).isVisible()).toBe(true);
      // The sign-in page asks who is signed in before anyone is: its 401 is expected.
      provider.assertClean([/401 \(Unauthorized\)/]);
      await context.close();
    });
  }
});
