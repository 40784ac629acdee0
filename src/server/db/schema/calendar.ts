import { boolean, customType, date, index, integer, pgTable, primaryKey, smallint, text, time, timestamp, unique, uuid } from "drizzle-orm/pg-core";
import { tasks } from "./tasks.js";
import { users } from "./users.js";

// Time and turning up (docs/product.md, "Time and turning up"; docs/decisions/074-time-and-turning-up.md):
// a provider's calendar, the time their claimed and booked tasks take on it (no two overlap: an
// exclusion constraint, in the hand-written migration beside the generated one), the reminders
// sent, the no-shows counted, and each person's calendar feed.

/** PostgreSQL's range of timestamptz, as node-postgres gives it: the text "[start,end)". */
const tstzrange = customType<{ data: string; driverData: string }>({ dataType: () => "tstzrange" });

/** A provider's calendar settings; a provider without a row has set none (no free slots). */
export const providerCalendars = pgTable("provider_calendars", {
  userId: uuid()
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  /** The IANA zone their hours and days off are kept in. */
  timeZone: text().notNull(),
  minNoticeHours: integer().notNull(),
  maxTasksPerDay: integer().notNull(),
  instantBooking: boolean().notNull().default(false),
  updatedAt: timestamp({ withTimezone: true }).notNull(),
});

/** One working window of one weekday (ISO: 1 Monday … 7 Sunday), on the provider's clock; `ends` 24:00 is midnight. */
export const providerHours = pgTable(
  "provider_hours",
  {
    userId: uuid()
      .notNull()
      .references(() => providerCalendars.userId, { onDelete: "cascade" }),
    weekday: smallint().notNull(),
    starts: time().notNull(),
    ends: time().notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.weekday, t.starts] })],
);

/** A date the provider does not work, on their clock. */
export const providerDaysOff = pgTable(
  "provider_days_off",
  {
    userId: uuid()
      .notNull()
      .references(() => providerCalendars.userId, { onDelete: "cascade" }),
    day: date().notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);

/**
 * The time a claimed or booked task takes on its provider's calendar: written and removed by the
 * task table's calendar.* actions in the transition's transaction. The hand-written migration adds
 * `EXCLUDE USING gist (provider_id WITH =, during WITH &&)`: two of one provider's ranges never
 * overlap, whatever instance writes them.
 */
export const providerBookings = pgTable(
  "provider_bookings",
  {
    taskId: uuid()
      .primaryKey()
      .references(() => tasks.id, { onDelete: "cascade" }),
    providerId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // No index of its own on provider_id: the exclusion constraint's GiST index leads with it.
    during: tstzrange().notNull(),
  },
);

/**
 * A reminder sent (or the late notice): one per task, kind, person and start, claimed with INSERT …
 * ON CONFLICT DO NOTHING in the transaction that makes its notice, so instances and restarts never
 * send one twice; a new start (an accepted new time) is reminded of again.
 */
export const taskReminders = pgTable(
  "task_reminders",
  {
    taskId: uuid()
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    kind: text().notNull(),
    recipientId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    startsAt: timestamp({ withTimezone: true }).notNull(),
    sentAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [unique("task_reminders_once").on(t.taskId, t.kind, t.recipientId, t.startsAt)],
);

/** A no-show the poster reported (the task table's report_no_show), counted on the provider's profile. */
export const taskNoShows = pgTable(
  "task_no_shows",
  {
    taskId: uuid()
      .primaryKey()
      .references(() => tasks.id, { onDelete: "cascade" }),
    providerId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    reportedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index().on(t.providerId)],
);

/** A person's calendar feed: the SHA-256 of its secret token (the address is shown once, when made). */
export const calendarFeeds = pgTable("calendar_feeds", {
  userId: uuid()
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  tokenHash: text().notNull().unique(),
  createdAt: timestamp({ withTimezone: true }).notNull(),
});
