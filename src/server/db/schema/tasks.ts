import { sql } from "drizzle-orm";
import { boolean, check, doublePrecision, index, integer, jsonb, pgEnum, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { HIRING_MODES, TASK_STATUSES, URGENCIES } from "../../../shared/constants.js";
import { REQUEST_FALLBACKS } from "../../../shared/task-requests.js";
import { users } from "./users.js";

export const taskStatus = pgEnum("task_status", TASK_STATUSES);
export const taskUrgency = pgEnum("task_urgency", URGENCIES);
export const taskHiringMode = pgEnum("task_hiring_mode", HIRING_MODES);
export const taskRequestFallback = pgEnum("task_request_fallback", REQUEST_FALLBACKS);

export interface StoredStop {
  address: string;
  city: string | null;
  state: string | null;
  notes: string | null;
  lat: number | null;
  lon: number | null;
}

export const tasks = pgTable(
  "tasks",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id),
    providerId: uuid().references(() => users.id),
    title: text().notNull(),
    description: text().notNull(),
    category: text().notNull(),
    urgency: taskUrgency().notNull().default("standard"),
    budgetCents: integer().notNull(),
    urgentFeeCents: integer().notNull(),
    serviceFeeCents: integer().notNull(),
    totalCents: integer().notNull(),
    /**
     * The provider's share and the platform's commission of budget + surcharge, fixed with the
     * other line items when the task is priced (posted, edited, an offer accepted) and read by every
     * page, notice and statement (docs/decisions/073-one-account-of-each-tasks-money.md).
     */
    providerShareCents: integer().notNull(),
    platformCommissionCents: integer().notNull(),
    scheduledDate: timestamp({ withTimezone: true }),
    location: text(),
    city: text(),
    state: text(),
    lat: doublePrecision(),
    lon: doublePrecision(),
    startLocation: text(),
    startCity: text(),
    startState: text(),
    startLat: doublePrecision(),
    startLon: doublePrecision(),
    endLocation: text(),
    endCity: text(),
    endState: text(),
    endLat: doublePrecision(),
    endLon: doublePrecision(),
    stops: jsonb().$type<StoredStop[]>(),
    /** Coarse position (0.01°) used for distance sorting and shown to strangers. */
    approxLat: doublePrecision(),
    approxLon: doublePrecision(),
    status: taskStatus().notNull().default("open"),
    paymentDeadline: timestamp({ withTimezone: true }),
    paymentCapturedAt: timestamp({ withTimezone: true }),
    claimedAt: timestamp({ withTimezone: true }),
    startedAt: timestamp({ withTimezone: true }),
    completedAt: timestamp({ withTimezone: true }),
    cancelledAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** When the poster last edited the task while it was open (docs/decisions/058-withdrawing-and-editing.md); null if never. */
    editedAt: timestamp({ withTimezone: true }),
    /** First to claim, or offers the poster chooses among (docs/product.md, Offers). */
    hiringMode: taskHiringMode().notNull().default("first_to_claim"),
    /**
     * Requesting a provider (docs/decisions/065-requesting-a-provider.md): who the task was offered to
     * first, until when they may answer, and what happens then. All null for a task posted for everyone.
     */
    requestedProviderId: uuid().references(() => users.id),
    requestExpiresAt: timestamp({ withTimezone: true }),
    requestFallback: taskRequestFallback(),
    /**
     * Time and turning up (docs/decisions/074-time-and-turning-up.md): the IANA zone of the task's
     * place (null for tasks posted before it was kept: read from the place then), its expected
     * length on the provider's calendar (the poster's estimate, else Felix's hours, fixed when
     * posted), and the poster's own estimate when they gave one.
     */
    timeZone: text(),
    durationMinutes: integer().notNull().default(60),
    estimatedMinutes: integer(),
    /** A new start one side proposed and the other has not answered yet, and who proposed it. */
    proposedStartAt: timestamp({ withTimezone: true }),
    proposedById: uuid().references(() => users.id),
    /** When the provider last said they were on the way, and the arrival estimate (never their position). */
    onMyWayAt: timestamp({ withTimezone: true }),
    arrivalEstimateAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    // id is the tie-breaker of the job board's order (created_at desc, id desc): without it in the
    // index PostgreSQL sorts every open task for each page (bench:jobs, docs/benchmarks.md).
    // NULLS FIRST is what a plain ORDER BY ... DESC means; drizzle's desc() alone says NULLS LAST,
    // which the planner would not match to the query.
    index("tasks_status_created_idx").on(t.status, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("tasks_status_category_created_idx").on(t.status, t.category, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // The board's budget sorts ("Budget: high to low" / "low to high", docs/product.md#tasks): without it each page
    // sorted every open task (a parallel seq scan, bench:load). Ascending it is read forwards; for
    // high-to-low PostgreSQL reads it backwards and only re-sorts tasks of equal budget (incremental sort).
    index("tasks_status_budget_created_idx").on(t.status, t.budgetCents, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("tasks_user_created_idx").on(t.userId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("tasks_provider_created_idx").on(t.providerId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // The sweeper finds claimed, unpaid tasks past their deadline without scanning the table.
    index("tasks_payment_deadline_idx")
      .on(t.paymentDeadline)
      .where(sql`${t.status} = 'claimed' and ${t.paymentCapturedAt} is null`),
    // The board's radius filter (docs/decisions/027-job-board-distance-and-dates.md): a range on the
    // coarse latitude, the longitude checked in the index, so a place with no task near it does not
    // read every open task (before it, EXPLAIN showed a parallel seq scan: docs/benchmarks.md, "Figures once in code comments").
    // status first and not a partial index, so a generic plan of the prepared statement can use it too.
    index("tasks_status_approx_position_idx").on(t.status, t.approxLat, t.approxLon),
    // The request-lapse job finds requests past their window without scanning the table. Not "where
    // status = 'requested'": the migration adds that enum value, and PostgreSQL refuses to use a new
    // value in the transaction that adds it.
    index("tasks_request_expires_idx").on(t.requestExpiresAt).where(sql`${t.requestExpiresAt} is not null`),
    // The reminder and late-notice jobs find claimed tasks by their start without scanning the table (decision 074).
    index("tasks_claimed_schedule_idx").on(t.scheduledDate).where(sql`${t.status} = 'claimed' and ${t.scheduledDate} is not null`),
    // Case-insensitive substring search over title and description stays fast at 100k rows.
    index("tasks_search_trgm_idx").using("gin", sql`(${t.title} || ' ' || ${t.description}) gin_trgm_ops`),
    // The line items add up: the provider's share and the commission split the budget and surcharge.
    check("tasks_line_items_add_up", sql`${t.providerShareCents} + ${t.platformCommissionCents} = ${t.budgetCents} + ${t.urgentFeeCents}`),
  ],
);

/**
 * Providers a task's poster declined during the payment window: each may not claim that task again
 * (docs/decisions/024-declining-a-provider.md). Written by the "decline" transition, in its transaction.
 */
export const taskDeclinedProviders = pgTable(
  "task_declined_providers",
  {
    taskId: uuid()
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    providerId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    declinedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.providerId] })],
);

/**
 * A provider giving a claim back before starting ("withdraw" when paid, "release_claim" when not):
 * one row per withdrawal, counted on their public profile's reliability line
 * (docs/decisions/058-withdrawing-and-editing.md). Written in the transition's transaction.
 */
export const taskWithdrawals = pgTable(
  "task_withdrawals",
  {
    id: uuid().primaryKey().defaultRandom(),
    taskId: uuid()
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    providerId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Whether the poster had paid, so the withdrawal refunded them. */
    paid: boolean().notNull(),
    withdrawnAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index("task_withdrawals_provider_idx").on(t.providerId)],
);
