import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users.js";

// Web Push (docs/decisions/062-web-push-and-installable-app.md): each device a person turned
// notifications on for, the kinds they want pushed, and the pushes waiting to be sent.

export const pushSubscriptions = pgTable(
  "push_subscriptions",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The push service's URL for this device: unique, a device moving to another account moves with it. */
    endpoint: text().notNull().unique(),
    p256dh: text().notNull(),
    auth: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.userId)],
);

/** A notice kind the person wants pushed to their devices: push is opt-in, kind by kind. */
export const pushOptIns = pgTable(
  "push_opt_ins",
  {
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text().notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind] })],
);

/**
 * One push to one device, written in the transaction of the notice it carries and sent after
 * commit by whichever instance claims it first (features/push/delivery.ts).
 */
export const pushOutbox = pgTable(
  "push_outbox",
  {
    id: uuid().primaryKey().defaultRandom(),
    subscriptionId: uuid()
      .notNull()
      .references(() => pushSubscriptions.id, { onDelete: "cascade" }),
    kind: text().notNull(),
    title: text().notNull(),
    body: text().notNull(),
    /** The page the notification opens: a path of this site. */
    url: text().notNull(),
    /** queued | sending */
    status: text().notNull().default("queued"),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }),
    claimedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.status, t.createdAt)],
);
