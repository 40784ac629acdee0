import { SearchX } from "lucide-react";
import { Link } from "wouter";
import { Button } from "@/components/ui/button";
import { ApiError } from "@/lib/api";

/**
 * The task page when there is no task to show (docs/product.md#web-app): a missing task (404) and
 * an address that is not a task id at all (400) read the same, in plain words with a way onward;
 * any other failure offers to try again. Never the server's raw "400: …" text.
 */
export function TaskUnavailable({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const missing = !(error instanceof ApiError) || error.status === 404 || error.status === 400 || error.status === 403;
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-16 text-center">
      <SearchX className="size-12 text-muted-foreground" aria-hidden="true" />
      <h1 className="mt-4 text-3xl font-bold">{missing ? "Task not found" : "We couldn't load this task"}</h1>
      <p className="mt-2 text-muted-foreground">
        {missing
          ? "This task does not exist, or the link to it is incomplete. It may have been removed by the person who posted it."
          : "Something went wrong on our side or with your connection. Try again in a moment."}
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        {!missing && <Button onClick={onRetry}>Try again</Button>}
        <Button asChild variant={missing ? "default" : "outline"}>
          <Link href="/job-board">Browse the job board</Link>
        </Button>
        <Button asChild variant="outline">
          <Link href="/dashboard">Go to your dashboard</Link>
        </Button>
      </div>
    </div>
  );
}
