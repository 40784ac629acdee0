import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import nodemailer from "nodemailer";
import type { Db } from "../../db/client.js";
import { emailOutbox } from "../../db/schema/site.js";
import type { Mailer } from "./mailer.js";
import { deleteUnsentMail, insertMail, insertUserMail } from "./outbox.js";

// With SMTP_URL: queued mail is sent by a delivery pass that claims its rows, so two instances
// never send the same mail twice, and retries with a growing delay (docs/decisions/011-email-outbox.md).

/** A row left in "sending" this long was claimed by an instance that died mid-delivery. */
export const STUCK_SENDING_MS = 10 * 60_000;
/** After this many failed attempts (about 1.5 days of retrying) a mail is marked failed. */
export const MAIL_MAX_ATTEMPTS = 10;
const BATCH = 50;

/** Wait before the next attempt after `attempts` failures: 1 min doubling, at most 6 h. */
export function retryDelayMs(attempts: number): number {
  return Math.min(6 * 3_600_000, 60_000 * 2 ** Math.max(0, attempts - 1));
}

export interface SmtpMailerOptions {
  db: Db;
  smtpUrl: string;
  from: string;
  log: FastifyBaseLogger;
  now?: () => Date;
}

export function createSmtpMailer(options: SmtpMailerOptions): Mailer {
  const { db, log } = options;
  const now = options.now ?? (() => new Date());
  const transporter = nodemailer.createTransport(options.smtpUrl);
  return {
    transport: "smtp",
    // The delivery pass finds what is queued; nothing to say meanwhile.
    async queue(tx, mail) {
      await insertMail(tx, mail, "queued");
    },
    async queueForUser(tx, mail, alongside) {
      return (await insertUserMail(tx, mail, "queued", alongside)) !== null;
    },
    withdrawUnsent: deleteUnsentMail,
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
          await transporter.sendMail({
            from: options.from,
            to: mail.to,
            subject: mail.subject,
            text: mail.text,
            // A task's invitation rides along as an .ics file (docs/decisions/074-time-and-turning-up.md).
            attachments: (mail.attachments ?? []).map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content })),
          });
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
