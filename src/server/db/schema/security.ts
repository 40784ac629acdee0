import { sql } from "drizzle-orm";
import { bigint, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users.js";

// Second factors, sign-in challenges and the security log (docs/decisions/049-second-factors.md,
// 050-step-up-and-security-log.md).

/** One authenticator app per account. It counts once confirmedAt is set (a code proved the app has it). */
export const totpFactors = pgTable("totp_factors", {
  userId: uuid()
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  /** Base32; the server must read it to check a code, so it cannot be hashed. */
  secret: text().notNull(),
  confirmedAt: timestamp({ withTimezone: true }),
  /** The 30-second step of the last accepted code: a code is accepted once, and never an older one. */
  lastUsedStep: bigint({ mode: "number" }),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** Ten single-use codes; only their SHA-256 is kept (high-entropy, so a slow hash adds nothing). */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text().notNull().unique(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.userId)],
);

export const passkeys = pgTable(
  "passkeys",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** base64url, as the browser names it. */
    credentialId: text().notNull().unique(),
    /** The COSE public key, base64url. */
    publicKey: text().notNull(),
    counter: bigint({ mode: "number" }).notNull().default(0),
    transports: text().array().notNull().default(sql`'{}'::text[]`),
    name: text().notNull(),
    lastUsedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.userId)],
);

/**
 * A sign-in half done, or a WebAuthn ceremony in flight, named by a short-lived cookie whose SHA-256
 * is kept here: after the password (second step), a passkey sign-in, a passkey registration, a step-up.
 */
export const authChallenges = pgTable(
  "auth_challenges",
  {
    id: uuid().primaryKey().defaultRandom(),
    tokenHash: text().notNull().unique(),
    purpose: text().$type<"second_factor" | "passkey_sign_in" | "passkey_register" | "step_up">().notNull(),
    userId: uuid().references(() => users.id, { onDelete: "cascade" }),
    /** How the first step was proven ("password", "email_link"), for the session it becomes. */
    firstFactor: text(),
    /** The WebAuthn challenge, base64url, when a passkey is asked for. */
    webauthnChallenge: text(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.expiresAt)],
);

/** Who, when, from where, what and how it went: kept SECURITY_LOG_RETENTION_DAYS (src/shared/security.ts). */
export const securityEvents = pgTable(
  "security_events",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid().references(() => users.id, { onDelete: "cascade" }),
    /** The admin who did it, when it was done to the account by someone else. */
    actorId: uuid().references(() => users.id, { onDelete: "set null" }),
    event: text().notNull(),
    result: text().$type<"success" | "failure">().notNull(),
    ip: text(),
    userAgent: text(),
    details: jsonb().$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.userId, t.createdAt), index().on(t.createdAt)],
);
