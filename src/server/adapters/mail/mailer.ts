import type { Db } from "../../db/client.js";

// Every e-mail is first written to the outbox table, inside the caller's transaction when it has
// one, so a notification is never lost to a crash between "decided" and "sent". Without SMTP_URL
// the outbox is where it stays (outbox-mailer.ts: admins read it in the app, plus a log line); with
// SMTP_URL a delivery pass sends what is queued (smtp-mailer.ts); create-mailer.ts picks one
// (docs/decisions/011-email-outbox.md).

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  /** What it is about, for opt-outs and the admin outbox view: "application_decided", … */
  kind: string;
}

export interface Mailer {
  readonly transport: "outbox" | "smtp";
  /** The status a mail is stored with in the outbox: "stored" (kept, never sent) or "queued" (for delivery). */
  readonly outboxStatus: "stored" | "queued";
  /** Queues the mail in the outbox using `db` (pass a transaction to make it atomic). */
  queue(db: Db, mail: OutgoingMail): Promise<void>;
  /** Says that `mail` was written to the outbox by a statement of its own (notify.ts): the log line queue() writes. */
  queued(mail: OutgoingMail): void;
  /** Sends what is queued; a no-op for the outbox-only transport. */
  deliverQueued(): Promise<number>;
  close(): void;
}
