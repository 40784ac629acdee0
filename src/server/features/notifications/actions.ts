import { formatDollarsExact, youllEarnText } from "../../../shared/money.js";
import { MODERATION_APPEAL } from "../../../shared/moderation.js";
import { displayName } from "../../../shared/names.js";
import { statementWords, type StatementViewer } from "../../../shared/statement-words.js";
import type { RefundReason } from "../../../shared/task-statement.js";
import type { AppContext } from "../../context.js";
import type { Db } from "../../db/client.js";
import { loadTaskStatement } from "../../db/task-statements.js";
import { sendNotice } from "../../declared-notices.js";
import type { TaskRow } from "../../transition-actions.js";
import { providerSummary, type ProviderSummary } from "./repository.js";

// What each party hears about a task's transitions: the notify.* actions of the task table
// (src/shared/task-lifecycle.ts), each sent as its row declares (TASK_NOTICES, decision 083). Each handler runs inside the
// transition's transaction, so the notice exists exactly when the transition committed. Release, tip and dispute
// notices are the money table's (the payments feature), application decisions the providers feature's.
// "expire" has no notice kind of its own (the product names none); the poster sees the payment-expired
// card on the task, and the provider's task simply leaves their jobs list.

function minutesLeft(deadline: Date | null, now: Date): number | null {
  if (!deadline) return null;
  return Math.max(1, Math.ceil((deadline.getTime() - now.getTime()) / 60_000));
}

/** "Maria G. (4.8 stars, 12 completed tasks)": who claimed, in the poster's claim notice. */
function claimer(summary: ProviderSummary | null): string {
  if (!summary) return "a provider";
  const rating = summary.rating === null ? "no ratings yet" : `${summary.rating.toFixed(1)} stars`;
  const done = `${summary.completedTasks} completed ${summary.completedTasks === 1 ? "task" : "tasks"}`;
  return `${displayName(summary)} (${rating}, ${done})`;
}

/**
 * What the task's money now is for `viewer`, in the statement's words (src/shared/statement-words.ts),
 * read in the transition's transaction after its money actions ran. With `refundedFor`, only when
 * that transition's refund is the latest thing the ledger did (a task reopened by it has no other
 * money to tell of); otherwise nothing.
 */
async function moneyNow(tx: Db, task: TaskRow, viewer: StatementViewer, refundedFor?: RefundReason): Promise<string> {
  const statement = await loadTaskStatement(tx, task.id);
  const last = statement.lines.at(-1);
  if (refundedFor && !(last?.kind === "refund" && last.reason === refundedFor)) return "";
  return statementWords(statement, viewer).summary;
}

export function registerTaskNotices(ctx: AppContext): void {
  ctx.taskActions.handle("notify.poster_claimed", async ({ task, tx, now }) => {
    const minutes = minutesLeft(task.paymentDeadline, now);
    const who = claimer(task.providerId ? await providerSummary(tx, task.providerId) : null);
    await sendNotice(ctx, tx, "notify.poster_claimed", "poster", {
      userId: task.userId,
      title: "Your task was claimed",
      body:
        minutes === null
          ? `"${task.title}" was claimed by ${who}. Pay to confirm, or decline this provider.`
          : `"${task.title}" was claimed by ${who}. Pay within ${minutes} minutes to confirm, or decline this provider.`,
      taskId: task.id,
    });
  });
  // docs/decisions/024-declining-a-provider.md: the declined provider hears it at once.
  ctx.taskActions.handle("notify.provider_declined", async ({ task, tx, releasedProviderId }) => {
    if (releasedProviderId === null) return;
    await sendNotice(ctx, tx, "notify.provider_declined", "released_provider", {
      userId: releasedProviderId,
      // Nobody else was chosen: the task is open again, for everyone but them.
      title: "The poster declined your claim",
      body: `The poster of "${task.title}" declined your claim on it. The task is no longer in your jobs; you can claim other tasks on the job board.`,
      taskId: task.id,
    });
  });
  // The provider of a cancelled task is told, so their last notice is not "you can start"
  // (docs/product.md, Chat and notifications). The row's money moved first: the notice says what
  // the task's statement now holds for them, a late-cancellation fee included (decision 073).
  ctx.taskActions.handle("notify.provider_cancelled", async ({ task, tx }) => {
    if (task.providerId === null) return;
    const paid = task.paymentCapturedAt !== null;
    const money = paid ? `${await moneyNow(tx, task, { role: "provider", id: task.providerId })} ` : "";
    await sendNotice(ctx, tx, "notify.provider_cancelled", "provider", {
      userId: task.providerId,
      title: "A task you claimed was cancelled",
      body: paid
        ? `The poster cancelled "${task.title}". ${money}Please do not start or continue the work. The chat is closed.`
        : `The poster cancelled "${task.title}" before paying. There is nothing to do for it. The chat is closed.`,
      taskId: task.id,
    });
  });
  // docs/decisions/058-withdrawing-and-editing.md: the poster hears at once, with where their money is.
  ctx.taskActions.handle("notify.poster_provider_withdrew", async ({ transition, task, tx }) => {
    const money = await moneyNow(tx, task, { role: "poster" }, "withdraw");
    const refunded = transition === "withdraw" && money ? ` ${money}` : "";
    await sendNotice(ctx, tx, "notify.poster_provider_withdrew", "poster", {
      userId: task.userId,
      title: "Your provider withdrew",
      body: `The provider who claimed "${task.title}" withdrew before starting.${refunded} The task is open on the job board again for other providers to claim.`,
      taskId: task.id,
    });
  });
  ctx.taskActions.handle("notify.poster_work_started", async ({ task, tx }) => {
    await sendNotice(ctx, tx, "notify.poster_work_started", "poster", {
      userId: task.userId,
      title: "Work has started on your task",
      body: `Your provider started working on "${task.title}".`,
      taskId: task.id,
    });
  });
  // An admin removed the task (docs/product.md, Moderation): both parties hear why and how to appeal,
  // and what became of the money (the row refunded it first).
  ctx.taskActions.handle("notify.parties_removed", async ({ task, tx, reason, releasedProviderId }) => {
    const why = reason ? ` because: ${reason}` : "";
    const appeal = MODERATION_APPEAL(`${ctx.env.PUBLIC_URL}/contact`);
    const paid = task.paymentCapturedAt !== null;
    await sendNotice(ctx, tx, "notify.parties_removed", "poster", {
      userId: task.userId,
      title: "Your task was removed",
      body: `An Errandly administrator removed "${task.title}"${why}.${paid ? ` ${await moneyNow(tx, task, { role: "poster" })}` : ""} ${appeal}`,
      taskId: task.id,
    });
    const provider = task.providerId ?? releasedProviderId;
    if (provider === null) return;
    const money = paid ? ` ${await moneyNow(tx, task, { role: "provider", id: provider })}` : " It will not be paid.";
    await sendNotice(ctx, tx, "notify.parties_removed", task.providerId === null ? "released_provider" : "provider", {
      userId: provider,
      title: "A task you claimed was removed",
      body: `An Errandly administrator removed "${task.title}". Please do not start or continue the work.${money} ${appeal}`,
      taskId: task.id,
    });
  });
  // An admin took the suspended provider off the task: it is open again, and a paid one was refunded.
  ctx.taskActions.handle("notify.poster_provider_released", async ({ task, tx }) => {
    const refund = await moneyNow(tx, task, { role: "poster" }, "release");
    const money = refund ? ` ${refund}` : "";
    await sendNotice(ctx, tx, "notify.poster_provider_released", "poster", {
      userId: task.userId,
      title: "Your task is open again",
      body: `The provider of "${task.title}" can no longer work on Errandly, so the task is back on the job board for other providers.${money} You pay again when a new provider claims it.`,
      taskId: task.id,
    });
  });
  // Requesting a provider (docs/decisions/065-requesting-a-provider.md): the requested provider is asked...
  ctx.taskActions.handle("notify.provider_requested", async ({ task, tx, now }) => {
    if (task.requestedProviderId === null || task.requestExpiresAt === null) return;
    const poster = await providerSummary(tx, task.userId);
    const hours = Math.max(1, Math.round((task.requestExpiresAt.getTime() - now.getTime()) / 3_600_000));
    await sendNotice(ctx, tx, "notify.provider_requested", "requested_provider", {
      userId: task.requestedProviderId,
      title: "You were requested for a task",
      body: `${poster ? displayName(poster) : "A poster"} asks you to do "${task.title}" for ${formatDollarsExact(task.budgetCents)}. Open the task to accept or decline within ${hours} ${hours === 1 ? "hour" : "hours"}.`,
      taskId: task.id,
    });
  });
  // ...and the poster hears a decline or a lapse, with what became of the task.
  ctx.taskActions.handle("notify.poster_request_ended", async ({ transition, task, tx, reason }) => {
    const provider = task.requestedProviderId ? await providerSummary(tx, task.requestedProviderId) : null;
    const who = provider ? displayName(provider) : "The provider you requested";
    const declined = transition === "decline_request" || transition === "decline_request_cancel";
    const what = declined ? `${who} declined your request for "${task.title}".${reason ? ` Their reason: "${reason}"` : ""}` : `${who} did not answer your request for "${task.title}" in time.`;
    const next =
      task.status === "open"
        ? "As you chose, it is now open on the job board for every provider to claim."
        : "As you chose, the task was cancelled; nothing was charged. You can post it again or request another provider.";
    await sendNotice(ctx, tx, "notify.poster_request_ended", "poster", {
      userId: task.userId,
      title: declined ? "Your request was declined" : "Your request was not answered",
      body: `${what} ${next}`,
      taskId: task.id,
    });
  });
  // ...and the requested provider hears when the poster cancels the request before they answered.
  ctx.taskActions.handle("notify.provider_request_cancelled", async ({ task, tx }) => {
    if (task.requestedProviderId === null) return;
    const poster = await providerSummary(tx, task.userId);
    await sendNotice(ctx, tx, "notify.provider_request_cancelled", "requested_provider", {
      userId: task.requestedProviderId,
      title: "A request for you was cancelled",
      body: `${poster ? displayName(poster) : "The poster"} cancelled their request for "${task.title}" before you answered. There is nothing to accept or decline now; you can find other tasks on the job board.`,
      taskId: task.id,
    });
  });
  ctx.taskActions.handle("notify.poster_work_completed", async ({ task, tx }) => {
    await sendNotice(ctx, tx, "notify.poster_work_completed", "poster", {
      userId: task.userId,
      title: "Your task is completed",
      body: `"${task.title}" was marked completed. You can now rate your provider.`,
      taskId: task.id,
    });
  });
  // The "pay" row: the payment system captured the poster's money, so the provider may start.
  ctx.taskActions.handle("notify.provider_paid", async ({ task, tx }) => {
    if (task.providerId === null) return;
    await sendNotice(ctx, tx, "notify.provider_paid", "provider", {
      userId: task.providerId,
      title: "Payment received",
      body: `The poster paid for "${task.title}" and we hold it in escrow. ${youllEarnText(task.providerShareCents)}. You can start the work.`,
      taskId: task.id,
    });
  });
}
