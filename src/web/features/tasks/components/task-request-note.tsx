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
