import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { onMyWayBodySchema, proposeTimeBodySchema, URBAN_SPEED_MPH } from "../../../shared/calendar.js";
import { uuidParamSchema } from "../../../shared/common.js";
import type { GeoPoint } from "../../../shared/felix-pricing.js";
import { taskPrivateSchema } from "../../../shared/tasks.js";
import { createRouter } from "../../adapters/routing/create-router.js";
import { errorResponses } from "../../http-errors.js";
import { requireUser } from "../../plugins/auth.js";
import type { TaskRow } from "../../transition-actions.js";
import { findTask } from "./repository.js";
import { performTransition } from "./service.js";
import { privateView } from "./task-views.js";

// The task table's rows that carry a time or a position (docs/product.md, "Time and turning up";
// docs/decisions/074-time-and-turning-up.md): a proposed new time, and "on my way" with the
// provider's position when they chose to share it. Accepting or declining a time and reporting a
// no-show carry nothing: they are PATCH routes of the person-driven rows (routes.ts).

/** Where the provider is headed: the task's place, or its route's start; the approximate position when that is all it has. */
function destination(task: TaskRow): GeoPoint | null {
  const lat = task.lat ?? task.startLat ?? task.approxLat;
  const lon = task.lon ?? task.startLon ?? task.approxLon;
  return lat !== null && lon !== null ? { lat, lon } : null;
}

const scheduleRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  // Driving miles: ROUTING_URL's roads when configured, else the great circle × the road factor.
  const router = createRouter({ url: ctx.env.ROUTING_URL, log: ctx.log });

  app.post(
    "/api/tasks/:id/propose-time",
    {
      config: { auth: "user" },
      schema: {
        tags: ["tasks"],
        operationId: "proposeTaskTime",
        summary: 'Proposes a new start for a claimed task, by the "propose_time" row (its poster or its provider)',
        params: uuidParamSchema,
        body: proposeTimeBodySchema,
        response: { 200: taskPrivateSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const input = { proposedStartAt: new Date(request.body.startsAt) };
      return privateView(ctx, await performTransition(ctx, "propose_time", request.params.id, requireUser(request), { input }));
    },
  );

  app.post(
    "/api/tasks/:id/on-my-way",
    {
      config: { auth: "user" },
      schema: {
        tags: ["tasks"],
        operationId: "onMyWay",
        summary: 'The provider is on the way, by the "on_my_way" row: the poster is told at once, with an arrival estimate when a position is given',
        params: uuidParamSchema,
        body: onMyWayBodySchema,
        response: { 200: taskPrivateSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { position } = request.body;
      // The position is used for this estimate and nothing else: it is not stored, logged or passed on.
      let arrivalEstimateAt: Date | null = null;
      const task = position ? await findTask(ctx, request.params.id) : null;
      const to = task && task.providerId === user.id ? destination(task) : null;
      if (position && to) {
        const miles = await router.drivingMiles([{ lat: position.lat, lon: position.lon }, to]);
        arrivalEstimateAt = new Date(ctx.now().getTime() + Math.ceil((miles / URBAN_SPEED_MPH) * 60) * 60_000);
      }
      return privateView(ctx, await performTransition(ctx, "on_my_way", request.params.id, user, { input: { arrivalEstimateAt } }));
    },
  );
};

export default scheduleRoutes;
