import { index, integer, jsonb, pgEnum, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { CONTACT_METHODS } from "../../../shared/constants.js";

/** A file an e-mail carries, its content as text (a calendar invitation). */
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: string;
}

export const contactMethod = pgEnum("contact_method", CONTACT_METHODS);

export const contactMessages = pgTable(
  "contact_messages",
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull(),
    email: text().notNull(),
    subject: text().notNull(),
    message: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.createdAt)],
);

export const appointments = pgTable(
  "appointments",
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull(),
    email: text().notNull(),
    phone: text().notNull(),
    appointmentDate: timestamp({ withTimezone: true }).notNull(),
    reason: text().notNull(),
    preferContact: contactMethod().notNull().default("visit"),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.createdAt)],
);

/** Every e-mail goes through here first; the SMTP adapter sends and marks it. */
export const emailOutbox = pgTable(
  "email_outbox",
  {
    id: uuid().primaryKey().defaultRandom(),
    to: text().notNull(),
    subject: text().notNull(),
    text: text().notNull(),
    kind: text().notNull(),
    /** stored (no SMTP) | queued | sending | sent | failed (gave up after MAIL_MAX_ATTEMPTS). */
    status: text().notNull().default("queued"),
    error: text(),
    /** Delivery attempts that failed so far; each failure pushes nextAttemptAt further out. */
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }),
    /** When an instance took the row for sending: a claim this old means that instance died. */
    claimedAt: timestamp({ withTimezone: true }),
    sentAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** Files sent with it, such as a task's .ics invitation (docs/decisions/074-time-and-turning-up.md); null when none. */
    attachments: jsonb().$type<MailAttachment[]>(),
  },
  (t) => [index().on(t.status, t.createdAt)],
);
