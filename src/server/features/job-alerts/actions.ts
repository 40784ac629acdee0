import type { AppContext } from "../../context.js";
import { alertMatchingProviders } from "./service.js";

// The job-alerts feature's action of the task table (docs/decisions/083-every-consequence-in-its-row.md):
// job_alerts.match on posting and on a request that opens to everyone (decision 032).

export function registerJobAlertActions(ctx: AppContext): void {
  ctx.taskActions.handle("job_alerts.match", async (event) => {
    await alertMatchingProviders(ctx, event);
  });
}
