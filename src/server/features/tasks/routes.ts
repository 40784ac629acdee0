import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { errorResponseSchema, uuidParamSchema } from "../../../shared/common.js";
import type { TaskTransitionName } from "../../../shared/task-lifecycle.js";
import {
  createTaskBodySchema,
  myTaskListSchema,
  openTasksQuerySchema,
  taskDetailSchema,
  taskListSchema,
  taskPrivateSchema,
} from "../../../shared/tasks.js";
import { requireUser } from "../../plugins/auth.js";
import geocodeRoutes from "./geocode-routes.js";
import { createTask, getTaskDetail, listAssignedTo, listOpenTasks, listPostedBy, privateView } from "./task-repository.js";
import { expireUnpaidClaims, performTransition } from "./task-transitions.js";

// Tasks: post, find, claim and run a task through its life (spec §2 job board and task detail,
// §4, §7). Every state change goes through task-transitions.ts, built from the shared table.

/** The person-driven transitions, each at PATCH /api/tasks/{id}/{name} with an empty body. */
const PERSON_TRANSITIONS = ["claim", "start", "complete", "cancel", "reactivate"] as const satisfies readonly TaskTransitionName[];

const tasksRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  ctx.scheduler.register("tasks:expire-payments", () => expireUnpaidClaims(ctx));

  app.post(
    "/api/tasks",
    {
      config: { auth: "user" },
      schema: {
        tags: ["tasks"],
        body: createTaskBodySchema,
        response: { 201: taskPrivateSchema, 400: errorResponseSchema, 401: errorResponseSchema },
      },
    },
    async (request, reply) => reply.code(201).send(await createTask(ctx.db, requireUser(request), request.body, ctx.now())),
  );

  app.get(
    "/api/tasks/open",
    {
      config: { auth: "public" },
      schema: {
        tags: ["tasks"],
        querystring: openTasksQuerySchema,
        response: { 200: taskListSchema, 400: errorResponseSchema },
      },
    },
    async (request) => listOpenTasks(ctx.db, request.query, ctx.now()),
  );

  app.get(
    "/api/tasks/my-tasks",
    {
      config: { auth: "user" },
      schema: { tags: ["tasks"], response: { 200: myTaskListSchema, 401: errorResponseSchema } },
    },
    async (request) => listPostedBy(ctx.db, requireUser(request).id, ctx.now()),
  );

  app.get(
    "/api/tasks/my-jobs",
    {
      config: { auth: "user" },
      schema: { tags: ["tasks"], response: { 200: myTaskListSchema, 401: errorResponseSchema } },
    },
    async (request) => listAssignedTo(ctx.db, requireUser(request).id, ctx.now()),
  );

  app.get(
    "/api/tasks/:id",
    {
      config: { auth: "public" },
      schema: {
        tags: ["tasks"],
        params: uuidParamSchema,
        response: { 200: taskDetailSchema, 400: errorResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request) => getTaskDetail(ctx.db, request.params.id, request.user, ctx.now()),
  );

  for (const name of PERSON_TRANSITIONS) {
    app.patch(
      `/api/tasks/:id/${name}`,
      {
        config: { auth: "user" },
        schema: {
          tags: ["tasks"],
          params: uuidParamSchema,
          response: {
            200: taskPrivateSchema,
            400: errorResponseSchema,
            401: errorResponseSchema,
            403: errorResponseSchema,
            404: errorResponseSchema,
            409: errorResponseSchema,
          },
        },
      },
      async (request) => privateView(ctx.db, await performTransition(ctx, name, request.params.id, requireUser(request)), ctx.now()),
    );
  }

  await app.register(geocodeRoutes);
};

export default tasksRoutes;
