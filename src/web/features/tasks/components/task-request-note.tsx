import { formatDate } from "@/lib/dates";
import type { TaskPublic } from "@shared/tasks";

/**
 * A requested task's state in words (docs/product.md, Requesting a provider): who may answer, until
 * when, and what happens then; for the poster and for the requested provider.
 */
export function TaskRequestNote({ task, isPoster }: { task: Pick<TaskPublic, "requestedProviderName" | "requestExpiresAt" | "requestFallback">; isPoster: boolean }) {
  if (task.requestedProviderName === null || task.requestExpiresAt === null) return null;
  const until = formatDate(new Date(task.requestExpiresAt), "MMM d 'at' h:mm a");
  const then = task.requestFallback === "cancel" ? "the task is cancelled" : "the task opens on the job board to every provider";
  return (
    <p role="status" className="w-full text-sm">
      {isPoster
        ? `Requested: ${task.requestedProviderName}. Waiting for their answer until ${until}. If they decline or do not answer, ${then}.`
        : `You were requested for this task. Accept or decline by ${until}; if you decline or do not answer, ${then}.`}
    </p>
  );
}

/**
 * How the poster's request ended, on their task page (issue 41; decision 082): the bell said it once,
 * the page says it while it is the task's news. Accepted: while the provider is to be paid; declined
 * or unanswered: while the task is open, or cancelled by the poster's choice.
 */
export function requestOutcomeLine(task: Pick<TaskPublic, "status" | "requestedProviderName" | "requestOutcome" | "requestFallback">): string | null {
  const name = task.requestedProviderName;
  if (name === null || task.requestOutcome === null) return null;
  if (task.requestOutcome === "accepted") return task.status === "claimed" ? `${name} accepted your request.` : null;
  const what = task.requestOutcome === "declined" ? `${name} declined your request.` : `${name} did not answer your request in time.`;
  if (task.status === "open") return `${what} As you chose, your task is now open on the job board for every provider.`;
  if (task.status === "cancelled" && task.requestFallback === "cancel") return `${what} As you chose, the task was cancelled; nothing was charged.`;
  return null;
}

export function TaskRequestOutcome({ task }: { task: Parameters<typeof requestOutcomeLine>[0] }) {
  const line = requestOutcomeLine(task);
  return line === null ? null : (
    <p role="status" className="w-full text-sm">
      {line}
    </p>
  );
}
