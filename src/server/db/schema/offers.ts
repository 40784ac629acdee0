import { sql } from "drizzle-orm";
import { index, integer, pgEnum, pgTable, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";
import { OFFER_STATUSES } from "../../../shared/offers.js";
import { tasks } from "./tasks.js";
import { users } from "./users.js";

export const offerStatus = pgEnum("offer_status", OFFER_STATUSES);

/**
 * A provider's offer on a task that takes offers (docs/product.md, Offers): one row per provider and
 * task, changed in place, withdrawn or accepted. An offer counts as open only while its task is open
 * too, so offers expire with the task without a write on every transition.
 */
export const taskOffers = pgTable(
  "task_offers",
  {
    id: uuid().primaryKey().defaultRandom(),
    taskId: uuid()
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    providerId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    priceCents: integer().notNull(),
    message: text().notNull(),
    /** When they can do it, in their words ("Saturday morning"). */
    availability: text().notNull(),
    status: offerStatus().notNull().default("open"),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    unique().on(t.taskId, t.providerId),
    // A provider's open offers, counted against MAX_OPEN_OFFERS on every new offer.
    index("task_offers_provider_open_idx").on(t.providerId).where(sql`${t.status} = 'open'`),
  ],
);
