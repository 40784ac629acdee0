import { createHash, timingSafeEqual } from "node:crypto";
import { sql } from "drizzle-orm";
import fp from "fastify-plugin";
import { z } from "zod";
import { queryRows } from "../db/client.js";
import { HttpError } from "../http-errors.js";

// GET /metrics in Prometheus text format for the operator's scraper (docs/operations.md,
// docs/decisions/053-metrics-and-backups.md). It tells route names, load and backlog, so it is not
// public: the scraper sends METRICS_TOKEN as a bearer token; with no token configured the route
// answers 404 like any address that does not exist.

const METRICS_NOT_ON = "Not found: metrics are off. Set METRICS_TOKEN to turn them on.";
const WRONG_TOKEN = "The metrics need the bearer token set in METRICS_TOKEN. Send it as `Authorization: Bearer <token>`.";

/** Routes Fastify did not match (pages answered by the SPA fallback, 404s) share one label, so stray URLs cannot grow the series. */
const UNMATCHED_ROUTE = "unmatched";

const digest = (value: string) => createHash("sha256").update(value).digest();

export default fp(
  async (app) => {
    const { ctx } = app;
    const { metrics } = ctx;
    const token = ctx.env.METRICS_TOKEN;

    // reply.elapsedTime runs from the request's arrival, so the wait at the door is included. Only
    // with metrics on: with no token nobody reads them, and the hot path pays nothing.
    if (token) {
      app.addHook("onResponse", async (request, reply) => {
        metrics.requestDuration.observe(
          { method: request.method, route: request.routeOptions.url ?? UNMATCHED_ROUTE, status: String(reply.statusCode) },
          reply.elapsedTime / 1000,
        );
      });
    }

    metrics.levels("errandly_admission_requests", "Requests by where they are at the door: in line (arrived, not at work), waiting for a place, at work.", "state", () => ({
      line: app.admission.lineLength,
      waiting: app.admission.queued,
      working: app.admission.inFlight,
    }));
    metrics.levels("errandly_db_pool_connections", "This instance's PostgreSQL pool: connections open, idle among them, and queries waiting for one.", "state", () => {
      const use = ctx.database.poolUse();
      return { total: use.total, idle: use.idle, waiting: use.waiting };
    });
    // Not sent yet: waiting, being sent, or given up on (a failed mail needs a person).
    metrics.levels("errandly_email_outbox_backlog", "E-mails in the outbox not sent, by status.", "status", async () => {
      const counts: Record<string, number> = { queued: 0, sending: 0, failed: 0 };
      const rows = await queryRows<{ status: string; count: number }>(
        ctx.db,
        sql`select status, count(*)::int as count from email_outbox where status in ('queued', 'sending', 'failed') group by status`,
      );
      for (const row of rows) counts[row.status] = row.count;
      return counts;
    });

    app.get(
      "/metrics",
      {
        // Not queued behind the requests it measures: a scrape must get through when the server is busiest.
        config: { auth: "public", admission: false },
        schema: {
          operationId: "getMetrics",
          summary: "Prometheus metrics of this instance, for a scraper holding METRICS_TOKEN.",
          tags: ["platform"],
          headers: z.object({ authorization: z.string().optional() }),
          response: {
            200: z.string(),
            401: z.object({ message: z.string() }),
            404: z.object({ message: z.string() }),
          },
        },
      },
      async (request, reply) => {
        if (!token) throw new HttpError(404, METRICS_NOT_ON);
        const given = /^Bearer (.+)$/i.exec(request.headers.authorization ?? "")?.[1] ?? "";
        if (!timingSafeEqual(digest(given), digest(token))) {
          reply.header("www-authenticate", 'Bearer realm="metrics"');
          throw new HttpError(401, WRONG_TOKEN);
        }
        return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
      },
    );
  },
  { name: "metrics", dependencies: ["admission"] },
);
