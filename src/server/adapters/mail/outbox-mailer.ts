import type { FastifyBaseLogger } from "fastify";
import { emailOutbox } from "../../db/schema/site.js";
import type { Mailer } from "./mailer.js";

/** Without SMTP_URL: mail is stored in the outbox for admins to read, and logged; nothing is sent. */
export function createOutboxMailer(options: { log: FastifyBaseLogger }): Mailer {
  const { log } = options;
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
