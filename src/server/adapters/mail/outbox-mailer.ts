import type { FastifyBaseLogger } from "fastify";
import type { Mailer, OutgoingMail } from "./mailer.js";
import { deleteUnsentMail, insertMail, insertUserMail } from "./outbox.js";

/** The addresses in a mail's text: what a person running the product locally needs to follow. */
export function linksIn(text: string): string[] {
  return text.match(/https?:\/\/[^\s<>"]+/g) ?? [];
}

/**
 * Without SMTP_URL: mail is stored in the outbox for admins to read, and logged; nothing is sent.
 * With `logLinks` (development only: the links are one-time sign-in and reset secrets) the log line
 * carries the mail's links, so a person running the product locally can open them.
 */
export function createOutboxMailer(options: { log: FastifyBaseLogger; logLinks?: boolean }): Mailer {
  const { log } = options;
  const queued = (mail: OutgoingMail) => {
    if (options.logLinks) {
      log.info({ to: mail.to, subject: mail.subject, kind: mail.kind, links: linksIn(mail.text) }, `e-mail to ${mail.to}: ${mail.subject}`);
    } else {
      log.info({ to: mail.to, subject: mail.subject, kind: mail.kind }, "e-mail stored in outbox (no SMTP_URL)");
    }
  };
  return {
    transport: "outbox",
    async queue(tx, mail) {
      await insertMail(tx, mail, "stored");
      queued(mail);
    },
    async queueForUser(tx, mail, alongside) {
      const to = await insertUserMail(tx, mail, "stored", alongside);
      if (to) queued({ to, subject: mail.subject, text: mail.text, kind: mail.kind });
      return to !== null;
    },
    withdrawUnsent: deleteUnsentMail,
    async deliverQueued() {
      return 0;
    },
    close() {},
  };
}
