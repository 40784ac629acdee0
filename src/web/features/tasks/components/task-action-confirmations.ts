import { APPROVAL_WINDOW_HOURS } from "@shared/constants";
import { dollarsToCents, formatDollarsExact, priceTask, youllEarnText, type TaskPrice } from "@shared/money";
import { DEFAULT_PAYMENT_WINDOW_MINUTES, findTransition, type TASK_ACTIONS } from "@shared/task-lifecycle";
import type { TaskPublic } from "@shared/tasks";
import type { TaskAction } from "../api/transition-task";

// What each task action's confirmation says, with the amounts (docs/product.md, Web app:
// "Confirmations"). Amounts come from the shared fee math (priceTask), never from sums made here.
// What happens to the money is read from the transition's row of the task table: each of its
// actions that moves money (the payments feature's, named escrow.*) says its consequence below.

export interface ActionConfirmation {
  title: string;
  lines: string[];
  confirmLabel: string;
  cancelLabel: string;
  destructive: boolean;
}

type ConfirmTask = Pick<TaskPublic, "budget" | "urgency" | "totalAmount" | "paymentCapturedAt" | "providerId" | "provider" | "status">;

const exact = (dollars: number) => formatDollarsExact(dollarsToCents(dollars));

/** The task table's actions that move money (src/shared/task-lifecycle.ts, TASK_ACTIONS). */
export type EscrowAction = Extract<(typeof TASK_ACTIONS)[number], `escrow.${string}`>;

const isEscrowAction = (action: string): action is EscrowAction => action.startsWith("escrow.");

/**
 * What each money action does to this task's money, told to the person confirming (`byPoster`: the
 * poster confirms, else the provider or an admin); null when it moves nothing on this task (an
 * unpaid task has nothing to refund). A new escrow action fails the type check here until it has
 * its words, and task-action-confirmations.test.ts checks every row that names one.
 */
const MONEY_CONSEQUENCES: Record<EscrowAction, (task: ConfirmTask, price: TaskPrice, byPoster: boolean) => string | null> = {
  "escrow.refund": (task, _price, byPoster) =>
    task.paymentCapturedAt === null ? null : `${exact(task.totalAmount)} will be refunded to ${byPoster ? "your" : "the poster's"} card.`,
  "escrow.hold": (task, price, byPoster) => {
    const share = formatDollarsExact(price.providerShareCents);
    const provider = task.provider?.displayName ?? "the provider";
    return price.needsApprovalWindow
      ? `The poster has ${APPROVAL_WINDOW_HOURS} hours to approve or report a problem; then ${share} is released to ${byPoster ? provider : "you"}.`
      : `${share} is released to ${byPoster ? `${provider}'s` : "your"} balance right away.`;
  },
};

/** The money consequences of `action` on this task, in the order of its row's actions. */
function moneyLines(action: TaskAction, task: ConfirmTask, price: TaskPrice): string[] {
  const transition = findTransition(action);
  const byPoster = transition.actor === "poster";
  return (transition.actions as readonly string[])
    .filter(isEscrowAction)
    .flatMap((moneyAction) => MONEY_CONSEQUENCES[moneyAction](task, price, byPoster) ?? []);
}

/** The confirmation shown before `action`, or null for an action that needs none (start, reactivate). */
export function actionConfirmation(action: TaskAction, task: ConfirmTask): ActionConfirmation | null {
  const price = priceTask(dollarsToCents(task.budget), task.urgency);
  const providerName = task.provider?.displayName ?? "the provider";
  switch (action) {
    case "claim":
      return {
        title: "Claim this task?",
        lines: [
          `${youllEarnText(price.budgetCents, task.urgency)}. The poster has ${DEFAULT_PAYMENT_WINDOW_MINUTES} minutes to pay; you can start once they do.`,
        ],
        confirmLabel: "Yes, claim it",
        cancelLabel: "Go back",
        destructive: false,
      };
    case "cancel": {
      const lines = moneyLines(action, task, price);
      if (task.providerId !== null) lines.push("The provider will be told, and the chat will close.");
      else lines.push("The task leaves the job board.");
      lines.push("This cannot be undone.");
      return { title: "Cancel this task?", lines, confirmLabel: "Yes, cancel task", cancelLabel: "Keep task", destructive: true };
    }
    case "complete":
      return {
        title: "Mark this task complete?",
        lines: [...moneyLines(action, task, price), "Only confirm once the work is done: this cannot be undone."],
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
          `The poster is refunded ${exact(task.totalAmount)} in full and told at once. The task goes back on the job board for other providers.`,
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
    case "start":
    case "reactivate":
      return null;
  }
}
