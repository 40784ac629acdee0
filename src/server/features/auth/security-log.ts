import type { FastifyRequest } from "fastify";
import { and, desc, eq, lt } from "drizzle-orm";
import { describeDevice } from "../../../shared/account.js";
import type { SecurityEventView } from "../../../shared/security.js";
import { SECURITY_EVENTS, SECURITY_LOG_RETENTION_DAYS, type SecurityEventName } from "../../../shared/security-rules.js";
import type { Db } from "../../db/client.js";
import { securityEvents } from "../../db/schema/security.js";

// The security log (ASVS 16.3; docs/decisions/050-step-up-and-security-log.md): sign-ins and their
// failures, changes of the password, the e-mail address, the factors and the payout details,
// recovery-code use, step-ups, admin resets and refused admin requests;
// who, when, from which address and browser, and how it went. Shown to the person and to admins,
// exported with the account's data, deleted after SECURITY_LOG_RETENTION_DAYS.

export interface SecurityEventInput {
  userId: string | null;
  event: SecurityEventName;
  result: "success" | "failure";
  /** The admin who acted on someone else's account. */
  actorId?: string | null;
  details?: Record<string, unknown>;
}

/** The person's request, for their address and browser; null for a change another system reports (the payment provider's webhook). */
export type SecurityRequest = Pick<FastifyRequest, "ip" | "headers"> | null;

/** Writes one event, in the caller's transaction when `db` is one. */
export async function recordSecurityEvent(db: Db, request: SecurityRequest, now: Date, input: SecurityEventInput): Promise<void> {
  const agent = request?.headers["user-agent"];
  await db.insert(securityEvents).values({
    userId: input.userId,
    actorId: input.actorId ?? null,
    event: input.event,
    result: input.result,
    ip: request ? request.ip.slice(0, 64) : null,
    userAgent: typeof agent === "string" ? agent.slice(0, 512) : null,
    details: input.details ?? {},
    createdAt: now,
  });
}

/** The newest events of one account, worded for people. */
export async function listSecurityEvents(db: Db, userId: string, limit = 50): Promise<SecurityEventView[]> {
  const rows = await db
    .select()
    .from(securityEvents)
    .where(eq(securityEvents.userId, userId))
    .orderBy(desc(securityEvents.createdAt))
    .limit(limit);
  return rows.map((row) => ({
    id: row.id,
    event: row.event,
    description: SECURITY_EVENTS[row.event as SecurityEventName] ?? row.event,
    result: row.result,
    ip: row.ip,
    device: describeDevice(row.userAgent),
    createdAt: row.createdAt.toISOString(),
  }));
}

export async function deleteOldSecurityEvents(db: Db, now: Date): Promise<number> {
  const before = new Date(now.getTime() - SECURITY_LOG_RETENTION_DAYS * 86_400_000);
  const gone = await db.delete(securityEvents).where(and(lt(securityEvents.createdAt, before))).returning({ id: securityEvents.id });
  return gone.length;
}
