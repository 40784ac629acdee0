import { and, asc, eq, sql } from "drizzle-orm";
import type { Category } from "../../../shared/constants.js";
import { ALERTS_FOR_PROVIDERS_MESSAGE, type JobAlert, type JobAlertList, type SaveJobAlertsBody } from "../../../shared/job-alerts.js";
import { centsToDollars, dollarsToCents } from "../../../shared/money.js";
import { boundingBox, parseNear, RADIUS_MILES, unknownZipMessage } from "../../../shared/task-filters.js";
import { nearPoint } from "../../adapters/geocoding/gazetteer-geocoder.js";
import { queryRows, type Db } from "../../db/client.js";
import { SqlStatement } from "../../db/prepared.js";
import { emailOptOuts } from "../../db/schema/chat.js";
import { jobAlertDigests, jobAlertMatches, jobAlerts } from "../../db/schema/job-alerts.js";
import { providerProfiles } from "../../db/schema/providers.js";
import { users } from "../../db/schema/users.js";
import { fieldError, forbidden } from "../../http-errors.js";
import type { TaskActionEvent } from "../../transition-actions.js";

// Job alerts' queries (docs/product.md#job-alerts, docs/decisions/032-job-alerts.md): the provider's
// saved searches, the candidates of a posted task, the matches waiting for a digest, and the digests
// due. What is told to whom is service.ts's.

const WIDEST_RADIUS = Math.max(...RADIUS_MILES);

async function assertVerifiedProvider(db: Db, userId: string): Promise<void> {
  const [row] = await db
    .select({ id: providerProfiles.id })
    .from(providerProfiles)
    .where(and(eq(providerProfiles.userId, userId), eq(providerProfiles.verificationStatus, "approved")));
  if (!row) throw forbidden(ALERTS_FOR_PROVIDERS_MESSAGE);
}

function toAlert(row: typeof jobAlerts.$inferSelect): JobAlert {
  return {
    id: row.id,
    categories: row.categories as Category[],
    near: row.near,
    radiusMiles: row.radiusMiles,
    minBudget: row.minBudgetCents === null ? null : centsToDollars(row.minBudgetCents),
  };
}

async function listAlerts(db: Db, userId: string): Promise<JobAlertList> {
  const rows = await db.select().from(jobAlerts).where(eq(jobAlerts.userId, userId)).orderBy(asc(jobAlerts.createdAt), asc(jobAlerts.id));
  return { alerts: rows.map(toAlert) };
}

export async function getAlerts(db: Db, userId: string): Promise<JobAlertList> {
  await assertVerifiedProvider(db, userId);
  return listAlerts(db, userId);
}

/** Replaces the provider's whole list in one transaction; a ZIP code the table does not know is a 400 under its field. */
export async function saveAlerts(db: Db, userId: string, body: SaveJobAlertsBody, now: Date): Promise<JobAlertList> {
  await assertVerifiedProvider(db, userId);
  const rows = body.alerts.map((alert, i) => {
    const place = parseNear(alert.near);
    const point = typeof place === "string" ? null : nearPoint(place);
    if (!point) throw fieldError(`alerts.${i}.near`, unknownZipMessage(alert.near.trim()));
    return {
      userId,
      categories: alert.categories,
      near: alert.near.trim(),
      lat: point.lat,
      lon: point.lon,
      radiusMiles: alert.radiusMiles,
      minBudgetCents: alert.minBudget === null ? null : dollarsToCents(alert.minBudget),
      // Keeps the order the provider gave, read back by createdAt.
      createdAt: new Date(now.getTime() + i),
    };
  });
  return db.transaction(async (tx) => {
    // Two saves at once queue here, so the list is one or the other, never both (and never over the limit).
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
    await tx.delete(jobAlerts).where(eq(jobAlerts.userId, userId));
    if (rows.length > 0) await tx.insert(jobAlerts).values(rows);
    return listAlerts(tx, userId);
  });
}

// ---------------------------------------------------------------------------------------------
// Matching a posted task.

interface Candidate {
  userId: string;
  lat: number;
  lon: number;
  radiusMiles: number;
  emailOff: boolean;
}

/**
 * Verified providers (not the poster) with an alert for this task's category and budget whose
 * centre lies in the box of the widest radius around the task: one indexed query
 * (job_alerts_position_idx). The exact distance is then judged here, alert by alert.
 */
export async function candidateAlerts(tx: Db, task: TaskActionEvent["task"], lat: number, lon: number): Promise<Candidate[]> {
  const box = boundingBox(lat, lon, WIDEST_RADIUS);
  const rows = await candidateStatements[box.lon ? "lonBox" : "anyLon"].rows(tx, {
    minLat: box.minLat,
    maxLat: box.maxLat,
    minLon: box.lon?.min ?? null,
    maxLon: box.lon?.max ?? null,
    category: task.category,
    budgetCents: task.budgetCents,
    posterId: task.userId,
  });
  return rows;
}

/**
 * The candidates' statement, written once per shape (a box that wraps the 180th meridian has no
 * longitude bounds) and only executed: it runs inside every posting (docs/benchmarks.md,
 * "Profiles of issue 16").
 */
const candidateStatement = (lonBox: boolean) => {
  const p = sql.placeholder;
  return new SqlStatement<{ userId: string; lat: number; lon: number; radiusMiles: number; emailOff: boolean }>(
    `job_alert_candidates_${lonBox ? "box" : "band"}`,
    sql`select ${jobAlerts.userId}, ${jobAlerts.lat}, ${jobAlerts.lon}, ${jobAlerts.radiusMiles},
        exists (select 1 from ${emailOptOuts} o where o.user_id = ${jobAlerts.userId} and o.kind = 'task_alert') as email_off
      from ${jobAlerts}
      join ${providerProfiles} on ${providerProfiles.userId} = ${jobAlerts.userId} and ${providerProfiles.verificationStatus} = 'approved'
      where ${jobAlerts.lat} between ${p("minLat")}::float8 and ${p("maxLat")}::float8
        ${lonBox ? sql`and ${jobAlerts.lon} between ${p("minLon")}::float8 and ${p("maxLon")}::float8` : sql``}
        and ${p("category")}::text = any(${jobAlerts.categories})
        and (${jobAlerts.minBudgetCents} is null or ${jobAlerts.minBudgetCents} <= ${p("budgetCents")}::int)
        and ${jobAlerts.userId} <> ${p("posterId")}::uuid`,
  );
};
export const candidateStatements = { lonBox: candidateStatement(true), anyLon: candidateStatement(false) };


/** The matches of a posted task that wait for each provider's next digest, in `tx`. */
export async function recordMatches(tx: Db, taskId: string, digest: { userId: string; miles: number }[], now: Date): Promise<void> {
  if (digest.length === 0) return;
  // In one order, so two postings that match the same providers never lock each other's rows crosswise.
  const ordered = [...digest].sort((a, b) => (a.userId < b.userId ? -1 : 1));
  await tx
    .insert(jobAlertMatches)
    .values(ordered.map(({ userId, miles }) => ({ userId, taskId, miles, createdAt: now })))
    .onConflictDoNothing();
  await tx
    .insert(jobAlertDigests)
    .values(ordered.map(({ userId }) => ({ userId, pendingSince: now })))
    .onConflictDoUpdate({ target: jobAlertDigests.userId, set: { pendingSince: sql`coalesce(${jobAlertDigests.pendingSince}, excluded.pending_since)` } });
}

// ---------------------------------------------------------------------------------------------
// The digest e-mail.

export interface DigestRow {
  user_id: string;
  task_id: string;
  miles: number;
  title: string;
  budget_cents: number;
  email: string;
  email_off: boolean;
}

/**
 * The digests due (sendAlertDigests says when), claimed and their matches taken, in `tx`: the
 * matches of tasks still open, by provider then in the order they matched.
 */
export async function takeDueDigests(tx: Db, now: Date, sentBefore: Date, batch: number): Promise<DigestRow[]> {
  const claimed = await queryRows<{ user_id: string }>(
    tx,
    sql`update job_alert_digests d set pending_since = null, last_sent_at = ${now.toISOString()}::timestamptz
        where d.user_id in (
          select user_id from job_alert_digests
          where pending_since is not null and (last_sent_at is null or last_sent_at <= ${sentBefore.toISOString()}::timestamptz)
          order by pending_since limit ${batch}
          for update skip locked)
        and d.pending_since is not null
        and (d.last_sent_at is null or d.last_sent_at <= ${sentBefore.toISOString()}::timestamptz)
        returning d.user_id`,
  );
  if (claimed.length === 0) return [];
  const ids = claimed.map((r) => r.user_id);
  return queryRows<DigestRow>(
    tx,
    sql`with taken as (
          delete from job_alert_matches where user_id in (${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)})
          returning user_id, task_id, miles, created_at)
        select taken.user_id, taken.task_id, taken.miles, t.title, t.budget_cents, u.email,
          exists (select 1 from email_opt_outs o where o.user_id = taken.user_id and o.kind = 'task_alert') as email_off
        from taken
        join tasks t on t.id = taken.task_id and t.status = 'open'
        join users u on u.id = taken.user_id
        order by taken.user_id, taken.created_at, taken.task_id`,
  );
}
