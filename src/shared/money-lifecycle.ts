import { APPROVAL_WINDOW_HOURS, REPORT_PROBLEM_HOURS_AFTER_COMPLETION } from "./constants.js";
import type { NoticeDeclaration, TaskTransitionName } from "./task-lifecycle.js";

// The money records (payment, tip, escrow hold, payout) as one declarative transition table, in the
// style of the task lifecycle (src/shared/task-lifecycle.ts) and of Sharetribe's transaction
// processes: each row names its record, the actor (a person, the card processor, a timer, or the
// server reacting to another transition), the states it leaves and the one it reaches, the
// conditions it needs, the guards that read more than the record, and its ordered, named actions
// (docs/decisions/008-payments-and-ledger.md, docs/decisions/045-transitions-name-their-actions.md).
// The payments feature registers one handler per action name; the server refuses to start otherwise.
//
// Money moves only through the `ledger.*` actions: each is one balanced ledger transaction, written in the
// same database transaction as the record's conditional UPDATE (`... WHERE status IN (<from>) AND
// <conditions>`), so a repeated event, request or job run finds the record already moved and moves
// no money twice. The status columns are PostgreSQL enums of the state lists below.

export const PAYMENT_STATUSES = ["requires_payment", "processing", "failed", "captured", "refunded"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/**
 * A payment that still stands for its task: only a refunded one (a capture that came too late) has
 * stepped aside, so a reactivated task can be paid again. A failed one is live: it is retried.
 */
export const LIVE_PAYMENT_STATUSES = ["requires_payment", "processing", "failed", "captured"] as const satisfies readonly PaymentStatus[];

export const TIP_STATUSES = ["requires_payment", "captured"] as const;

export const ESCROW_STATUSES = ["holding", "disputed", "released", "refunded"] as const;
export type EscrowStatus = (typeof ESCROW_STATUSES)[number];

export const PAYOUT_STATUSES = ["pending", "paid"] as const;

/** A reported problem (docs/product.md, Money: disputes): open until an admin resolves it. */
export const DISPUTE_STATUSES = ["open", "resolved"] as const;

export const MONEY_STATES = {
  payment: PAYMENT_STATUSES,
  tip: TIP_STATUSES,
  escrow: ESCROW_STATUSES,
  payout: PAYOUT_STATUSES,
  dispute: DISPUTE_STATUSES,
} as const;
export type MoneyRecord = keyof typeof MONEY_STATES;
export const MONEY_RECORDS = Object.keys(MONEY_STATES) as MoneyRecord[];
export type MoneyState<R extends MoneyRecord = MoneyRecord> = (typeof MONEY_STATES)[R][number];

/**
 * The kinds of ledger transaction (docs/decisions/008, "Ledger"; docs/decisions/057-disputes-guarantee-late-cancellation.md):
 * - capture: the poster's payment into the task's escrow
 * - release: the escrow to the provider's balance (85%) and the platform's revenue (the rest)
 * - refund: the escrow back to the poster, at the card processor too
 * - tip: the poster's tip straight to the provider's balance
 * - payout: the provider's balance to their payout account
 * - split: an admin's resolution of a dispute: part of the escrow back to the poster, the rest released
 * - guarantee: after the money was released, the poster's refund paid from the platform's guarantee
 *   account (and, only when the admin chose so, recovered from the provider's balance)
 * - late_fee: a late cancellation's fee, from the escrow to the provider's balance
 */
export const LEDGER_KINDS = ["capture", "release", "refund", "tip", "payout", "split", "guarantee", "late_fee"] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/**
 * The named consequences of the money table's rows, run in the row's order in the transition's
 * database transaction by the one handler the payments feature registered for each name:
 * - ledger.*: the ledger transaction of that kind (and the card processor's side of it)
 * - escrow.freeze: a held escrow stops waiting for release while a dispute is open
 * - task.close_disputed: an unfinished task whose dispute was resolved ends (the task table's "resolve_dispute")
 * - notify.*: the parties are told (bell, e-mail, live frame), each declared in MONEY_NOTICES (decision 083)
 * - audit.dispute_resolved: the admin's resolution in the audit log
 * - announce: the live task status (decision 025)
 */
export const MONEY_ACTIONS = [
  "ledger.capture",
  "ledger.release",
  "ledger.refund",
  "ledger.tip",
  "ledger.payout",
  "ledger.split",
  "ledger.guarantee",
  "escrow.freeze",
  "task.close_disputed",
  "notify.dispute_opened",
  "notify.dispute_resolved",
  "audit.dispute_resolved",
  "announce",
] as const;
export type MoneyAction = (typeof MONEY_ACTIONS)[number];

/**
 * The money table's notices: to whom and which template, as the task table's TASK_NOTICES (decision 083).
 * A ledger action that tells someone does so only when it moved money: a release or a tip tells the
 * provider, and every movement of the poster's card money sends them its receipt (decision 060).
 */
export const MONEY_NOTICES = {
  "notify.dispute_opened": [{ to: "other_party", template: "dispute" }],
  "notify.dispute_resolved": [{ to: "poster", template: "dispute" }, { to: "provider", template: "dispute" }],
  "ledger.release": [{ to: "provider", template: "payout_released" }],
  "ledger.tip": [{ to: "provider", template: "payment_received" }, { to: "poster", template: "receipt" }],
  "ledger.capture": [{ to: "poster", template: "receipt" }],
  "ledger.refund": [{ to: "poster", template: "receipt" }],
  "ledger.split": [{ to: "poster", template: "receipt" }],
  "ledger.guarantee": [{ to: "poster", template: "receipt" }],
} as const satisfies Partial<Record<MoneyAction, NoticeDeclaration>> & Record<Extract<MoneyAction, `notify.${string}`>, NoticeDeclaration>;

/**
 * Named checks a money transition makes besides the record's own state, because they read more than
 * the record:
 * - report_window: the task is paid and not cancelled, and completed no more than
 *   REPORT_PROBLEM_HOURS_AFTER_COMPLETION hours ago (docs/product.md, Money: disputes)
 */
export type MoneyGuard = "report_window";

export const REPORT_PROBLEM_WINDOW_MS = REPORT_PROBLEM_HOURS_AFTER_COMPLETION * 60 * 60 * 1000;

/** Release waits this long for the poster's approval on budgets of $100 or more (docs/product.md, Money). */
export const APPROVAL_WINDOW_MS = APPROVAL_WINDOW_HOURS * 60 * 60 * 1000;

/** A sandbox confirm takes milliseconds; one still "processing" after this was cut off. */
export const STUCK_PROCESSING_MS = 2 * 60_000;

/**
 * Who performs a money transition: the task's poster, an admin, the card processor (its webhook, or
 * our sandbox in its place), the server's periodic jobs, or the server reacting to another
 * transition (named in the row's `after`).
 */
export type MoneyActor = "poster" | "admin" | "payment_system" | "timer" | "system"
  // Either party of the task: its poster or its assigned provider (reporting a problem).
  | "party";
export type SystemMoneyActor = Extract<MoneyActor, "payment_system" | "timer" | "system">;

/**
 * Named conditions on the record besides its status, each with a JS predicate here and an SQL
 * predicate on the server:
 * - window_open: the escrow's release_at > now (the poster may still report a problem)
 * - window_closed: release_at <= now (the release is due)
 * - stuck: a sandbox payment whose updated_at is STUCK_PROCESSING_MS or more ago
 */
export type MoneyCondition = "window_open" | "window_closed" | "stuck";

/** What sets off a "system" transition: another transition of a task or of a money record. */
export type MoneyTrigger = `task:${TaskTransitionName}` | `${MoneyRecord}:${string}`;

export interface MoneyTransitionDefinition<R extends MoneyRecord = MoneyRecord> {
  record: R;
  name: string;
  actor: MoneyActor;
  /** The states it leaves; null when it creates the record. */
  from: readonly MoneyState<R>[] | null;
  to: MoneyState<R>;
  requires: readonly { condition: MoneyCondition; message: string }[];
  guards: readonly MoneyGuard[];
  /** The named consequences, in the order they run, in the same database transaction. */
  actions: readonly MoneyAction[];
  /** For the "system" actor: the transitions that set this one off. */
  after?: readonly MoneyTrigger[];
  /** A task transition the task lifecycle must allow (for the payment system) before this one may start. */
  requiresTask?: TaskTransitionName;
  /** For a person actor: the answer to anyone else. */
  notActor?: string;
  /** The answer when the record is in a state this transition does not leave ("none": no record). */
  refused?: string;
  /** A more precise answer for some of those states. */
  refusedIn?: Partial<Record<MoneyState<R> | "none", string>>;
}

/** Why an escrow cannot be approved or disputed any more, by its state. */
const ESCROW_SETTLED: Partial<Record<EscrowStatus | "none", string>> = {
  none: "This task has no payment waiting for release",
  released: "The payment has already been released",
  refunded: "The payment has already been refunded",
  disputed: "A problem was reported; an admin will resolve it",
};

export const PAYMENT_TRANSITIONS = [
  {
    // Starting a card payment changes nothing on the task: only a capture pays it (decision 005).
    record: "payment",
    name: "start",
    actor: "poster",
    from: null,
    to: "requires_payment",
    requires: [],
    guards: [],
    actions: [],
    requiresTask: "pay",
    notActor: "Only the poster can pay for this task",
  },
  {
    // The sandbox card form's submit: of two concurrent submits only one moves the payment.
    record: "payment",
    name: "confirm",
    actor: "poster",
    from: ["requires_payment", "failed"],
    to: "processing",
    requires: [],
    guards: [],
    actions: [],
    notActor: "Only the poster can pay for this task",
    refused: "This payment is already being processed",
    refusedIn: { captured: "This task has already been paid" },
  },
  {
    // A declined card, or a task that stopped being payable before the sandbox charged anything.
    // Failed stays live: the same payment is retried.
    record: "payment",
    name: "fail",
    actor: "payment_system",
    from: ["requires_payment", "processing"],
    to: "failed",
    requires: [],
    guards: [],
    actions: [],
  },
  {
    // A sandbox confirm cut off between "processing" and its capture (a killed process, a lost
    // database) would otherwise block the task's payment for good. Nothing was captured.
    record: "payment",
    name: "time_out",
    actor: "timer",
    from: ["processing"],
    to: "failed",
    requires: [{ condition: "stuck", message: "The payment is still being processed" }],
    guards: [],
    actions: [],
  },
  {
    // From "failed" too: a capture that commits after the time-out still wins, because the money was taken.
    record: "payment",
    name: "capture",
    actor: "payment_system",
    from: ["requires_payment", "processing", "failed"],
    to: "captured",
    requires: [],
    guards: [],
    actions: ["ledger.capture"],
    refused: "This payment was already captured",
  },
  {
    record: "payment",
    name: "refund",
    actor: "system",
    from: ["captured"],
    to: "refunded",
    requires: [],
    guards: [],
    actions: ["ledger.refund", "announce"],
    // A late capture: the task had stopped being payable (decision 005, "pay"), so it is given back at once.
    after: ["task:cancel", "payment:capture", "task:withdraw"],
  },
] as const satisfies readonly MoneyTransitionDefinition<"payment">[];

export const TIP_TRANSITIONS = [
  {
    record: "tip",
    name: "start",
    actor: "poster",
    from: null,
    to: "requires_payment",
    requires: [],
    guards: [],
    actions: [],
    notActor: "Only the poster can tip",
  },
  {
    // Tips are the provider's in full: no escrow, no commission.
    record: "tip",
    name: "capture",
    actor: "payment_system",
    from: ["requires_payment"],
    to: "captured",
    requires: [],
    guards: [],
    actions: ["ledger.tip", "announce"],
  },
] as const satisfies readonly MoneyTransitionDefinition<"tip">[];

export const ESCROW_TRANSITIONS = [
  {
    // On completion of a paid task. The release falls due after the approval window: 24 hours for
    // budgets of $100 or more, none below, so "release_due" follows at once (docs/product.md, Money).
    record: "escrow",
    name: "hold",
    actor: "system",
    from: null,
    to: "holding",
    requires: [],
    guards: [],
    actions: [],
    after: ["task:complete"],
  },
  {
    record: "escrow",
    name: "approve",
    actor: "poster",
    from: ["holding"],
    to: "released",
    requires: [],
    guards: [],
    actions: ["ledger.release", "announce"],
    notActor: "Only the poster can approve the release",
    refusedIn: ESCROW_SETTLED,
  },
  {
    // A dispute was opened while the escrow waits for release, or the task was completed while one
    // is open: the release timer waits until an admin resolves it (docs/product.md, Money: disputes).
    record: "escrow",
    name: "freeze",
    actor: "system",
    from: ["holding"],
    to: "disputed",
    requires: [],
    guards: [],
    actions: [],
    after: ["dispute:open", "escrow:hold"],
  },
  {
    record: "escrow",
    name: "release_due",
    actor: "timer",
    from: ["holding"],
    to: "released",
    requires: [{ condition: "window_closed", message: "The approval window is still open" }],
    guards: [],
    actions: ["ledger.release", "announce"],
  },
  {
    // The dispute's resolution settles the hold; its money moved by the dispute's "ledger.split":
    // released when any of it went to the provider, refunded when all of it went back.
    record: "escrow",
    name: "resolve_release",
    actor: "system",
    from: ["disputed"],
    to: "released",
    requires: [],
    guards: [],
    actions: [],
    after: ["dispute:resolve"],
  },
  {
    record: "escrow",
    name: "resolve_refund",
    actor: "system",
    from: ["disputed"],
    to: "refunded",
    requires: [],
    guards: [],
    actions: [],
    after: ["dispute:resolve"],
  },
] as const satisfies readonly MoneyTransitionDefinition<"escrow">[];

export const PAYOUT_TRANSITIONS = [
  {
    // The payout job (and a provider finishing payout onboarding) moves the whole available balance.
    record: "payout",
    name: "start",
    actor: "timer",
    from: null,
    to: "pending",
    requires: [],
    guards: [],
    actions: ["ledger.payout"],
  },
  {
    // The card processor confirmed the transfer; until then the job retries it with the same key.
    record: "payout",
    name: "transfer",
    actor: "payment_system",
    from: ["pending"],
    to: "paid",
    requires: [],
    guards: [],
    actions: [],
  },
] as const satisfies readonly MoneyTransitionDefinition<"payout">[];

export const DISPUTE_TRANSITIONS = [
  {
    // Either party, from payment until REPORT_PROBLEM_HOURS_AFTER_COMPLETION after completion; one
    // open dispute per task (docs/decisions/057-disputes-guarantee-late-cancellation.md).
    record: "dispute",
    name: "open",
    actor: "party",
    from: null,
    to: "open",
    requires: [],
    guards: ["report_window"],
    actions: ["escrow.freeze", "notify.dispute_opened", "announce"],
    notActor: "Only the task's poster and its provider can report a problem",
    refusedIn: { open: "A problem was already reported on this task. Add your side to its thread instead." },
  },
  {
    // Any split of the escrow in cents; once the money was released, the poster's part comes from
    // the guarantee account. An unfinished task ends with the resolution.
    record: "dispute",
    name: "resolve",
    actor: "admin",
    from: ["open"],
    to: "resolved",
    requires: [],
    guards: [],
    actions: ["ledger.split", "ledger.guarantee", "task.close_disputed", "notify.dispute_resolved", "audit.dispute_resolved", "announce"],
    notActor: "Only an admin can resolve a dispute",
    refused: "This dispute is already resolved. Open the task to see its outcome.",
    refusedIn: { none: "There is no open dispute for this task" },
  },
] as const satisfies readonly MoneyTransitionDefinition<"dispute">[];

export const MONEY_TRANSITIONS = [...PAYMENT_TRANSITIONS, ...TIP_TRANSITIONS, ...ESCROW_TRANSITIONS, ...PAYOUT_TRANSITIONS, ...DISPUTE_TRANSITIONS] as const;

/** Every action name the money table's rows use, for the start-up check. */
export const MONEY_ACTIONS_NAMED: readonly MoneyAction[] = [...new Set(MONEY_TRANSITIONS.flatMap((t): readonly MoneyAction[] => t.actions))];

export type MoneyTransition<R extends MoneyRecord = MoneyRecord> = Extract<(typeof MONEY_TRANSITIONS)[number], { record: R }>;
export type MoneyTransitionName<R extends MoneyRecord> = MoneyTransition<R>["name"];

export function findMoneyTransition<R extends MoneyRecord, N extends MoneyTransitionName<R>>(
  record: R,
  name: N,
): Extract<MoneyTransition<R>, { name: N }> {
  const found = MONEY_TRANSITIONS.find((t) => t.record === record && t.name === name);
  if (!found) throw new Error(`Unknown ${record} transition: ${name}`);
  return found as Extract<MoneyTransition<R>, { name: N }>;
}

/** The part of a money record the table reads; status null when the record does not exist yet. */
export interface MoneyRecordState<R extends MoneyRecord = MoneyRecord> {
  status: MoneyState<R> | null;
  /** Escrow holds: when the release falls due. */
  releaseAt?: Date | string | null;
  /** Payments: the last change, and which gateway took it. */
  updatedAt?: Date | string | null;
  gateway?: string | null;
}

function toTime(value: Date | string): number {
  return value instanceof Date ? value.getTime() : Date.parse(value);
}

function windowClosed(record: MoneyRecordState, now: Date): boolean {
  return record.releaseAt !== null && record.releaseAt !== undefined && toTime(record.releaseAt) <= now.getTime();
}

export const MONEY_CONDITIONS: Record<MoneyCondition, (record: MoneyRecordState, now: Date) => boolean> = {
  window_open: (record, now) => record.releaseAt !== null && record.releaseAt !== undefined && !windowClosed(record, now),
  window_closed: windowClosed,
  stuck: (record, now) =>
    record.gateway === "sandbox" &&
    record.updatedAt !== null &&
    record.updatedAt !== undefined &&
    toTime(record.updatedAt) <= now.getTime() - STUCK_PROCESSING_MS,
};

/** Who asks, seen from the task the record belongs to; the server's own actors by name. */
export type MoneyRequester = { poster: boolean; admin: boolean; provider?: boolean } | SystemMoneyActor;

export type MoneyTransitionResult = { ok: true } | { ok: false; status: 403 | 409; message: string };

function actorAllowed(actor: MoneyActor, requester: MoneyRequester): boolean {
  if (typeof requester === "string") return requester === actor;
  if (actor === "poster") return requester.poster;
  if (actor === "admin") return requester.admin;
  if (actor === "party") return requester.poster || requester.provider === true;
  return false;
}

/** Why `requester` may not perform the transition whatever the record's state, or null when they may. */
export function moneyActorRefusal<R extends MoneyRecord>(record: R, name: MoneyTransitionName<R>, requester: MoneyRequester): string | null {
  const transition: MoneyTransitionDefinition = findMoneyTransition(record, name);
  if (actorAllowed(transition.actor, requester)) return null;
  return transition.notActor ?? `Only the ${transition.actor.replace("_", " ")} can do this`;
}

/**
 * Whether `requester` may perform the transition on a record in `state` at `now`: the wrong actor
 * is 403, a state the transition does not leave or an unmet condition 409, in that order, so a
 * stranger learns nothing about a payment's state.
 */
export function evaluateMoneyTransition<R extends MoneyRecord>(
  record: R,
  name: MoneyTransitionName<R>,
  state: MoneyRecordState<R>,
  requester: MoneyRequester,
  now: Date,
): MoneyTransitionResult {
  const transition: MoneyTransitionDefinition = findMoneyTransition(record, name);
  const notActor = moneyActorRefusal(record, name, requester);
  if (notActor !== null) return { ok: false, status: 403, message: notActor };
  const leaves = transition.from === null ? state.status === null : state.status !== null && transition.from.includes(state.status);
  if (!leaves) {
    const key = state.status ?? "none";
    const message = transition.refusedIn?.[key] ?? transition.refused ?? `Not possible while the ${record} is ${key}`;
    return { ok: false, status: 409, message };
  }
  for (const { condition, message } of transition.requires) {
    if (!MONEY_CONDITIONS[condition](state, now)) return { ok: false, status: 409, message };
  }
  return { ok: true };
}

/** The record after the transition, or the refusal. */
export function applyMoneyTransition<R extends MoneyRecord, S extends MoneyRecordState<R>>(
  record: R,
  name: MoneyTransitionName<R>,
  state: S,
  requester: MoneyRequester,
  now: Date,
): { ok: true; state: S; actions: readonly MoneyAction[] } | Extract<MoneyTransitionResult, { ok: false }> {
  const result = evaluateMoneyTransition(record, name, state, requester, now);
  if (!result.ok) return result;
  const transition: MoneyTransitionDefinition = findMoneyTransition(record, name);
  return { ok: true, state: { ...state, status: transition.to as MoneyState<R> }, actions: transition.actions };
}
