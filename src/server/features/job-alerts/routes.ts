import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { jobAlertListSchema, saveJobAlertsBodySchema } from "../../../shared/job-alerts.js";
import { requireUser } from "../../plugins/auth.js";
import { getAlerts, saveAlerts } from "./repository.js";
import { sendAlertDigests } from "./service.js";
import { registerJobAlertActions } from "./actions.js";
import { errorResponses } from "../../http-errors.js";

// Job alerts: a verified provider's saved searches (docs/product.md#job-alerts,
// docs/decisions/032-job-alerts.md). Matching runs on posting: the
// "job_alerts.match" action of the task table's post row.

const errors = errorResponses(400, 401, 403);

const jobAlertsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  registerJobAlertActions(ctx);
  ctx.scheduler.register("job-alerts:digest", () => sendAlertDigests(ctx));

  app.get(
    "/api/alerts",
    { config: { auth: "user" }, schema: { tags: ["job-alerts"], operationId: "getJobAlert", summary: "Returns the signed-in provider's job alert", response: { 200: jobAlertListSchema, ...errors } } },
    async (request) => getAlerts(ctx.db, requireUser(request).id),
  );

  app.put(
    "/api/alerts",
    {
      config: { auth: "user" },
      schema: { tags: ["job-alerts"], operationId: "setJobAlert", summary: "Sets the signed-in provider's job alert", body: saveJobAlertsBodySchema, response: { 200: jobAlertListSchema, ...errors } },
    },
    async (request) => saveAlerts(ctx.db, requireUser(request).id, request.body, ctx.now()),
  );
};

export default jobAlertsRoutes;
