import webpush from "web-push";
import type { PushSender } from "./push-sender.js";

/** How long a push service keeps a push for a device that is offline: a day (the events go stale). */
const TIME_TO_LIVE_SECONDS = 24 * 3600;
const SEND_TIMEOUT_MS = 10_000;

/**
 * The web-push package encrypts and signs (RFC 8291, VAPID); the request itself goes through
 * fetch, so it has the server's one HTTP client, a timeout, and no redirects followed (the
 * endpoint's host was checked when the device subscribed, features/push/repository.ts).
 */
export function createWebPushSender(options: { publicKey: string; privateKey: string; subject: string }): PushSender {
  // Checked here, once, so bad keys turn push off at start-up rather than failing every send.
  webpush.getVapidHeaders("https://push.example", options.subject, options.publicKey, options.privateKey, "aes128gcm");
  const vapidDetails = { subject: options.subject, publicKey: options.publicKey, privateKey: options.privateKey };
  return {
    mode: "web-push",
    publicKey: options.publicKey,
    async send(target, payload) {
      const request = webpush.generateRequestDetails({ endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } }, payload, {
        vapidDetails,
        TTL: TIME_TO_LIVE_SECONDS,
        urgency: "high",
        contentEncoding: "aes128gcm",
      });
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
      const res = await fetch(request.endpoint, {
        method: request.method,
        headers,
        body: new Uint8Array(request.body),
        redirect: "manual",
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      });
      // RFC 8030: 404 and 410 mean the subscription expired or was withdrawn.
      if (res.status === 404 || res.status === 410) return "gone";
      if (res.status < 200 || res.status >= 300) throw new Error(`The push service answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
      return "sent";
    },
  };
}
