import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { PushPayload } from "../../../shared/push.js";
import type { NotificationKind } from "../../../shared/notifications.js";
import type { PushSender } from "../../adapters/push/push-sender.js";
import type { AppContext } from "../../context.js";
import { pushOutbox, pushSubscriptions } from "../../db/schema/push.js";

// Sends the queued pushes (docs/decisions/062-web-push-and-installable-app.md). notifyUser writes
// them in the notice's transaction and NOTIFYs push_outbox; every instance listens and runs a pass,
// claiming rows with FOR UPDATE SKIP LOCKED so each push goes once. The scheduler's pass retries.

/** A row left in "sending" this long was claimed by an instance that died mid-send. */
const STUCK_SENDING_MS = 5 * 60_000;
/** Pushes are about things happening now: after this many failed attempts (about 15 minutes) the push is dropped. */
export const PUSH_MAX_ATTEMPTS = 5;
const BATCH = 50;

/** Wait before the next attempt after `attempts` failures: 1 minute doubling. */
const retryDelayMs = (attempts: number) => 60_000 * 2 ** Math.max(0, attempts - 1);

export async function deliverQueuedPushes(ctx: Pick<AppContext, "db" | "now" | "log">, sender: PushSender): Promise<number> {
  if (sender.mode === "disabled") return 0;
  const { db } = ctx;
  const at = ctx.now();
  await db
    .update(pushOutbox)
    .set({ status: "queued", claimedAt: null })
    .where(and(eq(pushOutbox.status, "sending"), lt(pushOutbox.claimedAt, new Date(at.getTime() - STUCK_SENDING_MS))));
  const claimed = await db
    .update(pushOutbox)
    .set({ status: "sending", claimedAt: at })
    .where(
      inArray(
        pushOutbox.id,
        sql`(select id from push_outbox where status = 'queued'
               and (next_attempt_at is null or next_attempt_at <= ${at.toISOString()}::timestamptz)
             order by created_at limit ${BATCH} for update skip locked)`,
      ),
    )
    .returning();
  if (claimed.length === 0) return 0;
  const devices = await db
    .select()
    .from(pushSubscriptions)
    .where(inArray(pushSubscriptions.id, [...new Set(claimed.map((push) => push.subscriptionId))]));
  const byId = new Map(devices.map((device) => [device.id, device]));
  let sent = 0;
  for (const push of claimed) {
    const device = byId.get(push.subscriptionId);
    if (!device) continue;
    const payload: PushPayload = { title: push.title, body: push.body, url: push.url, kind: push.kind as NotificationKind };
    try {
      const result = await sender.send(device, JSON.stringify(payload));
      if (result === "gone") {
        // The browser dropped the subscription: forget the device (its queued pushes go with it).
        await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, device.id));
        byId.delete(device.id);
        continue;
      }
      await db.delete(pushOutbox).where(eq(pushOutbox.id, push.id));
      sent += 1;
    } catch (err) {
      const attempts = push.attempts + 1;
      const giveUp = attempts >= PUSH_MAX_ATTEMPTS;
      ctx.log.warn({ err, id: push.id, attempts }, giveUp ? "push delivery failed for good; dropped" : "push delivery failed; will retry");
      if (giveUp) {
        await db.delete(pushOutbox).where(eq(pushOutbox.id, push.id));
      } else {
        await db
          .update(pushOutbox)
          .set({ status: "queued", attempts, claimedAt: null, nextAttemptAt: new Date(at.getTime() + retryDelayMs(attempts)) })
          .where(eq(pushOutbox.id, push.id));
      }
    }
  }
  return sent;
}

/**
 * Runs a pass when told (a NOTIFY after commit): one at a time per instance, and a call during a
 * pass runs one more after it, so a push queued meanwhile is not left for the scheduler.
 */
export class PushDrain {
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly pass: () => Promise<unknown>,
    private readonly log: AppContext["log"],
  ) {}

  kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.pass();
      } while (this.again);
    })()
      .catch((err: unknown) => this.log.error({ err }, "push delivery pass failed"))
      .finally(() => {
        this.running = null;
      });
  }

  /** Resolves when no pass is running (shutdown). */
  async settled(): Promise<void> {
    await this.running;
  }
}
