import { sql, type SQL } from "drizzle-orm";
import { BLIND_REVIEW_DAYS } from "../../shared/constants.js";

// Reviews are blind (docs/decisions/010-chat-fanout-and-notifications.md): review `r` of task `t`
// counts anywhere (lists, averages on task cards and in the directory) only once the other side has
// reviewed too, or BLIND_REVIEW_DAYS have passed since completion. One definition for every feature
// that reads the reviews table, so a rating can never reveal a hidden review.

export const BLIND_MS = BLIND_REVIEW_DAYS * 86_400_000;

/** SQL true when review `r` (joined with its task as `t`) is revealed at `now` (the app clock). */
export function revealedCondition(now: Date): SQL {
  return revealedBy(sql`${new Date(now.getTime() - BLIND_MS).toISOString()}`);
}

/** The same rule with the cutoff (now minus BLIND_MS) as SQL: a prepared statement's placeholder. */
export function revealedBy(cutoff: SQL): SQL {
  return sql`(exists (select 1 from reviews o where o.task_id = r.task_id and o.reviewer_id = r.reviewed_id)
    or (t.completed_at is not null and t.completed_at <= ${cutoff}::timestamptz))`;
}
