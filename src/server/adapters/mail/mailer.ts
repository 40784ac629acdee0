import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import nodemailer from "nodemailer";
import type { Db } from "../../db/client.js";
import { emailOutbox } from "../../db/schema/site.js";

// Every e-mail is first written to the outbox table, inside the caller's transaction when it has
// one, so a notification is never lost to a crash between "decided" and "sent". Without SMTP_URL
// the outbox is where it stays (admins read it in the app) plus a log line; with SMTP_URL a
// delivery pass sends what is queued (docs/decisions/011-email-outbox.md).

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  /** What it is about, for opt-outs and the admin outbox view: "application_decided", … */
  kind: string;
}

export interface Mailer {
  readonly transport: "outbox" | "smtp";
  /** Queues the mail in the outbox using `db` (pass a transaction to make it atomic). */
  queue(db: Db, mail: OutgoingMail): Promise<void>;
  /** Sends what is queued; a no-op for the outbox-only transport. */
  deliverQueued(): Promise<number>;
  close(): void;
}

/** A row left in "sending" this long was claimed by an instance that died mid-delivery. */
export const STUCK_SENDING_MS = 10 * 60_000;
/** After this many failed attempts (about 1.5 days of retrying) a mail is marked failed. */
export const MAIL_MAX_ATTEMPTS = 10;
const BATCH = 50;

/** Wait before the next attempt after `attempts` failures: 1 min doubling, at most 6 h. */
export function retryDelayMs(attempts: number): number {
  return Math.min(6 * 3_600_000, 60_000 * 2 ** Math.max(0, attempts - 1));
}

export function createMailer(options: {
  db: Db;
  smtpUrl: string | undefined;
  from: string;
  log: FastifyBaseLogger;
  now?: () => Date;
}): Mailer {
  const { db, log } = options;
  const now = options.now ?? (() => new Date());
  if (!options.smtpUrl) {
    return {
      transport: "outbox",
      async queue(tx, mail) {
        await tx.insert(emailOutbox).values({ ...mail, status: "stored" });
        log.info({ to: mail.to, subject: mail.subject, kind: mail.kind }, "e-mail stored in outbox (no SMTP_URL)");
      },
      async deliverQueued() {
        return 0;
      },
      close() {},
    };
  }

  const transporter = nodemailer.createTransport(options.smtpUrl);
  return {
    transport: "smtp",
    async queue(tx, mail) {
      await tx.insert(emailOutbox).values({ ...mail, status: "queued" });
    },
    async deliverQueued() {
      // A claim older than STUCK_SENDING_MS belongs to an instance that died mid-send: requeue it.
      await db
        .update(emailOutbox)
        .set({ status: "queued", claimedAt: null })
        .where(and(eq(emailOutbox.status, "sending"), lt(emailOutbox.claimedAt, new Date(now().getTime() - STUCK_SENDING_MS))));
      // Claim due rows atomically so two instances never send the same mail twice.
      const at = now();
      const claimed = await db
        .update(emailOutbox)
        .set({ status: "sending", claimedAt: at })
        .where(
          and(
            eq(emailOutbox.status, "queued"),
            inArray(
              emailOutbox.id,
              sql`(select id from email_outbox where status = 'queued'
                     and (next_attempt_at is null or next_attempt_at <= ${at.toISOString()})
                   order by created_at limit ${BATCH} for update skip locked)`,
            ),
          ),
        )
        .returning();
      for (const mail of claimed) {
        try {
          await transporter.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text });
          await db
            .update(emailOutbox)
            .set({ status: "sent", sentAt: now(), claimedAt: null, nextAttemptAt: null, error: null })
            .where(eq(emailOutbox.id, mail.id));
        } catch (err) {
          const attempts = mail.attempts + 1;
          const giveUp = attempts >= MAIL_MAX_ATTEMPTS;
          log.warn({ err, id: mail.id, attempts }, giveUp ? "e-mail delivery failed for good" : "e-mail delivery failed; will retry");
          await db
            .update(emailOutbox)
            .set({
              status: giveUp ? "failed" : "queued",
              attempts,
              claimedAt: null,
              nextAttemptAt: giveUp ? null : new Date(now().getTime() + retryDelayMs(attempts)),
              error: err instanceof Error ? err.message : String(err),
            })
            .where(eq(emailOutbox.id, mail.id));
        }
      }
      return claimed.length;
    },
    close() {
      transporter.close();
    },
  };
}
