import type { TaskTransitionName } from "../shared/task-lifecycle.js";
import type { Db } from "./db/client.js";
import type { tasks } from "./db/schema/tasks.js";

// Features react to task transitions without importing each other: payments refunds on cancel
// and releases on complete, notifications tell the other party. Handlers run inside the
// transaction of the transition, so the reaction commits or rolls back with it.

export type TaskRow = typeof tasks.$inferSelect;

export interface TaskTransitionEvent {
  transition: TaskTransitionName;
  /** The task as the transition left it. */
  task: TaskRow;
  /** Who did it; null for the timer. */
  actorId: string | null;
  /**
   * The provider a transition released (decline, expire): `task.providerId` is already null then,
   * and the notice still has to reach them. Null for transitions that keep the provider.
   */
  releasedProviderId: string | null;
  tx: Db;
  now: Date;
}

export type TaskEventHandler = (event: TaskTransitionEvent) => Promise<void>;

/** A task was just posted (not a transition: the lifecycle table starts at "open"). */
export interface TaskPostedEvent {
  task: TaskRow;
  tx: Db;
  now: Date;
}

export type TaskPostedHandler = (event: TaskPostedEvent) => Promise<void>;

/** What a job-board card shows changed without a transition (its photos), inside the change's transaction. */
export type CardChangedHandler = (task: Pick<TaskRow, "id" | "category">) => void;

export class TaskEvents {
  private readonly handlers = new Map<TaskTransitionName, TaskEventHandler[]>();
  private readonly anyHandlers: TaskEventHandler[] = [];
  private readonly postedHandlers: TaskPostedHandler[] = [];
  private readonly cardHandlers: CardChangedHandler[] = [];

  on(transition: TaskTransitionName, handler: TaskEventHandler): void {
    const list = this.handlers.get(transition) ?? [];
    list.push(handler);
    this.handlers.set(transition, list);
  }

  /** Runs on every transition, present and future (the live task status, docs/decisions/025-live-task-status.md). */
  onAny(handler: TaskEventHandler): void {
    this.anyHandlers.push(handler);
  }

  async emit(event: TaskTransitionEvent): Promise<void> {
    for (const handler of this.handlers.get(event.transition) ?? []) await handler(event);
    for (const handler of this.anyHandlers) await handler(event);
  }

  /** Runs inside the posting transaction (job alerts, docs/decisions/032-job-alerts.md). */
  onPosted(handler: TaskPostedHandler): void {
    this.postedHandlers.push(handler);
  }

  async emitPosted(event: TaskPostedEvent): Promise<void> {
    for (const handler of this.postedHandlers) await handler(event);
  }

  /** The job board's cache (docs/decisions/035-job-board-cache.md). */
  onCardChanged(handler: CardChangedHandler): void {
    this.cardHandlers.push(handler);
  }

  emitCardChanged(task: Pick<TaskRow, "id" | "category">): void {
    for (const handler of this.cardHandlers) handler(task);
  }
}
