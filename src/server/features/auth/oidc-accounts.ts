import { and, eq, isNull } from "drizzle-orm";
import { emailSchema } from "../../../shared/common.js";
import type { Db } from "../../db/client.js";
import { users } from "../../db/schema/users.js";
import type { UserRow } from "./sessions.js";
import { proveInbox } from "./inbox-proof.js";
import type { SecurityRequest } from "./security-log.js";

// Who an OpenID Connect sign-in is: the IdP's claims turned into a profile, then matched to one of
// our accounts by subject, else by verified e-mail, else a new account.

export interface OidcProfile {
  subject: string;
  email: string;
  /** Only `true` when the IdP asserts it; a missing claim is "unknown", not verified. */
  emailVerified: boolean;
  firstName: string;
  lastName: string;
}

/** A sign-in we refuse; the message goes to the log, the person sees the generic sign-in error. */
export class OidcSignInError extends Error {}

const NAME_MAX = 60;

function claimText(value: unknown): string {
  return typeof value === "string" ? value.trim().slice(0, NAME_MAX) : "";
}

/** Some IdPs (Cognito) send booleans as strings. */
function claimBoolean(value: unknown): boolean | undefined {
  if (value === true || value === "true") return true;
  if (value === false || value === "false") return false;
  return undefined;
}

export function profileFromClaims(claims: Record<string, unknown>): OidcProfile {
  const subject = typeof claims.sub === "string" ? claims.sub : "";
  if (!subject) throw new OidcSignInError("the IdP sent no subject");
  const email = emailSchema.safeParse(claims.email);
  if (!email.success) throw new OidcSignInError("the IdP sent no usable e-mail (is the email scope granted?)");
  const verified = claimBoolean(claims.email_verified);
  if (verified === false) throw new OidcSignInError(`the IdP says ${email.data} is not verified`);

  let firstName = claimText(claims.given_name);
  let lastName = claimText(claims.family_name);
  if (!firstName && !lastName) {
    const [first = "", ...rest] = claimText(claims.name).split(/\s+/);
    firstName = first;
    lastName = rest.join(" ");
  }
  if (!firstName) firstName = (email.data.split("@")[0] ?? "").slice(0, NAME_MAX);
  return { subject, email: email.data, emailVerified: verified === true, firstName, lastName };
}

/**
 * The account for this profile. Linking an existing account by e-mail needs the IdP to assert the
 * address is verified: otherwise anyone who can register that address at the IdP would take the
 * account over. An account already linked to another subject is never re-linked.
 */
export async function accountForOidcProfile(
  db: Db,
  profile: OidcProfile,
  options: { adminEmails: readonly string[]; now: Date; request: SecurityRequest },
): Promise<UserRow> {
  const [bySubject] = await db.select().from(users).where(eq(users.oidcSubject, profile.subject)).limit(1);
  if (bySubject) return verifiedByIdp(db, bySubject, profile, options);

  const [byEmail] = await db.select().from(users).where(eq(users.email, profile.email)).limit(1);
  if (byEmail) {
    if (!profile.emailVerified) {
      throw new OidcSignInError(`${profile.email} has a local account and the IdP does not assert the address is verified`);
    }
    return db.transaction(async (tx) => {
      // Conditional, so two concurrent first sign-ins cannot both link (or overwrite another subject).
      const [linked] = await tx
        .update(users)
        .set({ oidcSubject: profile.subject, updatedAt: options.now })
        .where(and(eq(users.id, byEmail.id), isNull(users.oidcSubject)))
        .returning();
      if (!linked) throw new OidcSignInError(`${profile.email} is already linked to another single sign-on identity`);
      return verifiedByIdp(tx, linked, profile, options);
    });
  }

  const [created] = await db
    .insert(users)
    .values({
      email: profile.email,
      oidcSubject: profile.subject,
      passwordHash: null,
      firstName: profile.firstName,
      lastName: profile.lastName,
      // Only an address the identity provider vouches for may claim an ADMIN_EMAILS seat.
      role: options.adminEmails.includes(profile.email) && profile.emailVerified ? "admin" : "user",
      // The IdP's email_verified claim counts as our verification (docs/decisions/020-account-recovery-and-verification.md).
      emailVerifiedAt: profile.emailVerified ? options.now : null,
      createdAt: options.now,
      updatedAt: options.now,
    })
    .onConflictDoNothing()
    .returning();
  // A concurrent first sign-in of the same person won the insert; the next attempt finds the account.
  if (!created) throw new OidcSignInError(`${profile.email} was created concurrently; sign in again`);
  return created;
}

/**
 * An existing account signing in: when the IdP now vouches for the address the account still has,
 * it counts as verified (with the ADMIN_EMAILS promotion that goes with it). That is the address's
 * first proof, so the password, factors and sessions someone may have made before it go, and the
 * single sign-on link that proved it stays (inbox-proof.ts, decision 067).
 */
async function verifiedByIdp(db: Db, user: UserRow, profile: OidcProfile, options: { adminEmails: readonly string[]; now: Date; request: SecurityRequest }): Promise<UserRow> {
  if (user.emailVerifiedAt || !profile.emailVerified || user.email !== profile.email) return user;
  return db.transaction(async (tx) => {
    await proveInbox(tx, user.id, { keepsPassword: false, keepsSingleSignOn: true }, options);
    const [fresh] = await tx.select().from(users).where(eq(users.id, user.id)).limit(1);
    return fresh ?? user;
  });
}
