import { and, count, eq } from "drizzle-orm";
import { PUSH_KINDS_ON_FIRST_DEVICE, type PushSubscriptionBody } from "../../../shared/push.js";
import type { Db } from "../../db/client.js";
import { pushOptIns, pushSubscriptions } from "../../db/schema/push.js";
import type { Env } from "../../config/env.js";
import { fieldError } from "../../http-errors.js";

// Devices a person turned notifications on for (docs/decisions/062-web-push-and-installable-app.md).

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** A host in PUSH_SERVICE_HOSTS ("*.example.com" matches its subdomains). */
function listedHost(host: string, allowed: readonly string[]): boolean {
  return allowed.some((entry) => (entry.startsWith("*.") ? host.endsWith(entry.slice(1)) : host === entry));
}

/**
 * The server posts to whatever endpoint is stored, so only a push service's address is taken:
 * https to a listed host, or http to a listed loopback host (a local push service in tests).
 */
export function assertPushServiceEndpoint(endpoint: string, env: Pick<Env, "PUSH_SERVICE_HOSTS">): void {
  const url = new URL(endpoint);
  const host = url.hostname.toLowerCase();
  const secure = url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK.has(host));
  if (!secure || url.username || url.password || !listedHost(host, env.PUSH_SERVICE_HOSTS)) {
    throw fieldError(
      "endpoint",
      "This browser's push service is not one this server sends to. Turn notifications on from Chrome, Edge, Firefox or Safari, or ask the site's operator to add it.",
    );
  }
}

/**
 * Keeps the device's subscription for the user. The endpoint is the device's: if another account
 * signed in on it before, the device now belongs to this one. A person's first device turns on the
 * kinds people act on (PUSH_KINDS_ON_FIRST_DEVICE) unless they already chose some.
 */
export async function saveSubscription(db: Db, userId: string, body: PushSubscriptionBody): Promise<void> {
  await db.transaction(async (tx) => {
    const [chosen] = await tx.select({ n: count() }).from(pushOptIns).where(eq(pushOptIns.userId, userId));
    const [devices] = await tx.select({ n: count() }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
    await tx
      .insert(pushSubscriptions)
      .values({ userId, endpoint: body.endpoint, p256dh: body.keys.p256dh, auth: body.keys.auth })
      .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: { userId, p256dh: body.keys.p256dh, auth: body.keys.auth } });
    if (chosen?.n === 0 && devices?.n === 0) {
      await tx.insert(pushOptIns).values(PUSH_KINDS_ON_FIRST_DEVICE.map((kind) => ({ userId, kind }))).onConflictDoNothing();
    }
  });
}

/** Forgets the device, if it is the caller's; someone else's endpoint changes nothing. */
export async function deleteSubscription(db: Db, userId: string, endpoint: string): Promise<void> {
  await db.delete(pushSubscriptions).where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)));
}
