import { bigint, bigserial, index, integer, pgTable, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";
import { tasks } from "./tasks.js";
import { users } from "./users.js";

/** One payment per task: the unique key makes creating it idempotent. */
export const payments = pgTable("payments", {
  id: uuid().primaryKey().defaultRandom(),
  taskId: uuid()
    .notNull()
    .unique()
    .references(() => tasks.id),
  posterId: uuid()
    .notNull()
    .references(() => users.id),
  amountCents: integer().notNull(),
  gateway: text().notNull(),
  gatewayRef: text(),
  clientSecret: text().notNull(),
  status: text().notNull().default("requires_payment"),
  failureMessage: text(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** A balanced group of ledger entries; (task, kind) is unique so money never moves twice. */
export const ledgerTransactions = pgTable(
  "ledger_transactions",
  {
    id: uuid().primaryKey().defaultRandom(),
    taskId: uuid().references(() => tasks.id),
    kind: text().notNull(),
    /** Distinguishes repeatable kinds (tips, payouts); the task id alone for one-off kinds. */
    idempotencyKey: text().notNull(),
    memo: text(),
    createdBy: uuid().references(() => users.id),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique().on(t.kind, t.idempotencyKey), index().on(t.taskId)],
);

/** Entries are only ever inserted; the sum of a transaction's entries is zero. */
export const ledgerEntries = pgTable(
  "ledger_entries",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    transactionId: uuid()
      .notNull()
      .references(() => ledgerTransactions.id),
    account: text().notNull(),
    amountCents: bigint({ mode: "number" }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.account), index().on(t.transactionId)],
);

/** Stripe webhook event ids already handled. */
export const webhookEvents = pgTable("webhook_events", {
  id: text().primaryKey(),
  type: text().notNull(),
  receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
