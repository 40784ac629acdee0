import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgEnum, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { USER_ROLES } from "../../../shared/constants.js";

export const userRole = pgEnum("user_role", USER_ROLES);

export const users = pgTable("users", {
  id: uuid().primaryKey().defaultRandom(),
  /** Stored lower-cased; unique. */
  email: text().notNull().unique(),
  /** scrypt$N$r$p$salt$hash; null for accounts that only sign in through OIDC. */
  passwordHash: text(),
  oidcSubject: text().unique(),
  firstName: text().notNull(),
  lastName: text().notNull(),
  /** "The" photo of the person, for everyone (docs/decisions/021-account-settings-deletion-and-export.md). */
  profileImageUrl: text(),
  /** An approved provider's new photo, shown only once an admin approves it; the old one stays until then. */
  pendingProfileImageUrl: text(),
  pendingProfileImageAt: timestamp({ withTimezone: true }),
  /** Set when the person deleted their account: the row stays, anonymized, for the records others rely on. */
  deletedAt: timestamp({ withTimezone: true }),
  role: userRole().notNull().default("user"),
  /** When the person proved they read this address (a link we sent, or the IdP's email_verified). Null: not yet. */
  emailVerifiedAt: timestamp({ withTimezone: true }),
  /**
   * Revealed reviews of this person: how many and the sum of their ratings, kept by the trigger on
   * reviews (drizzle/0010_ratings_on_the_user_row.sql), read through src/server/db/ratings.ts
   * (docs/decisions/037-ratings-on-the-user-row.md). Never written by the app.
   */
  ratingCount: integer().notNull().default(0),
  ratingSum: integer().notNull().default(0),
  /** Set while an admin has suspended the account: no sign-in, no sessions, profile hidden (docs/product.md, Moderation). */
  suspendedAt: timestamp({ withTimezone: true }),
  /** What the suspended person is told when sign-in is refused. */
  suspensionReason: text(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** Only the SHA-256 of the cookie token is stored, so a database leak gives no usable session. */
export const sessions = pgTable(
  "sessions",
  {
    id: uuid().primaryKey().defaultRandom(),
    tokenHash: text().notNull().unique(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    idleExpiresAt: timestamp({ withTimezone: true }).notNull(),
    absoluteExpiresAt: timestamp({ withTimezone: true }).notNull(),
    /** The browser's User-Agent at sign-in, for the active sessions list; null for sessions made before it was kept. */
    userAgent: text(),
    createdIp: text(),
    /** How the sign-in was proven: "password", "passkey", "oidc", "email_link"; null for sessions made before it was kept. */
    firstFactor: text(),
    /** "totp", "passkey" or "recovery_code" when a second factor was given (docs/decisions/049-second-factors.md). */
    secondFactor: text(),
    /** The last time the password or a passkey was proven in this session: sensitive changes need it recent (decision 050). */
    provenAt: timestamp({ withTimezone: true }),
  },
  (t) => [index().on(t.userId), index().on(t.absoluteExpiresAt)],
);

/** Fixed-window counters shared by every server instance (docs/decisions/003-sessions-and-sign-in.md). */
export const rateLimits = pgTable("rate_limits", {
  key: text().primaryKey(),
  count: integer().notNull(),
  windowStartedAt: timestamp({ withTimezone: true }).notNull(),
});

export const auditLog = pgTable(
  "audit_log",
  {
    id: uuid().primaryKey().defaultRandom(),
    actorId: uuid().references(() => users.id, { onDelete: "set null" }),
    action: text().notNull(),
    targetType: text().notNull(),
    targetId: text().notNull(),
    reason: text(),
    details: jsonb().$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.createdAt), index().on(t.targetType, t.targetId)],
);

export const AUTH_TOKEN_PURPOSES = ["password_reset", "email_verify", "email_change"] as const;
export const authTokenPurpose = pgEnum("auth_token_purpose", AUTH_TOKEN_PURPOSES);

/**
 * One-time links sent by e-mail: reset a password, verify an address, confirm a new address. Only
 * the SHA-256 of the token is stored; a token is used by one conditional UPDATE (usedAt is null and
 * not expired), so two clicks of one link give one success (docs/decisions/020-account-recovery-and-verification.md).
 */
export const authTokens = pgTable(
  "auth_tokens",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: authTokenPurpose().notNull(),
    tokenHash: text().notNull().unique(),
    /** The address an email_change token moves the account to. */
    newEmail: text(),
    /**
     * An email_verify token from a registration on a taken, unverified address: the password that
     * registration chose, which the link makes the account's (docs/decisions/044-verification-ends-other-holders.md).
     */
    pendingPasswordHash: text(),
    /** SHA-256 of the sign-up cookie of the browser that registered: proof that the link's follower chose the password. */
    registrantHash: text(),
    /** email_verify: where the person was going when they signed up (a draft task, the application), checked by safeReturnTo. */
    returnTo: text(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.userId, t.purpose)],
);
