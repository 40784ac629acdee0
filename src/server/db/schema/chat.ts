import { boolean, index, pgTable, text, timestamp, uuid, primaryKey } from "drizzle-orm/pg-core";
import { tasks } from "./tasks.js";
import { users } from "./users.js";

export const messages = pgTable(
  "messages",
  {
    id: uuid().primaryKey().defaultRandom(),
    taskId: uuid()
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    senderId: uuid()
      .notNull()
      .references(() => users.id),
    recipientId: uuid()
      .notNull()
      .references(() => users.id),
    content: text().notNull(),
    read: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.taskId, t.createdAt), index().on(t.recipientId, t.read)],
);

export const notifications = pgTable(
  "notifications",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text().notNull(),
    title: text().notNull(),
    body: text().notNull(),
    taskId: uuid().references(() => tasks.id, { onDelete: "cascade" }),
    read: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.userId, t.createdAt)],
);

/** A row means "do not e-mail me about this kind"; in-app notifications are always kept. */
export const emailOptOuts = pgTable(
  "email_opt_outs",
  {
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text().notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind] })],
);
