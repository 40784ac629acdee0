import {
  evaluateTransition,
  findTransition,
  HIRING_MODE_CONDITIONS,
  OPEN_DISPUTE_MESSAGE,
  REQUEST_FALLBACK_CONDITIONS,
  TASK_CONDITIONS,
  TASK_TRANSITIONS,
  type TaskCondition,
  type TaskLifecycleState,
  type TaskTransition,
  type TaskViewer,
} from "@shared/task-lifecycle";
import { NO_BUTTON_ACTORS, OWN_BUTTONS, type TaskAction } from "../api/transition-task";

// Which task buttons a viewer sees, and why one is disabled, read from the shared transition table
// (docs/decisions/005-task-lifecycle-table.md) instead of a hand-written list: the server enforces
// the same rows, so a button and the server's answer cannot disagree. Only the words are ours.

export interface TaskActionCopy {
  label: string;
  pendingLabel: string;
  variant: "default" | "destructive";
}

/** The visible words of each person-driven transition (the e2e journeys press these names). */
export const TASK_ACTION_COPY: Record<TaskAction, TaskActionCopy> = {
  claim: { label: "Claim Task", pendingLabel: "Claiming...", variant: "default" },
  start: { label: "Start Task", pendingLabel: "Starting...", variant: "default" },
  complete: { label: "Mark Complete", pendingLabel: "Completing...", variant: "default" },
  cancel: { label: "Cancel Task", pendingLabel: "Cancelling...", variant: "destructive" },
  reactivate: { label: "Reactivate Task", pendingLabel: "Reactivating...", variant: "default" },
  decline: { label: "Decline This Provider", pendingLabel: "Declining...", variant: "destructive" },
  withdraw: { label: "Withdraw From Task", pendingLabel: "Withdrawing...", variant: "destructive" },
  release_claim: { label: "Release My Claim", pendingLabel: "Releasing...", variant: "destructive" },
  accept_request: { label: "Accept Request", pendingLabel: "Accepting...", variant: "default" },
  decline_request: { label: "Decline Request", pendingLabel: "Declining...", variant: "destructive" },
  decline_request_cancel: { label: "Decline Request", pendingLabel: "Declining...", variant: "destructive" },
  cancel_request: { label: "Cancel Task", pendingLabel: "Cancelling...", variant: "destructive" },
};

type PersonTransition = Extract<TaskTransition, { name: TaskAction }>;

function isPersonTransition(transition: TaskTransition): transition is PersonTransition {
  return !(NO_BUTTON_ACTORS as readonly TaskTransition["actor"][]).includes(transition.actor) && !(OWN_BUTTONS as readonly TaskTransition["name"][]).includes(transition.name);
}

/** A row for the other way of finding a provider (Claim on a task that takes offers), or the request outcome the poster did not choose, is no button at all. */
function otherHiringMode(transition: TaskTransition, task: TaskLifecycleState, now: Date): boolean {
  const requires = transition.requires as readonly { condition: TaskCondition }[];
  return requires.some(
    ({ condition }) => (HIRING_MODE_CONDITIONS.includes(condition) || REQUEST_FALLBACK_CONDITIONS.includes(condition)) && !TASK_CONDITIONS[condition](task, now),
  );
}

/**
 * A condition that, once unmet, never holds again in this state: a payment is not undone, so the
 * poster's Decline on a paid claim is a choice that has closed, not one to wait for. Its button is
 * not offered at all (the poster's Cancel Task, with its refund, is the way out; docs/product.md,
 * Task states), unlike Start, which waits for the payment and is shown disabled.
 */
const CLOSED_ONCE_UNMET: readonly TaskCondition[] = ["unpaid"];

export interface TaskActionButton extends TaskActionCopy {
  name: TaskAction;
  actor: PersonTransition["actor"];
  /** False while a condition of the table does not hold yet (Start before the poster paid). */
  enabled: boolean;
  /** The table's message for that condition, shown beside the disabled button; null when enabled. */
  disabledReason: string | null;
  /** The condition that blocks the button, e.g. "paid"; null when enabled or when a guard blocks it. */
  blockedBy: TaskCondition | null;
  /** A visitor may press it and is sent to sign in first: the table's 401 message, or null. */
  signInMessage: string | null;
}

/**
 * The buttons `viewer` sees on `task` at `now`, in table order:
 * - allowed by the table: an enabled button;
 * - the right person in the right state, but a condition unmet (409 from `requires`): disabled,
 *   with the table's message as the reason, unless that condition can no longer come true
 *   (`CLOSED_ONCE_UNMET`): no button;
 * - signed out, on a transition any verified provider may take from this state: enabled, and
 *   pressing it sends the visitor to sign in (only Claim today);
 * - anything else (not theirs: 403, or not from this state): no button.
 * While a problem reported on the task is open (`disputeOpen`, from the task's dispute), a row with
 * the `no_open_dispute` guard, and any button already disabled, is disabled with that guard's
 * refusal (docs/product.md, Disputes).
 */
export function taskActionButtons(task: TaskLifecycleState, viewer: TaskViewer | null, now: Date, disputeOpen = false): TaskActionButton[] {
  const buttons: TaskActionButton[] = [];
  for (const transition of TASK_TRANSITIONS) {
    if (!isPersonTransition(transition) || otherHiringMode(transition, task, now)) continue;
    const base = { ...TASK_ACTION_COPY[transition.name], name: transition.name, actor: transition.actor };
    const result = evaluateTransition(transition.name, task, viewer, now);
    if (result.ok) {
      buttons.push({ ...base, enabled: true, disabledReason: null, blockedBy: null, signInMessage: null });
      continue;
    }
    const fromHere = (transition.from as readonly string[]).includes(task.status);
    if (!fromHere) continue;
    if (result.status === 401 && transition.actor === "verified_provider") {
      buttons.push({ ...base, enabled: true, disabledReason: null, blockedBy: null, signInMessage: result.message });
    } else if (result.status === 409) {
      const unmet = (transition.requires as readonly { condition: TaskCondition; message: string }[]).find(
        (requirement) => requirement.message === result.message,
      );
      if (unmet && CLOSED_ONCE_UNMET.includes(unmet.condition)) continue;
      buttons.push({ ...base, enabled: false, disabledReason: result.message, blockedBy: unmet?.condition ?? null, signInMessage: null });
    }
  }
  // Two rows that lead the same actor to the same state under opposite conditions (withdraw when
  // paid, release_claim when not; decision 058) are one way out: the one that applies is shown.
  const to = (name: TaskAction) => findTransition(name).to;
  const shown = buttons.filter((b) => b.enabled || !buttons.some((o) => o.enabled && o.actor === b.actor && o.name !== b.name && to(o.name) === to(b.name)));
  if (!disputeOpen) return shown;
  const waitsForDispute = (name: TaskAction) => findTransition(name).guards.some(({ guard }) => guard === "no_open_dispute");
  // A button already disabled (Start waiting for a payment) says the dispute's sentence as well:
  // the dispute is what stands in the way now.
  return shown.map((b) => ((b.enabled && waitsForDispute(b.name)) || !b.enabled ? { ...b, enabled: false, disabledReason: OPEN_DISPUTE_MESSAGE, blockedBy: null } : b));
}

/**
 * Whether `viewerId` is the poster and still owes the claim's payment: the task is in a state the
 * table's "pay" transition starts from, and the claim is unpaid. The poster then sees the payment
 * card instead of their own buttons, also once the window has closed and until the deadline job
 * expires the claim (the card then says the window has closed).
 */
export function posterOwesPayment(task: TaskLifecycleState, viewerId: string | null, now: Date): boolean {
  const pay = findTransition("pay");
  return viewerId === task.userId && (pay.from as readonly string[]).includes(task.status) && TASK_CONDITIONS.unpaid(task, now);
}
