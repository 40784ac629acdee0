import { sql } from "drizzle-orm";
import { z } from "zod";
import { CATEGORY_VALUES, TASK_STATUSES } from "../shared/constants.js";
import type { MoneyRecord } from "../shared/money-lifecycle.js";
import { findTaskEvent, type TaskEventWire } from "../shared/task-events.js";
import { findProcessStep, TASK_TRANSITIONS, type TaskProcessName, type TaskTransitionName } from "../shared/task-lifecycle.js";
import type { Db } from "./db/client.js";
import { SqlStatement } from "./db/prepared.js";
import type { AppContext } from "./context.js";

// The live task status (docs/product.md, Live updates; docs/decisions/025-live-task-status.md):
// every change of a task is announced with pg_notify in the transaction that made it, so it is
// heard only on commit, by every instance; each instance then pushes {type:'task_updated'} to the
// poster's, the provider's and admins' sockets it holds (features/chat/hub.ts).

export const TASK_UPDATES_CHANNEL = "task_updates";

/** The money records' frames: each record's changes send one. */
const ANNOUNCED: Record<MoneyRecord, "tip" | "release" | "refund" | "dispute"> = {
  payment: "refund",
  tip: "tip",
  escrow: "release",
  payout: "release",
  dispute: "dispute",
};

/** Events that change a task without a transition of the lifecycle table: money, and the task events' words. */
export type TaskOtherEvent = (typeof ANNOUNCED)[MoneyRecord] | TaskEventWire;

/**
 * Rows that change nothing a stranger's page shows: a proposed or declined new time and "on my way"
 * are between the poster and the provider (decision 074); an accepted time moves the date everyone sees.
 */
const BETWEEN_THE_PARTIES: ReadonlySet<TaskTransitionName> = new Set(["propose_time", "decline_time", "on_my_way"]);

/**
 * The events a task's page shows anyone who opens it: a transition (its status), posting, and its
 * questions, photos and text. A socket watching the page hears these and no others (a payment, a
 * tip, a dispute, a review or an offer concern the two parties; docs/product.md, Live updates).
 */
const SHOWN_TO_EVERYONE: ReadonlySet<string> = new Set<TaskTransitionName | "posted" | TaskOtherEvent>([
  ...TASK_TRANSITIONS.map((row) => row.name).filter((name) => !BETWEEN_THE_PARTIES.has(name)),
  "posted",
  "questions",
  "photos",
  "edited",
]);

export function shownToEveryone(event: string): boolean {
  return SHOWN_TO_EVERYONE.has(event);
}

/**
 * How a change moves the job board: a task left it, joined it, changed on it (its photos), or
 * none of these.
 */
export type BoardChange = "removed" | "added" | "changed" | null;

/** The notice as every instance hears it: the hub pushes it, the job board's cache drops what it changed. */
export const taskUpdateSchema = z.object({
  taskId: z.uuid(),
  status: z.enum(TASK_STATUSES),
  category: z.enum(CATEGORY_VALUES),
  event: z.string(),
  board: z.enum(["removed", "added", "changed"]).nullable(),
  userIds: z.array(z.uuid().nullable()),
  // The task's place in the job board's orders, so a kept answer it cannot reach stays
  // (features/tasks/board-reach.ts); absent from notices of an older instance.
  budgetCents: z.number().int().optional(),
  createdAtMs: z.number().int().optional(),
  // The transaction that made the change: a kept answer whose statement saw it needs no dropping.
  xid: z.string().regex(/^\d+$/).optional(),
});

export type TaskUpdate = z.infer<typeof taskUpdateSchema>;

/** A notice from the channel, or null for anything else (a foreign or older payload is ignored, never thrown). */
export function parseTaskUpdate(payload: string): TaskUpdate | null {
  let json: unknown;
  try {
    json = JSON.parse(payload);
  } catch {
    return null;
  }
  const parsed = taskUpdateSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

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
async function announceTaskUpdate(
  tx: Db,
  taskId: string,
  event: TaskTransitionName | "posted" | TaskOtherEvent,
  options: TaskUpdateOptions = {},
): Promise<void> {
  await announceStatement.rows(tx, { taskId, event, board: options.board ?? null, also: options.also ?? null });
}

/** Written once and only executed: every change of a task runs it (docs/benchmarks.md, "Profiles of issue 16"). */
export const announceStatement = new SqlStatement(
  "announce_task_update",
  sql`select pg_notify(${TASK_UPDATES_CHANNEL}, json_build_object(
      'taskId', t.id, 'status', t.status, 'category', t.category, 'event', ${sql.placeholder("event")}::text,
      'board', ${sql.placeholder("board")}::text,
      'userIds', json_build_array(t.user_id, t.provider_id, ${sql.placeholder("also")}::uuid),
      'budgetCents', t.budget_cents, 'createdAtMs', floor(extract(epoch from t.created_at) * 1000)::bigint,
      'xid', pg_current_xact_id()::text
    )::text)
    from tasks t where t.id = ${sql.placeholder("taskId")}::uuid`,
);

/** The job-board effect of a transition: its row's board action, so the other instances hear what this one's cache did. */
export function boardChange(name: TaskProcessName): BoardChange {
  const actions: readonly string[] = findProcessStep(name).actions;
  if (actions.includes("board.add")) return "added";
  if (actions.includes("board.remove")) return "removed";
  return null;
}

/**
 * The wire name of a transition in the notice: posting keeps the "posted" the web and older
 * instances know (the frame predates posting's row in the table).
 */
const eventOf = (name: TaskProcessName): TaskTransitionName | "posted" => (name === "post" || name === "post_request" || name === "book" ? "posted" : name);

/**
 * The "announce" action of every row of the task table, of the money table (each record's changes
 * send its frame) and of the task events (src/shared/task-events.ts): the only callers of
 * announceTaskUpdate (docs/decisions/083-every-consequence-in-its-row.md).
 */
export function registerTaskUpdates(ctx: Pick<AppContext, "taskActions" | "moneyActions" | "taskEventActions">): void {
  // The provider a task was requested from follows it too until someone is assigned (decision 065).
  ctx.taskActions.handle("announce", ({ tx, task, transition, releasedProviderId }) =>
    announceTaskUpdate(tx, task.id, eventOf(transition), {
      also: releasedProviderId ?? (task.providerId === null ? (task.requestedProviderId ?? null) : null),
      board: boardChange(transition),
    }),
  );
  ctx.moneyActions.handle("announce", (event) => {
    if (!event.task) throw new Error(`${event.transition} announced without its task`);
    return announceTaskUpdate(event.tx, event.task.id, ANNOUNCED[event.transition.split(".")[0] as MoneyRecord]);
  });
  ctx.taskEventActions.handle("announce", ({ tx, taskId, event, also }) => {
    const row = findTaskEvent(event);
    if (row.wire === null) throw new Error(`The task event ${event} announces without a frame word`);
    return announceTaskUpdate(tx, taskId, row.wire, { board: row.board, also: also ?? null });
  });
}
