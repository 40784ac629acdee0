import { sql, type SQL } from "drizzle-orm";
import { BLIND_REVIEW_DAYS } from "../../../shared/constants.js";
import { displayName } from "../../../shared/names.js";
import type { Review, TaskReviews, UserReviews } from "../../../shared/reviews.js";
import { queryRows, type Db } from "../../db/client.js";
import { averageRatingSql, toRating } from "../../db/ratings.js";
import { badRequest, conflict, forbidden, notFound } from "../../http-errors.js";
import { isPartyOrAdmin, type Viewer } from "../../policy.js";
import type { AppContext } from "../../context.js";
import { recordTaskEvent } from "../../transition-actions.js";

/** The database and the task events' handlers: a review is the task event "reviewed" (src/shared/task-events.ts). */
type Events = Pick<AppContext, "db" | "taskEventActions">;

// Two-way, blind reviews (docs/product.md#reviews): neither side sees the other's review until both
// have written one or BLIND_REVIEW_DAYS have passed since completion, so the second reviewer cannot
// retaliate or copy. The moment a review is revealed is stored (reviews.revealed_at): by the second
// review of the pair, in its own transaction, or by the reveal job once the window has passed. Every
// reader asks `revealed_at is not null`, and the database trigger on reviews keeps each person's
// rating on their users row from it (docs/decisions/037-ratings-on-the-user-row.md).

export const BLIND_MS = BLIND_REVIEW_DAYS * 86_400_000;

interface ReviewRow {
  id: string;
  task_id: string;
  reviewer_id: string;
  reviewed_id: string;
  reviewer_first: string;
  reviewer_last: string;
  rating: number;
  comment: string | null;
  created_at: string | Date;
}

function toReview(row: ReviewRow): Review {
  return {
    id: row.id,
    taskId: row.task_id,
    reviewerId: row.reviewer_id,
    reviewedId: row.reviewed_id,
    // Reviews are read beyond the task's two parties (GET /api/reviews/user/{id} is public): the
    // display name only (docs/product.md, "People you can see").
    reviewerName: displayName({ firstName: row.reviewer_first, lastName: row.reviewer_last }),
    rating: Number(row.rating),
    comment: row.comment,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

const reviewColumns = sql`r.id, r.task_id, r.reviewer_id, r.reviewed_id, u.first_name as reviewer_first,
  u.last_name as reviewer_last, r.rating, r.comment, r.created_at`;

interface TaskRow {
  user_id: string;
  provider_id: string | null;
  status: string;
  completed_at: string | Date | null;
}

async function loadTask(db: Db, taskId: string): Promise<TaskRow> {
  const [task] = await queryRows<TaskRow>(db, sql`select user_id, provider_id, status, completed_at from tasks where id = ${taskId}::uuid`);
  if (!task) throw notFound("Task not found");
  return task;
}

/** Review `r`'s subject has reviewed the task too: the pair is complete. */
const otherReviewed = sql`exists (select 1 from reviews o where o.task_id = r.task_id and o.reviewer_id = r.reviewed_id)`;

/**
 * Reveals, at `now`, the blind reviews that `due` (a condition on review `r` and its task `t`)
 * picks, at most `limit`; returns each revealed review's task id. The trigger then adds each rating to the
 * reviewed person's users row, so those rows are locked first, in id order: two reveals at once (the
 * job on two instances, the job and a second review) queue on the first row they share instead of
 * each holding one the other needs. The UPDATE checks `revealed_at is null` and `due` again, so a
 * review is revealed once however many run it.
 */
async function reveal(tx: Db, due: SQL, now: Date, limit: number): Promise<string[]> {
  const candidates = await queryRows<{ id: string; reviewed_id: string }>(
    tx,
    sql`select r.id, r.reviewed_id from reviews r join tasks t on t.id = r.task_id
        where r.revealed_at is null and ${due}
        order by r.id limit ${limit}`,
  );
  if (candidates.length === 0) return [];
  const people = [...new Set(candidates.map((c) => c.reviewed_id))];
  await tx.execute(sql`select id from users where id = any(${sql.param(people)}::uuid[]) order by id for no key update`);
  const revealed = await queryRows<{ task_id: string }>(
    tx,
    sql`update reviews r set revealed_at = ${now.toISOString()}::timestamptz
        from tasks t
        where t.id = r.task_id and r.id = any(${sql.param(candidates.map((c) => c.id))}::uuid[])
          and r.revealed_at is null and ${due}
        returning r.task_id`,
  );
  return revealed.map((r) => r.task_id);
}

export async function createReview(
  ctx: Events,
  input: { taskId: string; reviewerId: string; reviewedId: string; rating: number; comment: string | null; now: Date },
): Promise<Review> {
  return ctx.db.transaction(async (tx) => {
    // One review at a time per task: the second of a pair waits for the first to commit, then sees
    // it and reveals both. NO KEY UPDATE, so chat messages (which reference the task) do not wait.
    const [task] = await queryRows<TaskRow>(
      tx,
      sql`select user_id, provider_id, status, completed_at from tasks where id = ${input.taskId}::uuid for no key update`,
    );
    if (!task) throw notFound("Task not found");
    // One statement decides: a completed task, the reviewer one participant and the reviewed the
    // other, and (task_id, reviewer_id) unique. The checks below only explain a refusal.
    const [inserted] = await queryRows<{ id: string }>(
      tx,
      sql`insert into reviews (task_id, reviewer_id, reviewed_id, rating, comment, created_at)
          select t.id, ${input.reviewerId}::uuid, ${input.reviewedId}::uuid, ${input.rating}, ${input.comment}, ${input.now.toISOString()}::timestamptz
          from tasks t
          where t.id = ${input.taskId}::uuid and t.status = 'completed' and t.provider_id is not null
            and ((t.user_id = ${input.reviewerId}::uuid and t.provider_id = ${input.reviewedId}::uuid)
              or (t.provider_id = ${input.reviewerId}::uuid and t.user_id = ${input.reviewedId}::uuid))
          on conflict (task_id, reviewer_id) do nothing
          returning id`,
    );
    if (!inserted) {
      if (task.user_id !== input.reviewerId && task.provider_id !== input.reviewerId) {
        throw forbidden("Only the customer and the provider of this task can review it");
      }
      if (task.status !== "completed") throw conflict("Reviews open once the task is completed");
      const other = task.user_id === input.reviewerId ? task.provider_id : task.user_id;
      if (input.reviewedId !== other) throw badRequest("reviewedId must be the other participant of this task");
      throw conflict("You have already reviewed this task");
    }
    // The second review of the pair reveals both, now.
    await reveal(tx, sql`r.task_id = ${input.taskId}::uuid and ${otherReviewed}`, input.now, 2);
    // The other party's page learns of it live (docs/decisions/025-live-task-status.md).
    await recordTaskEvent(ctx.taskEventActions, "reviewed", { taskId: input.taskId, actorId: input.reviewerId, tx, now: input.now });
    const [row] = await queryRows<ReviewRow>(
      tx,
      sql`select ${reviewColumns} from reviews r join users u on u.id = r.reviewer_id where r.id = ${inserted.id}::uuid`,
    );
    if (!row) throw new Error("inserted review not found");
    return toReview(row);
  });
}

/**
 * The reveal job (docs/product.md#reviews): reviews whose blind window has passed, and any pair a
 * second review left unrevealed (written before revealed_at existed, or by hand), become visible;
 * each task's poster, provider and admins hear it live like a submitted review. Safe on every
 * instance at once (see `reveal`). Returns how many reviews it revealed.
 */
export async function revealDueReviews(ctx: Events, now: Date, batch = 500): Promise<number> {
  const cutoff = new Date(now.getTime() - BLIND_MS);
  return ctx.db.transaction(async (tx) => {
    const due = sql`(t.completed_at <= ${cutoff.toISOString()}::timestamptz or ${otherReviewed})`;
    const revealed = await reveal(tx, due, now, batch);
    for (const taskId of new Set(revealed)) await recordTaskEvent(ctx.taskEventActions, "reviewed", { taskId, actorId: null, tx, now });
    return revealed.length;
  });
}

export async function reviewsForTask(db: Db, taskId: string, viewer: Viewer): Promise<TaskReviews> {
  const task = await loadTask(db, taskId);
  const { admin } = viewer;
  if (!isPartyOrAdmin(viewer, [task.user_id, task.provider_id])) {
    throw forbidden("Only the customer and the provider of this task can see its reviews");
  }
  const rows = await queryRows<ReviewRow & { revealed: boolean; hidden: boolean }>(
    db,
    sql`select ${reviewColumns}, r.revealed_at is not null as revealed, r.hidden_at is not null as hidden
        from reviews r join users u on u.id = r.reviewer_id
        where r.task_id = ${taskId}::uuid
        order by r.created_at`,
  );
  // Admins moderate, so they see everything; a participant sees their own and revealed ones.
  // A review an admin hid is gone for everyone else (docs/product.md, Moderation).
  const visible = rows.filter((r) => admin || (!r.hidden && (r.reviewer_id === viewer.id || r.revealed)));
  const hidden = rows.length > visible.length;
  const completedAt = task.completed_at ? new Date(task.completed_at) : null;
  return {
    reviews: visible.map(toReview),
    reviewedByMe: rows.some((r) => r.reviewer_id === viewer.id),
    revealsAt: hidden && completedAt ? new Date(completedAt.getTime() + BLIND_MS).toISOString() : null,
  };
}

export async function reviewsOfUser(db: Db, userId: string): Promise<UserReviews> {
  // Both statements only read: run them side by side.
  const [people, rows] = await Promise.all([
    queryRows<{ average: string | null; count: number }>(
      db,
      sql`select ${averageRatingSql(sql`u.rating_sum`, sql`u.rating_count`)} as average, u.rating_count as count
          from users u where u.id = ${userId}::uuid`,
    ),
    queryRows<ReviewRow>(
      db,
      sql`select ${reviewColumns}
          from reviews r join users u on u.id = r.reviewer_id
          where r.reviewed_id = ${userId}::uuid and r.revealed_at is not null and r.hidden_at is null
          order by r.created_at desc, r.id desc
          limit 50`,
    ),
  ]);
  const person = people[0];
  return { reviews: rows.map(toReview), average: toRating(person?.average ?? null), count: Number(person?.count ?? 0) };
}
