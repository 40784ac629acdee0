import { sql } from "drizzle-orm";
import { check, index, pgEnum, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { REPORT_TARGETS } from "../../../shared/moderation.js";
import { users } from "./users.js";

// Reports and blocks (docs/product.md, Moderation; docs/decisions/059-moderation.md).

export const reportTarget = pgEnum("report_target", REPORT_TARGETS);

/** A signed-in person's report of a user, task, message or review; open until an admin closes it with an outcome. */
export const reports = pgTable(
  "reports",
  {
    id: uuid().primaryKey().defaultRandom(),
    reporterId: uuid().references(() => users.id, { onDelete: "set null" }),
    targetType: reportTarget().notNull(),
    targetId: uuid().notNull(),
    /** The person the reported thing is about, found when it was reported. */
    subjectId: uuid().references(() => users.id, { onDelete: "set null" }),
    reason: text().notNull(),
    details: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp({ withTimezone: true }),
    closedBy: uuid().references(() => users.id, { onDelete: "set null" }),
    outcome: text(),
    outcomeNote: text(),
  },
  (t) => [
    // The admin's queue: open reports, oldest first.
    index("reports_open_idx").on(t.createdAt).where(sql`${t.closedAt} is null`),
    check("reports_closed_outcome_check", sql`(${t.closedAt} is null) = (${t.outcome} is null)`),
  ],
);

/** One person blocking another: no chat, no claims between them, hidden from each other. */
export const userBlocks = pgTable(
  "user_blocks",
  {
    blockerId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    blockedId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.blockerId, t.blockedId] }), index().on(t.blockedId), check("user_blocks_not_self_check", sql`${t.blockerId} <> ${t.blockedId}`)],
);
