import { eq } from "drizzle-orm";
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

export function createMailer(options: { db: Db; smtpUrl: string | undefined; from: string; log: FastifyBaseLogger }): Mailer {
  const { db, log } = options;
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
      // Claim rows atomically so two instances never send the same mail twice.
      const claimed = await db
        .update(emailOutbox)
        .set({ status: "sending" })
        .where(eq(emailOutbox.status, "queued"))
        .returning();
      for (const mail of claimed) {
        try {
          await transporter.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text });
          await db.update(emailOutbox).set({ status: "sent", sentAt: new Date(), error: null }).where(eq(emailOutbox.id, mail.id));
        } catch (err) {
          log.warn({ err, id: mail.id }, "e-mail delivery failed; will retry");
          await db
            .update(emailOutbox)
            .set({ status: "queued", error: err instanceof Error ? err.message : String(err) })
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
