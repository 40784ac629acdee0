import type { AppContext } from "../../context.js";
import type { TaskRow } from "../../transition-actions.js";
import { recordDeclinedProvider, recordWithdrawal } from "./repository.js";

// The tasks feature's actions of the task table (docs/decisions/083-every-consequence-in-its-row.md),
// one typed registration each: the job board cache's board.add and board.remove (decision 035), the
// declined provider (decision 024) and the withdrawal a provider's reliability line counts (decision 058).

/** @param boardChanged this instance's board cache hearing a change inside its transaction (routes.ts owns the cache). */
export function registerTaskActions(ctx: AppContext, boardChanged: (task: TaskRow, effect: "added" | "removed") => void): void {
  ctx.taskActions.handle("board.add", async ({ task }) => boardChanged(task, "added"));
  ctx.taskActions.handle("board.remove", async ({ task }) => boardChanged(task, "removed"));
  ctx.taskActions.handle("declined.remember", async ({ task, releasedProviderId, now, tx }) => {
    if (releasedProviderId !== null) await recordDeclinedProvider(task.id, releasedProviderId, now, tx);
  });
  ctx.taskActions.handle("withdrawal.record", async ({ transition, task, releasedProviderId, now, tx }) => {
    if (releasedProviderId !== null) await recordWithdrawal(task.id, releasedProviderId, transition === "withdraw", now, tx);
  });
}
