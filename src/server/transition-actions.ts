import type { FastifyRequest } from "fastify";
import type { MoneyAction, MoneyRecord } from "../shared/money-lifecycle.js";
import type { RefundReason } from "../shared/task-statement.js";
import type { TaskAction, TaskProcessName } from "../shared/task-lifecycle.js";
import { findTaskEvent, type TaskEventAction, type TaskEventName } from "../shared/task-events.js";
import type { Db } from "./db/client.js";
import type { disputes, payments, payouts, tips } from "./db/schema/payments.js";
import type { tasks } from "./db/schema/tasks.js";

// The named consequences of the transition tables (docs/decisions/045-transitions-name-their-actions.md).
// A row of the table lists its actions in order; each feature registers the one handler of each
// name it owns; the transition function runs the row's names in order, inside the transition's
// transaction, so a consequence commits or rolls back with it. buildApp refuses to start while a
// name in a table has no handler, or a handler no name (assertActionsHandled).

export type TaskRow = typeof tasks.$inferSelect;

/** An offer as a poster accepts it: its id and the price they were shown, in cents (docs/decisions/061-offers.md). */
export interface NamedOffer {
  id: string;
  priceCents: number;
}

/** What every task action is handed. */
export interface TaskActionEvent {
  transition: TaskProcessName;
  /** The task as the transition left it. */
  task: TaskRow;
  /** Who did it; null for the timer and the payment system. */
  actorId: string | null;
  /**
   * The provider a transition released (decline, expire): `task.providerId` is already null then,
   * and the notice still has to reach them. Null for transitions that keep the provider.
   */
  releasedProviderId: string | null;
  /** Why an admin moved the task (remove, release), for the notices; absent for everyone else's transitions. */
  reason?: string;
  /** The offer the transition names, at the price its actor saw (accept_offer); null for the others. */
  offer: NamedOffer | null;
  tx: Db;
  now: Date;
}

export type ActionHandler<E> = (event: E) => Promise<void>;

/** One handler per action name of one table. */
export class ActionRegistry<Name extends string, E> {
  private readonly handlers = new Map<string, ActionHandler<E>>();

  /** @param table what the names belong to, for the start-up error; @param named every name its rows use. */
  constructor(
    readonly table: string,
    readonly named: readonly Name[],
  ) {}

  handle(name: Name, handler: ActionHandler<E>): void {
    if (this.handlers.has(name)) throw new Error(`The ${this.table} action "${name}" has two handlers; register exactly one.`);
    this.handlers.set(name, handler);
  }

  /** Runs one action; every name of a row was checked at start-up, so a missing one is a programming error. */
  async run(name: Name, event: E): Promise<void> {
    const handler = this.handlers.get(name);
    if (!handler) throw new Error(`The ${this.table} action "${name}" has no handler.`);
    await handler(event);
  }

  /** Names used by the table without a handler, and handlers for names the table does not use. */
  problems(): { missing: string[]; extra: string[] } {
    const named = new Set<string>(this.named);
    return {
      missing: [...named].filter((name) => !this.handlers.has(name)),
      extra: [...this.handlers.keys()].filter((name) => !named.has(name)),
    };
  }
}

export type TaskActions = ActionRegistry<TaskAction, TaskActionEvent>;

/** The task table's registry, expecting a handler for every action its rows name. */
export function taskActionRegistry(named: readonly TaskAction[]): TaskActions {
  return new ActionRegistry<TaskAction, TaskActionEvent>("task", named);
}

/** Throws one error naming every missing and every extra handler of every registry. */
export function assertActionsHandled(registries: readonly Pick<ActionRegistry<string, unknown>, "table" | "problems">[]): void {
  const lines: string[] = [];
  for (const registry of registries) {
    const { missing, extra } = registry.problems();
    for (const name of missing) lines.push(`the ${registry.table} action "${name}" is named in its table but has no handler`);
    for (const name of extra) lines.push(`a handler is registered for the ${registry.table} action "${name}", which no row of its table names`);
  }
  if (lines.length > 0) {
    throw new Error(`The server cannot start: ${lines.join("; ")}. Register one handler per action named in the transition tables (docs/decisions/045-transitions-name-their-actions.md).`);
  }
}

/**
 * What every money action is handed: the task the money belongs to and the record the row moved (the
 * one its record names; a row's handlers refuse an event without it). A resolved dispute carries the
 * admin's split.
 */
export interface MoneyActionEvent {
  transition: `${MoneyRecord}.${string}`;
  /** Every record but a payout belongs to a task. */
  task?: TaskRow;
  actorId: string | null;
  tx: Db;
  now: Date;
  payment?: typeof payments.$inferSelect;
  tip?: typeof tips.$inferSelect;
  payout?: typeof payouts.$inferSelect;
  dispute?: typeof disputes.$inferSelect;
  /** The admin resolving a dispute, who also ends its unfinished task (the task table's "resolve_dispute"). */
  admin?: NonNullable<FastifyRequest["user"]>;
  /** A note on the ledger transaction ("late capture"). */
  memo?: string;
  /** Why a refund gives the escrow back (payment.refund): a statement reads it (src/shared/task-statement.ts). */
  refundReason?: RefundReason;
}

export type MoneyActions = ActionRegistry<MoneyAction, MoneyActionEvent>;

/** The money table's registry (src/shared/money-lifecycle.ts), expecting a handler for every action its rows name. */
export function moneyActionRegistry(named: readonly MoneyAction[]): MoneyActions {
  return new ActionRegistry<MoneyAction, MoneyActionEvent>("money", named);
}

/**
 * What every action of a task event (src/shared/task-events.ts) is handed: the change's task, who made
 * it, and what its notice tells; each notice handler refuses an event without the part it reads.
 */
export interface TaskEventPayload {
  event: TaskEventName;
  taskId: string;
  actorId: string | null;
  tx: Db;
  now: Date;
  /** The task's poster and title (and its provider, for a dispute's message), for the notices. */
  task?: Pick<TaskRow, "userId" | "title"> & { providerId?: string | null };
  /** offer_made: the offered price and whether the offer is new or changed. */
  offer?: { priceCents: number; created: boolean };
  /** question_asked / question_answered: who asked, and the text the notice previews (masked). */
  question?: { askerId: string; text: string };
  /** dispute_message: whether its author wrote as an admin. */
  byAdmin?: boolean;
  /** reminder_due / provider_late: the booked task as it is now, who is reminded, and the start the reminder is for. */
  reminder?: { task: TaskRow; kind: "day_before" | "hour_before" | "late"; recipientId: string; startsAt: Date };
  /** Someone besides the poster and the provider whose open page should refresh (the asker of an answered question). */
  also?: string | null;
}

export type TaskEventActions = ActionRegistry<TaskEventAction, TaskEventPayload>;

/** The task events' registry, expecting a handler for every action their rows name. */
export function taskEventRegistry(named: readonly TaskEventAction[]): TaskEventActions {
  return new ActionRegistry<TaskEventAction, TaskEventPayload>("task event", named);
}

/** Runs the event's row: its actions in order, in the caller's transaction (decision 083). */
export async function recordTaskEvent(
  actions: TaskEventActions,
  name: TaskEventName,
  payload: Omit<TaskEventPayload, "event">,
): Promise<void> {
  const event: TaskEventPayload = { ...payload, event: name };
  for (const action of findTaskEvent(name).actions) await actions.run(action, event);
}
