import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";
import { pushSubscriptionBodySchema } from "@shared/push";
import { errorMessage } from "@/lib/api";
import { notificationPreferencesQueryKey } from "../api/get-notification-preferences";
import { deletePushSubscription, savePushSubscription, usePushKey } from "../api/push-device";

// This device's push state (docs/product.md#chat-and-notifications): the browser is asked for
// permission only when the person presses "Turn on", never on page load.

export type PushDeviceState =
  | { status: "checking" }
  | { status: "unsupported" }
  | { status: "server-off" }
  | { status: "blocked" }
  | { status: "off"; problem: string | null }
  | { status: "on" };

const supported = () => typeof window !== "undefined" && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

async function registration(): Promise<ServiceWorkerRegistration> {
  // The app registers it after the first load; on a fast click it may not be there yet.
  await navigator.serviceWorker.register("/sw.js");
  return navigator.serviceWorker.ready;
}

/**
 * How long the browser's push service may take to give a subscription. A browser that cannot reach
 * it (offline, a network that blocks it, a browser without one) may never answer, and the button
 * would stay greyed forever with nothing said (issue 41); past this the person is told what to do.
 */
export const PUSH_SERVICE_TIMEOUT_MS = 20_000;

const PUSH_SERVICE_UNREACHABLE =
  "This browser could not reach its push service, so it cannot receive notifications while closed. Check your connection and press the button again, or use another browser. You still get every notice in the bell and by e-mail.";

/** The subscription, or null when the push service refused or did not answer in time. */
async function subscribe(publicKey: string): Promise<PushSubscription | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), PUSH_SERVICE_TIMEOUT_MS);
  });
  const subscription = (async () => {
    const sw = await registration();
    return sw.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: publicKey });
  })().catch(() => null);
  try {
    return await Promise.race([subscription, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The browser's subscription as the API takes it. */
function asBody(subscription: PushSubscription) {
  return pushSubscriptionBodySchema.parse(subscription.toJSON());
}

export function usePushDevice() {
  const key = usePushKey();
  const queryClient = useQueryClient();
  const [device, setState] = useState<PushDeviceState>({ status: "checking" });
  const [busy, setBusy] = useState(false);
  const publicKey = key.data?.publicKey;
  const ready = supported() && typeof publicKey === "string" && Notification.permission !== "denied";

  useEffect(() => {
    if (!ready) return;
    let cancelled = false;
    void (async () => {
      const existing = await (await navigator.serviceWorker.getRegistration())?.pushManager.getSubscription();
      if (cancelled) return;
      if (!existing) return setState({ status: "off", problem: null });
      // The device may have been someone else's on this account's last visit: it is this person's now.
      await savePushSubscription(asBody(existing)).catch(() => undefined);
      if (!cancelled) setState({ status: "on" });
    })();
    return () => {
      cancelled = true;
    };
  }, [ready]);

  // What the browser and the server say comes first; then what this device's check found.
  const state: PushDeviceState = !supported()
    ? { status: "unsupported" }
    : !key.data
      ? { status: "checking" }
      : publicKey === null
        ? { status: "server-off" }
        : Notification.permission === "denied"
          ? { status: "blocked" }
          : device;

  const turnOn = useCallback(async () => {
    if (!publicKey) return;
    setBusy(true);
    try {
      const permission = await Notification.requestPermission();
      if (permission === "denied") return setState({ status: "blocked" });
      if (permission !== "granted") {
        return setState({ status: "off", problem: "Notifications were not allowed. Press the button again and choose Allow when your browser asks." });
      }
      // Only the push service is timed: the permission prompt above waits for the person.
      const subscription = await subscribe(publicKey);
      if (!subscription) return setState({ status: "off", problem: PUSH_SERVICE_UNREACHABLE });
      await savePushSubscription(asBody(subscription));
      await queryClient.invalidateQueries({ queryKey: notificationPreferencesQueryKey });
      setState({ status: "on" });
    } catch (err) {
      setState({ status: "off", problem: errorMessage(err, "Notifications could not be turned on. Please try again.") });
    } finally {
      setBusy(false);
    }
  }, [publicKey, queryClient]);

  const turnOff = useCallback(async () => {
    setBusy(true);
    try {
      const subscription = await (await navigator.serviceWorker.getRegistration())?.pushManager.getSubscription();
      if (subscription) {
        await deletePushSubscription(subscription.endpoint);
        await subscription.unsubscribe();
      }
      setState({ status: "off", problem: null });
    } catch (err) {
      setState({ status: "off", problem: errorMessage(err, "Notifications could not be turned off. Please try again.") });
    } finally {
      setBusy(false);
    }
  }, []);

  return { state, busy, turnOn, turnOff };
}
