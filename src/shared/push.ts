import { z } from "zod";
import { NOTIFICATION_KIND_LABELS, type NotificationKind } from "./notifications.js";

// Web Push (docs/product.md#chat-and-notifications, docs/decisions/062-web-push-and-installable-app.md).

/** What the server says about push: its VAPID public key, or null when push is off on this server. */
export const pushKeySchema = z.object({ publicKey: z.string().nullable() });
export type PushKey = z.infer<typeof pushKeySchema>;

const base64Url = (field: string, max: number) =>
  z
    .string({ error: `${field} is required` })
    .min(1, { error: `${field} is required` })
    .max(max, { error: `${field} must be at most ${max} characters` })
    .regex(/^[A-Za-z0-9_-]+=*$/, { error: `${field} must be base64url text, as the browser's subscription gives it` });

/** The browser's PushSubscription.toJSON(), as the web sends it. */
export const pushSubscriptionBodySchema = z.object({
  endpoint: z
    .url({ error: "endpoint must be the push service URL the browser gave" })
    .max(1000, { error: "endpoint must be at most 1000 characters" }),
  keys: z.object({ p256dh: base64Url("keys.p256dh", 200), auth: base64Url("keys.auth", 100) }),
});
export type PushSubscriptionBody = z.infer<typeof pushSubscriptionBodySchema>;

export const pushUnsubscribeBodySchema = pushSubscriptionBodySchema.pick({ endpoint: true });

/** What a push carries to the service worker (public/sw.js reads it). */
export interface PushPayload {
  title: string;
  body: string;
  /** A path of this site: the page a click opens. */
  url: string;
  kind: NotificationKind;
}

/**
 * The kinds turned on when a person turns on notifications for their first device: the events
 * people act on (docs/product.md). Every other kind stays off until they turn it on.
 */
export const PUSH_KINDS_ON_FIRST_DEVICE = [
  "task_alert",
  "task_claimed",
  "offer_received",
  "question_asked",
  "question_answered",
  "payment_received",
  "chat_message",
  "task_requested",
  // Its counterpart: the request the provider was weighing is gone (decision 065).
  "request_cancelled",
  // Time and turning up (decision 074): a booking, a reminder, a new time to answer, the provider on the way or late.
  "task_booked",
  "task_reminder",
  "time_proposed",
  "provider_on_way",
  "provider_late",
] as const satisfies readonly NotificationKind[];

/** A kind's switch in the push list: its e-mail wording, but a job alert's push is not the 15-minute digest. */
export function pushKindLabel(kind: NotificationKind): string {
  return kind === "task_alert" ? "A new task matches my job alerts (within seconds of its posting)" : NOTIFICATION_KIND_LABELS[kind];
}
