import fp from "fastify-plugin";
import { serializerCompiler, type FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { errorResponseSchema, uuidParamSchema } from "../../../shared/common.js";
import type { SystemActor, TaskTransitionName } from "../../../shared/task-lifecycle.js";
import {
  createTaskBodySchema,
  myTaskListSchema,
  openTasksQuerySchema,
  radiusCountsQuerySchema,
  radiusCountsSchema,
  taskDetailSchema,
  taskListSchema,
  taskPrivateSchema,
} from "../../../shared/tasks.js";
import type { Db } from "../../db/client.js";
import { requireUser } from "../../plugins/auth.js";
import { rateLimit } from "../../plugins/rate-limit.js";
import type { TaskRow } from "../../task-events.js";
import geocodeRoutes from "./geocode-routes.js";
import { countWithinRadii, createTask, getTaskDetail, listAssignedTo, listOpenTasks, listPostedBy, privateView, type OpenTasksInput } from "./repository.js";
import { expireUnpaidClaims, performTransition, transitionTask } from "./service.js";

// Tasks: post, find, claim and run a task through its life (docs/product.md, Task states). Every
// state change goes through service.ts's one transition function, built from the shared table.

/**
 * The transition function for the server acting on its own behalf: the payment system's "pay"
 * runs through it inside the payment's transaction (docs/decisions/005-task-lifecycle-table.md).
 * Features do not import each other, so the tasks plugin hands it over as a decorator; the
 * payments plugin declares "tasks" as a dependency and reads it.
 */
export type SystemTaskTransition = (name: TaskTransitionName, taskId: string, actor: SystemActor, options: { tx: Db; now: Date }) => Promise<TaskRow | null>;

declare module "fastify" {
  interface FastifyInstance {
    taskTransition: SystemTaskTransition;
  }
}

/**
 * The person-driven transitions, each at PATCH /api/tasks/{id}/{path} with an empty body; the path
 * is the transition's name except where a longer one reads better in the API.
 */
const PERSON_TRANSITIONS = [
  { name: "claim", path: "claim" },
  { name: "start", path: "start" },
  { name: "complete", path: "complete" },
  { name: "cancel", path: "cancel" },
  { name: "reactivate", path: "reactivate" },
  { name: "decline", path: "decline-provider" },
] as const satisfies readonly { name: TaskTransitionName; path: string }[];

/**
 * Identical requests that arrive while one is being answered share its answer. Under load most
 * visitors ask for the same board page at the same moment, and the board is the same for everyone
 * who asks. Nothing is kept once the answer is out, so an answer is never older than a query that
 * was still running when the request arrived: no cache to invalidate across instances
 * (docs/benchmarks.md, "Mixed load").
 */
function sharedWhileRunning<A, R>(run: (arg: A) => Promise<R>, keyOf: (arg: A) => string): (arg: A) => Promise<R> {
  const running = new Map<string, Promise<R>>();
  return (arg) => {
    const key = keyOf(arg);
    const current = running.get(key);
    if (current) return current;
    const started = run(arg).finally(() => running.delete(key));
    running.set(key, started);
    return started;
  };
}

// Every field of the parsed query decides the answer, so every field is in the key.
const boardKey = (q: OpenTasksInput) =>
  JSON.stringify([q.sort, q.category, q.search, q.near, q.radiusMiles, q.minBudget, q.maxBudget, q.when, q.lat, q.lon, q.page, q.pageSize]);

/**
 * The route's own response serializer (the one app.ts installs for every route), run once per
 * shared answer: checked against taskListSchema and written once, then sent to each request.
 */
const serializeBoard = serializerCompiler({ schema: taskListSchema, method: "GET", url: "/api/tasks/open" });

const tasksRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const openBoard = sharedWhileRunning(async (query: OpenTasksInput) => {
    const list = await listOpenTasks(ctx, query);
    return { list, json: serializeBoard(list) };
  }, boardKey);

  ctx.scheduler.register("tasks:expire-payments", () => expireUnpaidClaims(ctx));
  app.decorate("taskTransition", ((name, taskId, actor, options) =>
    transitionTask(ctx, name, taskId, { kind: "system", actor }, options)) satisfies SystemTaskTransition);

  app.post(
    "/api/tasks",
    {
      config: { auth: "user", verifiedEmail: true },
      schema: {
        tags: ["tasks"],
        body: createTaskBodySchema,
        response: { 201: taskPrivateSchema, 400: errorResponseSchema, 401: errorResponseSchema, 429: errorResponseSchema },
      },
      // One account cannot flood the job board.
      preHandler: rateLimit(ctx.db, ctx.now, {
        name: "task-post",
        max: ctx.env.TASKS_PER_HOUR,
        windowMs: 3_600_000,
        key: (r) => requireUser(r).id,
        message: (wait) => `You have posted ${ctx.env.TASKS_PER_HOUR} tasks in the last hour. You can post another in ${wait}.`,
      }),
    },
    async (request, reply) => reply.code(201).send(await createTask(ctx, requireUser(request), request.body)),
  );

  app.get(
    "/api/tasks/open",
    {
      config: { auth: "public", sameForEveryone: true },
      schema: {
        tags: ["tasks"],
        querystring: openTasksQuerySchema,
        response: { 200: taskListSchema, 400: errorResponseSchema },
      },
    },
    async (request, reply) => {
      const { list, json } = await openBoard(request.query);
      // The shared answer was already serialized with the 200 schema: send those bytes, with the
      // content type fastify gives serialized JSON (a custom serializer does not set one).
      return reply.type("application/json; charset=utf-8").serializer(() => json).send(list);
    },
  );

  app.get(
    "/api/tasks/open/radius-counts",
    {
      config: { auth: "public", sameForEveryone: true },
      schema: {
        tags: ["tasks"],
        querystring: radiusCountsQuerySchema,
        response: { 200: radiusCountsSchema, 400: errorResponseSchema },
      },
    },
    async (request) => countWithinRadii(ctx, request.query),
  );

  app.get(
    "/api/tasks/my-tasks",
    {
      config: { auth: "user" },
      schema: { tags: ["tasks"], response: { 200: myTaskListSchema, 401: errorResponseSchema } },
    },
    async (request) => listPostedBy(ctx, requireUser(request).id),
  );

  app.get(
    "/api/tasks/my-jobs",
    {
      config: { auth: "user" },
      schema: { tags: ["tasks"], response: { 200: myTaskListSchema, 401: errorResponseSchema } },
    },
    async (request) => listAssignedTo(ctx, requireUser(request).id),
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
    async (request) => getTaskDetail(ctx, request.params.id, request.user),
  );

  for (const { name, path } of PERSON_TRANSITIONS) {
    app.patch(
      `/api/tasks/:id/${path}`,
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
      async (request) => {
        const user = requireUser(request);
        return privateView(ctx, await performTransition(ctx, name, request.params.id, user));
      },
    );
  }

  await app.register(geocodeRoutes);
};

// Not encapsulated (fastify-plugin), so the taskTransition decorator reaches the plugins registered after it.
export default fp(tasksRoutes, { name: "tasks" });
