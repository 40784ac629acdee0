import { index, pgEnum, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { BACKGROUND_CHECK_ADAPTERS, BACKGROUND_CHECK_RESULTS } from "../../../shared/background-checks.js";
import { users } from "./users.js";

// Background checks (docs/decisions/064-background-checks.md): one row per check, the latest per
// applicant counts. A manual check is complete when recorded; a Checkr one is pending until its
// report's webhook arrives.

export const backgroundCheckAdapter = pgEnum("background_check_adapter", BACKGROUND_CHECK_ADAPTERS);
export const backgroundCheckResult = pgEnum("background_check_result", BACKGROUND_CHECK_RESULTS);

export const backgroundChecks = pgTable(
  "background_checks",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    adapter: backgroundCheckAdapter().notNull(),
    /** Free text for a manual check ("County criminal records, MD, 7 years"); the package for Checkr. */
    checkedWhat: text().notNull(),
    /** null while a Checkr report is pending. */
    result: backgroundCheckResult(),
    reason: text(),
    /** The admin who recorded or started it. */
    recordedBy: uuid().references(() => users.id, { onDelete: "set null" }),
    candidateId: text(),
    invitationId: text(),
    invitationUrl: text(),
    reportId: text().unique(),
    completedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.userId, t.createdAt), index().on(t.candidateId)],
);

/** Checkr webhook event ids already handled: a redelivered event changes nothing. */
export const backgroundCheckEvents = pgTable("background_check_events", {
  id: text().primaryKey(),
  type: text().notNull(),
  receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
