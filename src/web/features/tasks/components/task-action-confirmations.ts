import { APPROVAL_WINDOW_HOURS } from "@shared/constants";
import { dollarsToCents, formatDollarsExact, isLateCancellation, lateCancellationFeeCents, priceTask, youllEarnText } from "@shared/money";
import { DEFAULT_PAYMENT_WINDOW_MINUTES } from "@shared/task-lifecycle";
import type { TaskPublic } from "@shared/tasks";
import type { TaskAction } from "../api/transition-task";

// What each task action's confirmation says, with the amounts (docs/product.md, Web app:
// "Confirmations"). Amounts come from the shared fee math (priceTask), never from sums made here.

export interface ActionConfirmation {
  title: string;
  lines: string[];
  confirmLabel: string;
  cancelLabel: string;
  destructive: boolean;
}

type ConfirmTask = Pick<TaskPublic, "budget" | "urgency" | "totalAmount" | "paymentCapturedAt" | "providerId" | "provider" | "status" | "scheduledDate">;

const exact = (dollars: number) => formatDollarsExact(dollarsToCents(dollars));

/** The confirmation shown before `action`, or null for an action that needs none (start, reactivate). */
export function actionConfirmation(action: TaskAction, task: ConfirmTask, now = new Date()): ActionConfirmation | null {
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
      const lines: string[] = [];
      const paidCents = dollarsToCents(task.totalAmount);
      // The late-cancellation fee, by the server's own rule (docs/product.md, Money: late cancellation).
      const feeCents = task.paymentCapturedAt !== null && task.providerId !== null && isLateCancellation(task.scheduledDate, now) ? lateCancellationFeeCents(price.budgetCents, paidCents) : 0;
      if (feeCents > 0) {
        lines.push(`The task is due in less than 24 hours, so ${formatDollarsExact(feeCents)} goes to ${providerName} as a late-cancellation fee.`);
        lines.push(`${formatDollarsExact(paidCents - feeCents)} will be refunded to your card.`);
      } else if (task.paymentCapturedAt !== null) lines.push(`${exact(task.totalAmount)} will be refunded to your card.`);
      if (task.providerId !== null) lines.push("The provider will be told, and the chat will close.");
      else lines.push("The task leaves the job board.");
      lines.push("This cannot be undone.");
      return { title: "Cancel this task?", lines, confirmLabel: "Yes, cancel task", cancelLabel: "Keep task", destructive: true };
    }
    case "complete":
      return {
        title: "Mark this task complete?",
        lines: [
          price.needsApprovalWindow
            ? `The poster has ${APPROVAL_WINDOW_HOURS} hours to approve or report a problem; then ${formatDollarsExact(price.providerShareCents)} is released to you.`
            : `${formatDollarsExact(price.providerShareCents)} is released to your balance right away.`,
          "Only confirm once the work is done: this cannot be undone.",
        ],
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
    case "start":
    case "reactivate":
      return null;
  }
}
