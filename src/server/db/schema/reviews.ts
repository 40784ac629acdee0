import { sql } from "drizzle-orm";
import { index, pgTable, smallint, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";
import { tasks } from "./tasks.js";
import { users } from "./users.js";

export const reviews = pgTable(
  "reviews",
  {
    id: uuid().primaryKey().defaultRandom(),
    taskId: uuid()
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    reviewerId: uuid()
      .notNull()
      .references(() => users.id),
    reviewedId: uuid()
      .notNull()
      .references(() => users.id),
    rating: smallint().notNull(),
    comment: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /**
     * When the review became visible to the other party and started to count in ratings: set on
     * both when the second review of the task arrives, or by the reveal job BLIND_REVIEW_DAYS after
     * completion. Null: still blind (docs/decisions/037-ratings-on-the-user-row.md).
     */
    revealedAt: timestamp({ withTimezone: true }),
    /** Set while an admin hides the review: nobody sees it and it leaves the rating (docs/product.md, Moderation). */
    hiddenAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    unique().on(t.taskId, t.reviewerId),
    index().on(t.reviewedId),
    // The reveal job's work list: only the blind reviews, a few days' worth at most.
    index("reviews_blind_task_idx").on(t.taskId).where(sql`${t.revealedAt} is null`),
  ],
);
