import { sql } from "drizzle-orm";
import { findTransition, type TaskTransitionName } from "../shared/task-lifecycle.js";
import type { Db } from "./db/client.js";
import type { TaskEvents } from "./task-events.js";

// The live task status (docs/product.md, Live updates; docs/decisions/025-live-task-status.md):
// every change of a task is announced with pg_notify in the transaction that made it, so it is
// heard only on commit, by every instance; each instance then pushes {type:'task_updated'} to the
// poster's, the provider's and admins' sockets it holds (features/chat/hub.ts).

export const TASK_UPDATES_CHANNEL = "task_updates";

/** Events that change a task without a transition of the lifecycle table (money, reviews, posting). */
export type TaskOtherEvent = "posted" | "tip" | "release" | "refund" | "dispute" | "review";

/** How a change moves the job board: a task left it, joined it, or neither. */
export type BoardChange = "removed" | "added" | null;

export interface TaskUpdateOptions {
  /** Someone besides the poster and the current provider to tell (the provider who just lost the task). */
  also?: string | null;
  board?: BoardChange;
}

/**
 * Announces a change of one task. One statement: the row is read inside the caller's transaction
 * (so it is the row as changed) and the notice names its poster and provider; a missing task
 * announces nothing.
 */
export async function announceTaskUpdate(
  tx: Db,
  taskId: string,
  event: TaskTransitionName | TaskOtherEvent,
  options: TaskUpdateOptions = {},
): Promise<void> {
  await tx.execute(sql`
    select pg_notify(${TASK_UPDATES_CHANNEL}, json_build_object(
      'taskId', t.id, 'status', t.status, 'event', ${event}::text, 'board', ${options.board ?? null}::text,
      'userIds', json_build_array(t.user_id, t.provider_id, ${options.also ?? null}::uuid)
    )::text)
    from tasks t where t.id = ${taskId}::uuid`);
}

/** The job-board effect of a transition, read from the lifecycle table so new rows need no edit here. */
export function boardChange(name: TaskTransitionName): BoardChange {
  const { from, to } = findTransition(name);
  if (to === "open") return "added";
  if ((from as readonly string[]).includes("open")) return "removed";
  return null;
}

/** One hook for every transition, present and future. */
export function registerTaskUpdates(taskEvents: TaskEvents): void {
  taskEvents.onAny(({ tx, task, transition, releasedProviderId }) =>
    announceTaskUpdate(tx, task.id, transition, { also: releasedProviderId, board: boardChange(transition) }),
  );
}
