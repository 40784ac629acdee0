import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgEnum, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { VERIFICATION_STATUSES, type Weekday } from "../../../shared/constants.js";
import { UPLOAD_KINDS } from "../../../shared/upload-rules.js";
import { users } from "./users.js";

export const verificationStatus = pgEnum("verification_status", VERIFICATION_STATUSES);
export const uploadKind = pgEnum("upload_kind", UPLOAD_KINDS);

export const providerProfiles = pgTable(
  "provider_profiles",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: "cascade" }),
    verificationStatus: verificationStatus().notNull().default("pending"),
    fullName: text().notNull(),
    email: text().notNull(),
    phone: text().notNull(),
    address: text().notNull(),
    city: text().notNull(),
    state: text().notNull(),
    zipCode: text().notNull(),
    serviceTypes: text().array().notNull().default(sql`'{}'::text[]`),
    availability: jsonb().$type<Partial<Record<Weekday, boolean>>>().notNull().default(sql`'{}'::jsonb`),
    bio: text().notNull(),
    hourlyRateCents: integer(),
    idDocumentPath: text(),
    profilePhotoPath: text(),
    rejectionReason: text(),
    reviewedBy: uuid().references(() => users.id, { onDelete: "set null" }),
    reviewedAt: timestamp({ withTimezone: true }),
    submittedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    payoutsEnabled: boolean().notNull().default(false),
    stripeOnboardingComplete: boolean().notNull().default(false),
    stripeAccountId: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.verificationStatus, t.submittedAt)],
);

/**
 * One row per signed upload URL. The URL carries a random token whose hash is stored here;
 * `usedAt` makes it single-use and `expiresAt` short-lived.
 */
export const uploads = pgTable(
  "uploads",
  {
    id: uuid().primaryKey().defaultRandom(),
    ownerId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: uploadKind(),
    tokenHash: text().notNull().unique(),
    storageKey: text().notNull().unique(),
    contentType: text(),
    sizeBytes: integer(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.ownerId)],
);
