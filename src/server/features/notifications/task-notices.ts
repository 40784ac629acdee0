import type { AppContext } from "../../context.js";
import { notifyUser } from "../../notify.js";

// What the poster hears about their task's transitions. Each handler runs inside the transition's
// transaction, so the notice exists exactly when the transition committed. Payment and payout
// notices come from the payments feature, application decisions from the providers feature.
// "expire" has no notice kind of its own (the product names none); the poster sees the payment-expired
// card on the task, and the provider's task simply leaves their jobs list.

function minutesLeft(deadline: Date | null, now: Date): number | null {
  if (!deadline) return null;
  return Math.max(1, Math.ceil((deadline.getTime() - now.getTime()) / 60_000));
}

export function registerTaskNotices(ctx: AppContext): void {
  ctx.taskEvents.on("claim", async ({ task, tx, now }) => {
    const minutes = minutesLeft(task.paymentDeadline, now);
    await notifyUser(ctx, tx, {
      userId: task.userId,
      kind: "task_claimed",
      title: "Your task was claimed",
      body:
        minutes === null
          ? `"${task.title}" was claimed by a provider. Pay to confirm.`
          : `"${task.title}" was claimed by a provider. Pay within ${minutes} minutes to confirm.`,
      taskId: task.id,
    });
  });
  ctx.taskEvents.on("start", async ({ task, tx }) => {
    await notifyUser(ctx, tx, {
      userId: task.userId,
      kind: "work_started",
      title: "Work has started on your task",
      body: `Your provider started working on "${task.title}".`,
      taskId: task.id,
    });
  });
  ctx.taskEvents.on("complete", async ({ task, tx }) => {
    await notifyUser(ctx, tx, {
      userId: task.userId,
      kind: "work_completed",
      title: "Your task is completed",
      body: `"${task.title}" was marked completed. You can now rate your provider.`,
      taskId: task.id,
    });
  });
}
