// Web Push (docs/decisions/062-web-push-and-installable-app.md): the port the push delivery pass
// sends through. create-push-sender.ts picks the adapter: real Web Push signed with the VAPID keys
// (web-push-sender.ts), or "disabled" when no keys could be had, so the rest of the product runs on.

/** A device's subscription as the browser's PushSubscription.toJSON() gives it. */
export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** "sent": the push service took it; "gone": it answered 404 or 410, the subscription is dead. */
export type PushResult = "sent" | "gone";

export interface PushSender {
  readonly mode: "web-push" | "disabled";
  /** The VAPID public key browsers subscribe with; null when disabled. */
  readonly publicKey: string | null;
  /** Encrypts `payload` for the device and posts it to its push service; throws on any other failure. */
  send(target: PushTarget, payload: string): Promise<PushResult>;
}
