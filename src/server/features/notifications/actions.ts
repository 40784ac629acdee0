import { formatDollarsExact, youllEarnText } from "../../../shared/money.js";
import { MODERATION_APPEAL } from "../../../shared/moderation.js";
import { displayName } from "../../../shared/names.js";
import { statementWords, type StatementViewer } from "../../../shared/statement-words.js";
import type { RefundReason } from "../../../shared/task-statement.js";
import type { AppContext } from "../../context.js";
import type { Db } from "../../db/client.js";
import { formatDateTime } from "../../../shared/calendar.js";
import { providerCalendarOf } from "../../db/calendar.js";
import { loadTaskStatement } from "../../db/task-statements.js";
import { sendNotice } from "../../declared-notices.js";
import { invitationAttachment, taskEvent, taskTimeZone, taskWhen } from "../../task-time.js";
import type { TaskRow } from "../../transition-actions.js";
import { providerSummary, type ProviderSummary } from "./repository.js";

// What each party hears about a task's transitions: the notify.* actions of the task table
// (src/shared/task-lifecycle.ts), each sent as its row declares (TASK_NOTICES, decision 083). Each handler runs inside the
// transition's transaction, so the notice exists exactly when the transition committed. Release, tip and dispute
// notices are the money table's (the payments feature), reminders the calendar's task events, application
// decisions the providers feature's.
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

/** The zone a person reads a task's times in: a provider's calendar's, else the task's place's (decision 074). */
async function readerZone(tx: Db, task: TaskRow, userId: string | null): Promise<string> {
  const calendar = userId !== null && userId === task.providerId ? await providerCalendarOf(tx, userId) : null;
  return calendar?.timeZone ?? taskTimeZone(task);
}

/** " on Tue 9 Dec, 2:00–4:00 PM EST" for a dated task, on the reader's clock; "" without a date. */
async function onWhen(tx: Db, task: TaskRow, userId: string | null): Promise<string> {
  const when = taskWhen(task, await readerZone(tx, task, userId));
  return when ? ` on ${when}` : "";
}

export function registerTaskNotices(ctx: AppContext): void {
  /** A dated task's .ics invitation for its poster or provider (decision 074), for the notice's e-mail. */
  const invitation = (task: TaskRow, reader: "poster" | "provider", now: Date) => {
    const event = taskEvent(task, reader, ctx.env.PUBLIC_URL, now);
    return event ? { attachments: [invitationAttachment(event)] } : {};
  };
  ctx.taskActions.handle("notify.poster_claimed", async ({ transition, task, tx, now }) => {
    const minutes = minutesLeft(task.paymentDeadline, now);
    const summary = task.providerId ? await providerSummary(tx, task.providerId) : null;
    const pay = minutes === null ? "Pay" : `Pay within ${minutes} minutes`;
    const when = await onWhen(tx, task, task.userId);
    // A requested provider who accepts is the poster's own choice, not a stranger's claim: the poster
    // hears that their request was accepted, and is not offered a Decline the table refuses (issue 41).
    const accepted = transition === "accept_request";
    await sendNotice(ctx, tx, "notify.poster_claimed", "poster", {
      userId: task.userId,
      title: accepted ? "Your request was accepted" : "Your task was claimed",
      body: accepted
        ? `${summary ? displayName(summary) : "The provider you requested"} accepted your request for "${task.title}"${when}. ${pay} to confirm.`
        : `"${task.title}"${when} was claimed by ${claimer(summary)}. ${pay} to confirm, or decline this provider.`,
      taskId: task.id,
      ...invitation(task, "poster", now),
    });
  });
  // Time and turning up (docs/decisions/074-time-and-turning-up.md): a poster booked the provider's free time at once.
  ctx.taskActions.handle("notify.provider_booked", async ({ task, tx, now }) => {
    if (task.providerId === null) return;
    const poster = await providerSummary(tx, task.userId);
    const minutes = minutesLeft(task.paymentDeadline, now);
    await sendNotice(ctx, tx, "notify.provider_booked", "provider", {
      userId: task.providerId,
      title: "You were booked for a task",
      body:
        `${poster ? displayName(poster) : "A poster"} booked you for "${task.title}"${await onWhen(tx, task, task.providerId)} at ${formatDollarsExact(task.budgetCents)}. ` +
        `It is on your calendar; ${minutes === null ? "the poster pays next" : `the poster has ${minutes} minutes to pay`}, and the address shows once they do.`,
      taskId: task.id,
      ...invitation(task, "provider", now),
    });
  });
  // Either side proposed a new time: the other hears it, with the time it would replace.
  ctx.taskActions.handle("notify.time_proposed", async ({ task, tx, actorId }) => {
    if (task.providerId === null || task.proposedStartAt === null || actorId === null) return;
    const to = actorId === task.userId ? task.providerId : task.userId;
    const who = await providerSummary(tx, actorId);
    const zone = await readerZone(tx, task, to);
    const now = task.scheduledDate ? ` instead of ${formatDateTime(task.scheduledDate, zone, { withZone: true })}` : "";
    await sendNotice(ctx, tx, "notify.time_proposed", to === task.userId ? "poster" : "provider", {
      userId: to,
      title: "A new time was proposed",
      body: `${who ? displayName(who) : "The other side"} proposed to do "${task.title}" on ${formatDateTime(task.proposedStartAt, zone, { withZone: true })}${now}. Accept or decline it on the task page; until then the old time stands.`,
      taskId: task.id,
    });
  });
  // The proposer hears the answer; an accepted time comes with the moved invitation.
  ctx.taskActions.handle("notify.time_decided", async ({ task, tx, actorId, transition, now }) => {
    if (task.providerId === null || actorId === null) return;
    const to = actorId === task.userId ? task.providerId : task.userId;
    const who = await providerSummary(tx, actorId);
    const name = who ? displayName(who) : "The other side";
    const when = await onWhen(tx, task, to);
    const accepted = transition === "accept_time";
    await sendNotice(ctx, tx, "notify.time_decided", to === task.userId ? "poster" : "provider", {
      userId: to,
      title: accepted ? "Your new time was accepted" : "Your new time was declined",
      body: accepted ? `${name} accepted your new time: "${task.title}" is now${when}.` : `${name} declined your new time, so "${task.title}" stays${when}. You can propose another one.`,
      taskId: task.id,
      ...(accepted ? invitation(task, to === task.providerId ? "provider" : "poster", now) : {}),
    });
  });
  // "On my way": the poster hears at once (bell, push, live), with the arrival estimate when there is one.
  ctx.taskActions.handle("notify.poster_on_my_way", async ({ task, tx, now }) => {
    if (task.providerId === null) return;
    const provider = await providerSummary(tx, task.providerId);
    const name = provider ? displayName(provider) : "Your provider";
    const eta = task.arrivalEstimateAt;
    const minutes = eta ? Math.max(1, Math.round((eta.getTime() - now.getTime()) / 60_000)) : null;
    const arriving = eta && minutes !== null ? `, about ${minutes} ${minutes === 1 ? "minute" : "minutes"} away (around ${formatDateTime(eta, taskTimeZone(task))})` : "";
    await sendNotice(ctx, tx, "notify.poster_on_my_way", "poster", {
      userId: task.userId,
      title: `${name} is on the way`,
      body: `${name} is on the way to "${task.title}"${arriving}.`,
      taskId: task.id,
    });
  });
  // The poster reported a no-show: the provider hears it, and that it counts on their profile.
  ctx.taskActions.handle("notify.provider_no_show", async ({ task, tx }) => {
    if (task.providerId === null) return;
    await sendNotice(ctx, tx, "notify.provider_no_show", "provider", {
      userId: task.providerId,
      title: "A poster reported that you did not show up",
      body:
        `The poster of "${task.title}"${await onWhen(tx, task, task.providerId)} reported that you had not started 30 minutes after the start. ` +
        `The task was cancelled, the poster refunded in full, and the no-show counts on your profile. If you were there, tell us through the contact form: ${ctx.env.PUBLIC_URL}/contact`,
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
    // A request may carry one of the provider's free times (decision 074).
    const when = task.scheduledDate ? ` on ${taskWhen(task, (await providerCalendarOf(tx, task.requestedProviderId))?.timeZone ?? taskTimeZone(task))}` : "";
    await sendNotice(ctx, tx, "notify.provider_requested", "requested_provider", {
      userId: task.requestedProviderId,
      title: "You were requested for a task",
      body: `${poster ? displayName(poster) : "A poster"} asks you to do "${task.title}"${when} for ${formatDollarsExact(task.budgetCents)}. Open the task to accept or decline within ${hours} ${hours === 1 ? "hour" : "hours"}.`,
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
