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
const BATCH = 50;

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
      // While a row is "sending", sentAt holds when it was claimed (the table has no column of its
      // own for it); a claim older than STUCK_SENDING_MS goes back to the queue.
      await db
        .update(emailOutbox)
        .set({ status: "queued", sentAt: null })
        .where(and(eq(emailOutbox.status, "sending"), lt(emailOutbox.sentAt, new Date(now().getTime() - STUCK_SENDING_MS))));
      // Claim rows atomically so two instances never send the same mail twice.
      const claimed = await db
        .update(emailOutbox)
        .set({ status: "sending", sentAt: now() })
        .where(
          and(
            eq(emailOutbox.status, "queued"),
            inArray(
              emailOutbox.id,
              sql`(select id from email_outbox where status = 'queued' order by created_at limit ${BATCH} for update skip locked)`,
            ),
          ),
        )
        .returning();
      for (const mail of claimed) {
        try {
          await transporter.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text });
          await db.update(emailOutbox).set({ status: "sent", sentAt: now(), error: null }).where(eq(emailOutbox.id, mail.id));
        } catch (err) {
          log.warn({ err, id: mail.id }, "e-mail delivery failed; will retry");
          await db
            .update(emailOutbox)
            .set({ status: "queued", sentAt: null, error: err instanceof Error ? err.message : String(err) })
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
