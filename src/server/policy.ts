import { sql, type SQL } from "drizzle-orm";
import type { UserRole } from "../shared/constants.js";
import { users } from "./db/schema/users.js";

// What a session may do beyond its own things: the one place that reads the admin role
// (docs/decisions/068-admin-powers-need-two-factors.md). Admin powers follow from the admin role AND
// a session proven by two factors, everywhere: the admin area (plugins/auth.ts), the task page's
// private side, chats over REST and the socket, disputes, escrow, receipts, files, hidden questions
// and reviews, a task's calendar invitation (decision 074), and the admin rows of the task table. An admin signed in with one factor is an
// ordinary user outside the admin area, and the admin area tells them to add a second factor.
// A lint rule (eslint.config.js) refuses a comparison of a role anywhere else in the server.

/** How a session was proven (features/auth/sessions.ts SessionProof): the first step, and a second factor if one was given. */
export interface Proof {
  firstFactor: string | null;
  secondFactor?: string | null;
}

/** A session as the policy reads it: whose it is and how it was proven (features/auth/sessions.ts SessionUser). */
export interface Session extends Proof {
  id: string;
  role: UserRole;
}

/** The policy's answer about a person, passed where code used to pass their role. */
export interface Viewer {
  id: string;
  /** Admin powers: the admin role on a two-factor session. */
  admin: boolean;
}

/** Proven by two factors: a password and a second factor, or a passkey alone (something held, unlocked on the device). */
export function isMultiFactor(session: Proof): boolean {
  return session.secondFactor != null || session.firstFactor === "passkey";
}

/**
 * The account holds the admin role, whatever its session: it must keep a second factor and cannot
 * be suspended. It grants nothing by itself; isAdminSession does.
 */
export function hasAdminRole(account: { role: UserRole }): boolean {
  return account.role === "admin";
}

/** The same of a users row, in SQL (`users.role`): an admin account, for statements over accounts. */
export const adminAccountSql: SQL = sql`${users.role} = 'admin'`;

/** Admin powers in this session: the admin role, proven by two factors. */
export function isAdminSession(session: Session | null): boolean {
  return session !== null && hasAdminRole(session) && isMultiFactor(session);
}

/** An admin whose session has one factor: the web guides them to add (or sign in with) a second one. */
export function adminNeedsSecondFactor(session: Session | null): boolean {
  return session !== null && hasAdminRole(session) && !isMultiFactor(session);
}

/** Why the admin area refuses this session, or null when it opens (plugins/auth.ts words the 403). */
export function adminAreaRefusal(session: Session): "not_admin" | "second_factor_required" | null {
  if (!hasAdminRole(session)) return "not_admin";
  return isMultiFactor(session) ? null : "second_factor_required";
}

export function viewerOf(session: Session): Viewer {
  return { id: session.id, admin: isAdminSession(session) };
}

/** viewerOf for a caller who may be signed out. */
export function viewerOrNull(session: Session | null): Viewer | null {
  return session === null ? null : viewerOf(session);
}

/**
 * One of a task's people (its poster, its provider, a provider it was requested from) or an admin:
 * who reads what is private to the task (its address, chat, dispute, escrow, evidence).
 */
export function isPartyOrAdmin(viewer: Viewer | null, parties: readonly (string | null)[]): boolean {
  return viewer !== null && (viewer.admin || parties.includes(viewer.id));
}
