import type { SQL } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import type { MailAttachment } from "../../db/schema/site.js";

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
  /** Files it carries: a task's .ics invitation (docs/decisions/074-time-and-turning-up.md). */
  attachments?: MailAttachment[];
}

/** A mail to a user, addressed by id: the outbox finds their address and honours their opt-out of `kind`. */
export interface UserMail extends Omit<OutgoingMail, "to"> {
  userId: string;
}

/**
 * The caller's own writes that share a mail's statement, so both take one round trip: `ctes` (named
 * common table expressions), `select` (its select list) and the values of their placeholders. The
 * statement is written once under `name`; the mail's placeholders all start with "mail".
 */
export interface Alongside {
  name: string;
  ctes: SQL;
  select: SQL;
  values: Record<string, unknown>;
}

export interface Mailer {
  readonly transport: "outbox" | "smtp";
  /** Queues the mail in the outbox using `db` (pass a transaction to make it atomic). */
  queue(db: Db, mail: OutgoingMail): Promise<void>;
  /**
   * Queues a mail to a user unless they turned its kind off, in ONE statement with the caller's
   * `alongside` writes (notify.ts: the notice, its mail and the bell's NOTIFY inside every
   * transition's transaction). Returns whether a mail was queued.
   */
  queueForUser(tx: Db, mail: UserMail, alongside: Alongside): Promise<boolean>;
  /** Withdraws the mail to `to` that was not sent yet (the account behind it was deleted). */
  withdrawUnsent(tx: Db, to: string): Promise<void>;
  /** Sends what is queued; a no-op for the outbox-only transport. */
  deliverQueued(): Promise<number>;
  close(): void;
}
