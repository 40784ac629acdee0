import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, check, index, integer, pgEnum, pgTable, text, timestamp, unique, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import {
  DISPUTE_STATUSES,
  ESCROW_STATUSES,
  LEDGER_KINDS,
  LIVE_PAYMENT_STATUSES,
  PAYMENT_STATUSES,
  PAYOUT_STATUSES,
  TIP_STATUSES,
} from "../../../shared/money-lifecycle.js";
import { uploads } from "./providers.js";
import { tasks } from "./tasks.js";
import { users } from "./users.js";

// Money tables of the payments feature (docs/decisions/008-payments-and-ledger.md). The ledger is
// the truth about money; the other tables track the gateway's side and the escrow's state. Each
// status is an enum of its record's states in the money table (src/shared/money-lifecycle.ts),
// and only that table's conditional updates change it.

export const paymentStatus = pgEnum("payment_status", PAYMENT_STATUSES);
export const tipStatus = pgEnum("tip_status", TIP_STATUSES);
export const escrowStatus = pgEnum("escrow_status", ESCROW_STATUSES);
export const payoutStatus = pgEnum("payout_status", PAYOUT_STATUSES);
/** One kind per ledger action of the table: every ledger transaction is one of them. */
export const ledgerKind = pgEnum("ledger_kind", LEDGER_KINDS);

/** A payment that still stands for its task; only a refunded one has stepped aside. */
export const LIVE_PAYMENT = sql.raw(`status in (${LIVE_PAYMENT_STATUSES.map((s) => `'${s}'`).join(", ")})`);

/**
 * One live payment per task: the partial unique key makes creating it idempotent. A refunded
 * payment (a capture that arrived too late) steps aside, so the task can be paid again after a
 * reactivation; a failed one stays live because the same intent is retried.
 */
export const payments = pgTable(
  "payments",
  {
    id: uuid().primaryKey().defaultRandom(),
    taskId: uuid()
      .notNull()
      .references(() => tasks.id),
    posterId: uuid()
      .notNull()
      .references(() => users.id),
    amountCents: integer().notNull(),
    gateway: text().notNull(),
    /** The gateway's id (Stripe PaymentIntent); null until the gateway answered. */
    gatewayRef: text().unique(),
    /** Null until the gateway answered; a second create call then fills it from the same idempotency key. */
    clientSecret: text().unique(),
    status: paymentStatus().notNull().default("requires_payment"),
    failureMessage: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** The card's last four digits as the processor reported them, for the poster's receipts (docs/decisions/060-receipts-from-the-ledger.md). */
    cardLast4: text(),
  },
  (t) => [uniqueIndex("payments_live_task_id_key").on(t.taskId).where(LIVE_PAYMENT)],
);

/** Tips go to the provider in full; several per task are allowed, one per idempotency key. */
export const tips = pgTable(
  "tips",
  {
    id: uuid().primaryKey().defaultRandom(),
    taskId: uuid()
      .notNull()
      .references(() => tasks.id),
    posterId: uuid()
      .notNull()
      .references(() => users.id),
    providerId: uuid()
      .notNull()
      .references(() => users.id),
    amountCents: integer().notNull(),
    gateway: text().notNull(),
    gatewayRef: text().unique(),
    clientSecret: text(),
    status: tipStatus().notNull().default("requires_payment"),
    /** Chosen by the client once per tip dialog, so a double submit finds the first tip instead of charging again. */
    idempotencyKey: uuid().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** As on payments: the card's last four digits for the tip's receipt. */
    cardLast4: text(),
  },
  (t) => [index().on(t.taskId), uniqueIndex().on(t.posterId, t.idempotencyKey)],
);

/** The escrow of a completed task: held for the approval window, disputed, or settled. */
export const escrowHolds = pgTable(
  "escrow_holds",
  {
    taskId: uuid()
      .primaryKey()
      .references(() => tasks.id),
    status: escrowStatus().notNull(),
    releaseAt: timestamp({ withTimezone: true }).notNull(),
    disputeReason: text(),
    disputedAt: timestamp({ withTimezone: true }),
    resolvedBy: uuid().references(() => users.id),
    resolutionReason: text(),
    settledAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index().on(t.status, t.releaseAt),
    // What the table's transitions write beside the status, so no other write can leave them apart.
    check("escrow_holds_settled_check", sql`(${t.status} in ('released', 'refunded')) = (${t.settledAt} is not null)`),
    check("escrow_holds_dispute_reason_check", sql`${t.status} <> 'disputed' or ${t.disputeReason} is not null`),
  ],
);

/** Money sent from a provider's balance to their payout account. */
export const payouts = pgTable(
  "payouts",
  {
    id: uuid().primaryKey().defaultRandom(),
    providerId: uuid()
      .notNull()
      .references(() => users.id),
    amountCents: integer().notNull(),
    /** pending until the gateway confirmed the transfer; retried by the payout job. */
    status: payoutStatus().notNull().default("pending"),
    gatewayRef: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp({ withTimezone: true }),
  },
  (t) => [index().on(t.providerId), index().on(t.status), check("payouts_paid_check", sql`(${t.status} = 'paid') = (${t.paidAt} is not null)`)],
);

/** A balanced group of ledger entries; (kind, key) is unique so money never moves twice. */
export const ledgerTransactions = pgTable(
  "ledger_transactions",
  {
    id: uuid().primaryKey().defaultRandom(),
    taskId: uuid().references(() => tasks.id),
    kind: ledgerKind().notNull(),
    /** The task id for a release (once per task); the payment id for capture and refund; the tip or payout id otherwise. */
    idempotencyKey: text().notNull(),
    memo: text(),
    createdBy: uuid().references(() => users.id),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique().on(t.kind, t.idempotencyKey), index().on(t.taskId)],
);

/** Entries are only ever inserted (a trigger refuses UPDATE and DELETE); a transaction sums to zero. */
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

/**
 * What a receipt names, as it was when its money moved (docs/decisions/060-receipts-from-the-ledger.md,
 * "Facts frozen at issue"): one row per ledger transaction that has a receipt, written in the same
 * database transaction and never changed after (a trigger refuses UPDATE and DELETE), so editing or
 * reopening the task later does not rewrite it. The provider is kept by id, so the name follows an
 * account deletion's anonymization.
 */
export const receiptFacts = pgTable("receipt_facts", {
  transactionId: uuid()
    .primaryKey()
    .references(() => ledgerTransactions.id),
  title: text().notNull(),
  scheduledDate: timestamp({ withTimezone: true }),
  budgetCents: integer().notNull(),
  urgentFeeCents: integer().notNull(),
  serviceFeeCents: integer().notNull(),
  totalCents: integer().notNull(),
  providerId: uuid().references(() => users.id),
});

/** Stripe webhook event ids already handled. */
export const webhookEvents = pgTable("webhook_events", {
  id: text().primaryKey(),
  type: text().notNull(),
  receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export const disputeStatus = pgEnum("dispute_status", DISPUTE_STATUSES);

/**
 * A problem reported on a paid task by either party (docs/decisions/057-disputes-guarantee-late-cancellation.md):
 * open until an admin resolves it with a split in cents; at most one open dispute per task.
 */
export const disputes = pgTable(
  "disputes",
  {
    id: uuid().primaryKey().defaultRandom(),
    taskId: uuid()
      .notNull()
      .references(() => tasks.id),
    openedBy: uuid()
      .notNull()
      .references(() => users.id),
    reason: text().notNull(),
    status: disputeStatus().notNull().default("open"),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    /** When an admin last acted on it (a note); the dashboard escalates disputes idle for DISPUTE_ESCALATION_DAYS. */
    lastAdminActionAt: timestamp({ withTimezone: true }),
    resolvedBy: uuid().references(() => users.id),
    resolvedAt: timestamp({ withTimezone: true }),
    resolutionReason: text(),
    /** What the resolution gave back to the poster, from the escrow and from the guarantee account. */
    refundCents: integer(),
    releaseCents: integer(),
    providerShareCents: integer(),
    guaranteeCents: integer(),
    recoverFromProvider: boolean(),
  },
  (t) => [
    uniqueIndex("disputes_open_task_id_key").on(t.taskId).where(sql`status = 'open'`),
    index().on(t.status, t.createdAt),
    check("disputes_resolved_check", sql`(${t.status} = 'resolved') = (${t.resolvedAt} is not null)`),
  ],
);

/** The dispute's thread: the report itself first, then each party's side and admins' notes. */
export const disputeMessages = pgTable(
  "dispute_messages",
  {
    id: uuid().primaryKey().defaultRandom(),
    disputeId: uuid()
      .notNull()
      .references(() => disputes.id),
    authorId: uuid()
      .notNull()
      .references(() => users.id),
    body: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    /** The thread's order, also for messages written in the same millisecond. */
    seq: bigserial({ mode: "number" }).notNull(),
  },
  (t) => [index().on(t.disputeId, t.seq)],
);

/**
 * A photo of a dispute message, evidence for its parties and admins only (docs/decisions/057): the
 * author's upload is the original; the two WebP images made from it, without metadata, are what
 * they see. Deleting the upload row (an account deletion) takes the photo with it.
 */
export const disputePhotos = pgTable(
  "dispute_photos",
  {
    id: uuid().primaryKey().defaultRandom(),
    messageId: uuid()
      .notNull()
      .references(() => disputeMessages.id, { onDelete: "cascade" }),
    uploadId: uuid()
      .notNull()
      .unique()
      .references(() => uploads.id, { onDelete: "cascade" }),
    /** Storage keys of the derived images (longest side 320 and 1280 px, as task photos). */
    smallKey: text().notNull(),
    mediumKey: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    /** The order they were sent in. */
    seq: bigserial({ mode: "number" }).notNull(),
  },
  (t) => [index().on(t.messageId, t.seq)],
);
