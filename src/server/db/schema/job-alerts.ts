import { sql } from "drizzle-orm";
import { check, doublePrecision, index, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { tasks } from "./tasks.js";
import { users } from "./users.js";

// Job alerts (docs/decisions/032-job-alerts.md): the saved searches, the matches waiting for the
// next digest e-mail, and when each provider's last digest went.

export const jobAlerts = pgTable(
  "job_alerts",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    categories: text().array().notNull(),
    /** What the provider typed (a ZIP code or "lat,lon"), shown back in the form. */
    near: text().notNull(),
    /** Where `near` was placed when the alert was saved: the centre of the radius. */
    lat: doublePrecision().notNull(),
    lon: doublePrecision().notNull(),
    radiusMiles: integer().notNull(),
    minBudgetCents: integer(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index().on(t.userId),
    // A posted task asks for the alerts whose centre lies in the latitude band of the widest radius.
    index("job_alerts_position_idx").on(t.lat, t.lon),
    check("job_alerts_radius_check", sql`${t.radiusMiles} in (5, 10, 25, 50)`),
  ],
);

/** A task that matched a provider's alert and is not yet in an e-mail (the bell has it already). */
export const jobAlertMatches = pgTable(
  "job_alert_matches",
  {
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    taskId: uuid()
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    miles: doublePrecision().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.taskId] })],
);

/**
 * One row per provider with matches to e-mail: the digest job claims a row with one conditional
 * UPDATE (due, and the last e-mail at least the interval ago), so two instances never both send.
 */
export const jobAlertDigests = pgTable(
  "job_alert_digests",
  {
    userId: uuid()
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The oldest match not yet e-mailed; null when there is none. */
    pendingSince: timestamp({ withTimezone: true }),
    lastSentAt: timestamp({ withTimezone: true }),
  },
  (t) => [index().on(t.pendingSince)],
);
