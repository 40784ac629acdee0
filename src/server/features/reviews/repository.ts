import { sql } from "drizzle-orm";
import { displayName } from "../../../shared/names.js";
import type { Review, TaskReviews, UserReviews } from "../../../shared/reviews.js";
import { queryRows, type Db } from "../../db/client.js";
import { BLIND_MS, revealedCondition } from "../../db/review-visibility.js";
import { badRequest, conflict, forbidden, notFound } from "../../http-errors.js";
import { announceTaskUpdate } from "../../task-updates.js";

// Two-way, blind reviews: neither side sees the other's review until both have written one or
// BLIND_REVIEW_DAYS have passed since completion, so the second reviewer cannot retaliate or
// copy. A review is "revealed" when
//   exists (select 1 from reviews o where o.task_id = r.task_id and o.reviewer_id = r.reviewed_id)
//   or t.completed_at <= now - interval '14 days'
// and only revealed reviews count in averages anywhere (docs/decisions/010-chat-fanout-and-notifications.md).

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

export async function createReview(
  db: Db,
  input: { taskId: string; reviewerId: string; reviewedId: string; rating: number; comment: string | null; now: Date },
): Promise<Review> {
  // One statement decides: a completed task, the reviewer one participant and the reviewed the
  // other, and (task_id, reviewer_id) unique. The reads below only explain a refusal.
  const [inserted] = await queryRows<{ id: string }>(
    db,
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
    const task = await loadTask(db, input.taskId);
    if (task.user_id !== input.reviewerId && task.provider_id !== input.reviewerId) {
      throw forbidden("Only the customer and the provider of this task can review it");
    }
    if (task.status !== "completed") throw conflict("Reviews open once the task is completed");
    const other = task.user_id === input.reviewerId ? task.provider_id : task.user_id;
    if (input.reviewedId !== other) throw badRequest("reviewedId must be the other participant of this task");
    throw conflict("You have already reviewed this task");
  }
  // The other party's page learns of it live: a second review reveals both (docs/decisions/025-live-task-status.md).
  await announceTaskUpdate(db, input.taskId, "review");
  const [row] = await queryRows<ReviewRow>(
    db,
    sql`select ${reviewColumns} from reviews r join users u on u.id = r.reviewer_id where r.id = ${inserted.id}::uuid`,
  );
  if (!row) throw new Error("inserted review not found");
  return toReview(row);
}

export async function reviewsForTask(db: Db, taskId: string, viewer: { id: string; role: string }, now: Date): Promise<TaskReviews> {
  const task = await loadTask(db, taskId);
  const admin = viewer.role === "admin";
  if (!admin && viewer.id !== task.user_id && viewer.id !== task.provider_id) {
    throw forbidden("Only the customer and the provider of this task can see its reviews");
  }
  const rows = await queryRows<ReviewRow & { revealed: boolean }>(
    db,
    sql`select ${reviewColumns}, ${revealedCondition(now)} as revealed
        from reviews r join users u on u.id = r.reviewer_id join tasks t on t.id = r.task_id
        where r.task_id = ${taskId}::uuid
        order by r.created_at`,
  );
  // Admins moderate, so they see everything; a participant sees their own and revealed ones.
  const visible = rows.filter((r) => admin || r.reviewer_id === viewer.id || r.revealed);
  const hidden = rows.length > visible.length;
  const completedAt = task.completed_at ? new Date(task.completed_at) : null;
  return {
    reviews: visible.map(toReview),
    reviewedByMe: rows.some((r) => r.reviewer_id === viewer.id),
    revealsAt: hidden && completedAt ? new Date(completedAt.getTime() + BLIND_MS).toISOString() : null,
  };
}

export async function reviewsOfUser(db: Db, userId: string, now: Date): Promise<UserReviews> {
  const rows = await queryRows<ReviewRow>(
    db,
    sql`select ${reviewColumns}
        from reviews r join users u on u.id = r.reviewer_id join tasks t on t.id = r.task_id
        where r.reviewed_id = ${userId}::uuid and ${revealedCondition(now)}
        order by r.created_at desc`,
  );
  const reviews = rows.map(toReview);
  const count = reviews.length;
  const average = count === 0 ? null : Math.round((reviews.reduce((s, r) => s + r.rating, 0) / count) * 10) / 10;
  return { reviews: reviews.slice(0, 50), average, count };
}
