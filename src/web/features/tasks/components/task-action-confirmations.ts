import { APPROVAL_WINDOW_HOURS } from "@shared/constants";
import { dollarsToCents, formatDollarsExact, isLateCancellation, lateCancellationFeeCents, needsApprovalWindow, youllEarnText } from "@shared/money";
import { DEFAULT_PAYMENT_WINDOW_MINUTES, findTransition, type TASK_ACTIONS } from "@shared/task-lifecycle";
import type { TaskPublic } from "@shared/tasks";
import type { TaskAction } from "../api/transition-task";

// What each task action's confirmation says, with the amounts (docs/product.md, Web app:
// "Confirmations"). Amounts come from the task's line items, fixed when it was priced, and the
// shared fee rules (the late fee), never from sums made here or a price worked out again.
// What happens to the money is read from the transition's row of the task table: each of its
// actions that moves money (the payments feature's, named escrow.*) says its consequence below.

export interface ActionConfirmation {
  title: string;
  lines: string[];
  confirmLabel: string;
  cancelLabel: string;
  destructive: boolean;
}

type ConfirmTask = Pick<TaskPublic, "budget" | "urgency" | "totalAmount" | "providerShare" | "paymentCapturedAt" | "providerId" | "provider" | "status" | "scheduledDate"> &
  // Only a requested task's page has it (decision 065); the job board's cards do not.
  Partial<Pick<TaskPublic, "requestedProviderName">>;

/** The task table's actions that move money (src/shared/task-lifecycle.ts, TASK_ACTIONS). */
export type EscrowAction = Extract<(typeof TASK_ACTIONS)[number], `escrow.${string}`>;

const isEscrowAction = (action: string): action is EscrowAction => action.startsWith("escrow.");

/** The figures of the task the confirmations state: its stored line items, in cents. */
interface TaskFigures {
  budgetCents: number;
  providerShareCents: number;
  needsApprovalWindow: boolean;
}

function figuresOf(task: ConfirmTask): TaskFigures {
  const budgetCents = dollarsToCents(task.budget);
  return { budgetCents, providerShareCents: dollarsToCents(task.providerShare), needsApprovalWindow: needsApprovalWindow(budgetCents) };
}

/** What the money lines read: the task, its figures, who confirms, and the late fee the row would take. */
interface MoneyContext {
  task: ConfirmTask;
  price: TaskFigures;
  /** The poster confirms; else the provider or an admin. */
  byPoster: boolean;
  /** The late-cancellation fee this row pays the provider before refunding (0 when it pays none). */
  lateFeeCents: number;
}

/**
 * What each money action does to this task's money, told to the person confirming; null when it
 * moves nothing on this task (an unpaid task has nothing to refund). A new escrow action fails the
 * type check here until it has its words, and task-action-confirmations.test.ts checks every row
 * that names one.
 */
const MONEY_CONSEQUENCES: Record<EscrowAction, (money: MoneyContext) => string | null> = {
  "escrow.late_fee": ({ task, lateFeeCents }) =>
    lateFeeCents === 0
      ? null
      : `The task is due in less than 24 hours, so ${formatDollarsExact(lateFeeCents)} goes to ${task.provider?.displayName ?? "the provider"} as a late-cancellation fee.`,
  "escrow.refund": ({ task, byPoster, lateFeeCents }) =>
    task.paymentCapturedAt === null
      ? null
      : `${formatDollarsExact(dollarsToCents(task.totalAmount) - lateFeeCents)} will be refunded to ${byPoster ? "your" : "the poster's"} card.`,
  "escrow.hold": ({ task, price, byPoster }) => {
    const share = formatDollarsExact(price.providerShareCents);
    const provider = task.provider?.displayName ?? "the provider";
    return price.needsApprovalWindow
      ? `The poster has ${APPROVAL_WINDOW_HOURS} hours to approve or report a problem; then ${share} is released to ${byPoster ? provider : "you"}.`
      : `${share} is released to ${byPoster ? `${provider}'s` : "your"} balance right away.`;
  },
};

/** The late-cancellation fee, by the server's own rule (docs/product.md, Money: late cancellation). */
function lateFee(task: ConfirmTask, price: TaskFigures, now: Date): number {
  const late = task.paymentCapturedAt !== null && task.providerId !== null && isLateCancellation(task.scheduledDate, now);
  return late ? lateCancellationFeeCents(price.budgetCents, dollarsToCents(task.totalAmount)) : 0;
}

/** The money consequences of `action` on this task, in the order of its row's actions. */
function moneyLines(action: TaskAction, task: ConfirmTask, price: TaskFigures, now: Date): string[] {
  const transition = findTransition(action);
  const actions = transition.actions as readonly string[];
  const money: MoneyContext = {
    task,
    price,
    byPoster: transition.actor === "poster",
    lateFeeCents: actions.includes("escrow.late_fee") ? lateFee(task, price, now) : 0,
  };
  return actions.filter(isEscrowAction).flatMap((moneyAction) => MONEY_CONSEQUENCES[moneyAction](money) ?? []);
}

/** Declining a request (decision 065): its dialog adds the optional reason for the poster (decline-request-dialog.tsx). */
export function declineRequestConfirmation(action: Extract<TaskAction, `decline_request${string}`>): ActionConfirmation {
  return {
    title: "Decline this request?",
    lines: [
      action === "decline_request"
        ? "No money moves. As the poster chose, the task then opens on the job board for every provider."
        : "No money moves. As the poster chose, the task is then cancelled.",
      "The poster is told at once.",
    ],
    confirmLabel: "Yes, decline",
    cancelLabel: "Go back",
    destructive: true,
  };
}

/** The confirmation shown before `action`, or null for an action that needs none (start, reactivate). */
export function actionConfirmation(action: TaskAction, task: ConfirmTask, now = new Date()): ActionConfirmation | null {
  const price = figuresOf(task);
  const providerName = task.provider?.displayName ?? "the provider";
  switch (action) {
    case "claim":
      return {
        title: "Claim this task?",
        lines: [
          `${youllEarnText(price.providerShareCents)}. The poster has ${DEFAULT_PAYMENT_WINDOW_MINUTES} minutes to pay; you can start once they do.`,
        ],
        confirmLabel: "Yes, claim it",
        cancelLabel: "Go back",
        destructive: false,
      };
    case "cancel": {
      const lines = moneyLines(action, task, price, now);
      if (task.providerId !== null) lines.push("The provider will be told, and the chat will close.");
      else lines.push("The task leaves the job board.");
      lines.push("This cannot be undone.");
      return { title: "Cancel this task?", lines, confirmLabel: "Yes, cancel task", cancelLabel: "Keep task", destructive: true };
    }
    case "complete":
      return {
        title: "Mark this task complete?",
        lines: [...moneyLines(action, task, price, now), "Only confirm once the work is done: this cannot be undone."],
        confirmLabel: "Yes, mark complete",
        cancelLabel: "Go back",
        destructive: false,
      };
    case "decline":
      return {
        title: `Decline ${providerName}?`,
        lines: [
          "You have not paid anything. Your task goes back on the job board for other providers to claim.",
          `${providerName} will be told and cannot claim this task again.`,
        ],
        confirmLabel: "Yes, decline",
        cancelLabel: "Go back",
        destructive: true,
      };
    // docs/decisions/058-withdrawing-and-editing.md: what happens to the task and to the poster's money.
    case "withdraw":
      return {
        title: "Withdraw from this task?",
        lines: [
          ...moneyLines(action, task, price, now),
          "The poster is told at once, and the task goes back on the job board for other providers.",
          "Your profile will count this withdrawal (for example \"Withdrew from 1 of 14 claimed tasks\").",
        ],
        confirmLabel: "Yes, withdraw",
        cancelLabel: "Keep the task",
        destructive: true,
      };
    case "release_claim":
      return {
        title: "Release your claim?",
        lines: [
          "The poster has not paid, so no money moves. They are told at once, and the task goes back on the job board for other providers.",
          "Your profile will count this as a withdrawal (for example \"Withdrew from 1 of 14 claimed tasks\").",
        ],
        confirmLabel: "Yes, release it",
        cancelLabel: "Keep the task",
        destructive: true,
      };
    // Requesting a provider (docs/product.md, Requesting a provider).
    case "accept_request":
      return {
        title: "Accept this request?",
        lines: [`${youllEarnText(price.providerShareCents)}. The poster has ${DEFAULT_PAYMENT_WINDOW_MINUTES} minutes to pay; you can start once they do.`],
        confirmLabel: "Yes, accept",
        cancelLabel: "Go back",
        destructive: false,
      };
    case "decline_request":
    case "decline_request_cancel":
      return declineRequestConfirmation(action);
    // Nothing is paid while a request waits, and the task is on no board: the provider is told (decision 065).
    case "cancel_request":
      return {
        title: "Cancel this task?",
        lines: [
          "Nothing has been paid, so no money moves.",
          `${task.requestedProviderName ?? "The provider you requested"} will be told that you cancelled the request.`,
          "This cannot be undone.",
        ],
        confirmLabel: "Yes, cancel task",
        cancelLabel: "Keep task",
        destructive: true,
      };
    case "start":
    case "reactivate":
      return null;
  }
}
