import type { FastifyReply } from "fastify";
import fp from "fastify-plugin";
import { serializerCompiler, type FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { notModifiedSchema, uuidParamSchema } from "../../../shared/common.js";
import { dollarsToCents } from "../../../shared/money.js";
import { acceptOfferBodySchema, offerParamsSchema } from "../../../shared/offers.js";
import type { SystemActor, TaskTransitionName } from "../../../shared/task-lifecycle.js";
import { declineRequestBodySchema } from "../../../shared/task-requests.js";
import {
  createTaskBodySchema,
  declinedTasksSchema,
  editTaskBodySchema,
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
import { viewerOrNull } from "../../policy.js";
import type { TaskRow } from "../../transition-actions.js";
import { parseTaskUpdate, TASK_UPDATES_CHANNEL } from "../../task-updates.js";
import { BoardCache, parseSnapshot, type BoardAnswer, type HeardChange } from "./board-cache.js";
import { boardReach, type BoardTaskChange } from "./board-reach.js";
import { editTask } from "./edit-task.js";
import geocodeRoutes from "./geocode-routes.js";
import scheduleRoutes from "./schedule-routes.js";
import { createPositionBackfill } from "./positions.js";
import { countWithinRadii, listOpenTasks } from "./board-query.js";
import { declinedOpenTasks, type OpenTasksInput, type SessionUser } from "./repository.js";
import { registerTaskActions } from "./actions.js";
import { cancelAsPoster, declineRequest, lapseDueRequests } from "./requests.js";
import { createTask, expireUnpaidClaims, performTransition, transitionTask } from "./service.js";
import { getTaskDetail, listAssignedTo, listPostedBy, privateView } from "./task-views.js";
import { errorResponses } from "../../http-errors.js";

// Tasks: post, find, claim and run a task through its life (docs/product.md, Task states). Every
// state change goes through service.ts's one transition function, built from the shared table.

/**
 * The transition function for the server acting on its own behalf: the payment system's "pay"
 * runs through it inside the payment's transaction (docs/decisions/005-task-lifecycle-table.md).
 * Features do not import each other, so the tasks plugin hands it over as a decorator; the
 * payments plugin declares "tasks" as a dependency and reads it.
 */
export type SystemTaskTransition = (
  name: TaskTransitionName,
  taskId: string,
  /** The server itself, or (for "resolve_dispute") the admin whose resolution ends the task. */
  actor: SystemActor | SessionUser,
  options: { tx: Db; now: Date },
) => Promise<TaskRow | null>;

declare module "fastify" {
  interface FastifyInstance {
    taskTransition: SystemTaskTransition;
    /** The job board's answer to a parsed query, as GET /api/tasks/open sends it (the server-rendered board, decision 036). */
    boardAnswer: (query: OpenTasksInput) => Promise<BoardAnswer>;
    /** A board card changed without a transition (its photos), inside the change's transaction. */
    boardCardChanged: (task: Pick<TaskRow, "id" | "category">) => void;
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
  { name: "reactivate", path: "reactivate" },
  { name: "decline", path: "decline-provider" },
  { name: "withdraw", path: "withdraw" },
  { name: "release_claim", path: "release-claim" },
  { name: "accept_request", path: "accept-request" },
  // Time and turning up (decision 074): the answer to a proposed time, and the poster's no-show report.
  { name: "accept_time", path: "accept-time" },
  { name: "decline_time", path: "decline-time" },
  { name: "report_no_show", path: "report-no-show" },
] as const satisfies readonly { name: TaskTransitionName; path: string }[];

/**
 * Every field of the parsed query decides the answer, so the whole parsed query is the key (zod
 * writes its fields in the schema's order, so equal queries give equal keys).
 */
const boardKey = (q: OpenTasksInput) => JSON.stringify(q);

/** docs/decisions/035-job-board-cache.md */
const BOARD_CACHE_MAX_AGE_MS = 10_000;
const BOARD_CACHE_ENTRIES = 256;
/** Own changes waiting for their notice; one whose transaction rolled back is forgotten among the oldest. */
const OWN_CHANGES_KEPT = 1000;

/** A changed task as the instance that changed it knows it (board-reach.ts). */
const changeOf = (task: TaskRow, effect: BoardTaskChange["effect"]): BoardTaskChange => ({
  effect,
  taskId: task.id,
  category: task.category,
  createdAtMs: task.createdAt.getTime(),
  budgetCents: task.budgetCents,
  // What the board's search reads (repository.ts, boardConditions).
  text: `${task.title} ${task.description}`,
});

/**
 * The route's own response serializer (the one app.ts installs for every route), run once per
 * shared answer: checked against taskListSchema and written once, then sent to each request.
 */
const serializeBoard = serializerCompiler({ schema: taskListSchema, method: "GET", url: "/api/tasks/open" });

const tasksRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const board = new BoardCache<BoardTaskChange>({ maxAgeMs: BOARD_CACHE_MAX_AGE_MS, maxEntries: BOARD_CACHE_ENTRIES, now: () => ctx.now().getTime() });
  /** This instance's own changes, by task, until their notice comes back after the commit with the transaction's id. */
  const own = new Map<string, HeardChange<BoardTaskChange>>();
  const changedHere = (change: BoardTaskChange) => {
    own.delete(change.taskId);
    own.set(change.taskId, board.changed(change.category, change, null));
    const oldest = own.keys().next();
    if (own.size > OWN_CHANGES_KEPT && !oldest.done) own.delete(oldest.value);
  };
  // This instance's own changes, inside their transactions (before anyone can read them)...
  registerTaskActions(ctx, (task, effect) => changedHere(changeOf(task, effect)));
  // A card's photos are not a transition (no state, no actor rule), so they reach the cache through
  // this decorator, which app.ts hands to the task-photos feature (decision 045).
  app.decorate("boardCardChanged", (task: Pick<TaskRow, "id" | "category">) =>
    changedHere({ effect: "changed", taskId: task.id, category: task.category, createdAtMs: null, budgetCents: null, text: null }),
  );
  // ...and every instance's, once committed: an answer read between the drop above and the commit
  // is dropped again by the notice, unless its statement saw the commit. A notice of this
  // instance's own change is judged with what the change knew (its text); another instance's,
  // with what the notice says.
  const unlisten = await ctx.database.listen(TASK_UPDATES_CHANNEL, (payload) => {
    const update = parseTaskUpdate(payload);
    if (!update?.board) return;
    const xid = update.xid === undefined ? null : BigInt(update.xid);
    const mine = own.get(update.taskId);
    if (mine) {
      own.delete(update.taskId);
      mine.xid = xid;
    }
    board.changed(
      update.category,
      mine?.change?.effect === update.board
        ? mine.change
        : { effect: update.board, taskId: update.taskId, category: update.category, createdAtMs: update.createdAtMs ?? null, budgetCents: update.budgetCents ?? null, text: null },
      xid,
    );
  });
  // Notices lost while the listener was down: forget everything.
  ctx.database.onListenerRestored(() => board.changed(null, null, null));
  app.addHook("onClose", async () => unlisten());

  ctx.scheduler.register("tasks:expire-payments", () => expireUnpaidClaims(ctx));
  ctx.scheduler.register("tasks:lapse-requests", () => lapseDueRequests(ctx));
  ctx.scheduler.register("tasks:place-typed-addresses", createPositionBackfill(ctx, (task) => changedHere(changeOf(task, "added"))));
  app.decorate("taskTransition", ((name, taskId, actor, options) =>
    transitionTask(ctx, name, taskId, typeof actor === "string" ? { kind: "system", actor } : { kind: "person", user: actor }, options)) satisfies SystemTaskTransition);
  // The board's first page rendered into the HTML is the very answer the route keeps and sends
  // (docs/decisions/036-server-rendered-data-pages.md).
  const boardAnswer = (query: OpenTasksInput) =>
    board.answer(boardKey(query), query.category ?? null, async () => {
      const { cards, snapshot } = await listOpenTasks(ctx, query);
      return { json: serializeBoard(cards), reach: boardReach(query, cards), snapshot: parseSnapshot(snapshot) };
    });
  app.decorate("boardAnswer", boardAnswer);

  app.post(
    "/api/tasks",
    {
      config: { auth: "user", verifiedEmail: true },
      schema: {
        tags: ["tasks"],
        operationId: "postTask",
        summary: "Posts a new task",
        body: createTaskBodySchema,
        response: { 201: taskPrivateSchema, ...errorResponses(400, 401, 429) },
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
        operationId: "listOpenTasks",
        summary: "Lists the open tasks of the job board",
        querystring: openTasksQuerySchema,
        response: { 200: taskListSchema, 304: notModifiedSchema, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const { body, etag } = await boardAnswer(request.query);
      // "no-cache": a browser keeps the answer but asks each time, and a board that has not changed costs a 304.
      reply.header("cache-control", "no-cache").header("etag", etag);
      if (request.headers["if-none-match"] === etag) return reply.code(304).send(null);
      // Already serialized with the 200 schema once for every request it answers: bytes with a JSON
      // content type are sent as they are (the reply's typing asks for the object).
      return (reply as FastifyReply).type("application/json; charset=utf-8").send(body);
    },
  );

  app.get(
    "/api/tasks/open/radius-counts",
    {
      config: { auth: "public", sameForEveryone: true },
      schema: {
        tags: ["tasks"],
        operationId: "countOpenTasksByRadius",
        summary: "Counts the open tasks within each distance of a place",
        querystring: radiusCountsQuerySchema,
        response: { 200: radiusCountsSchema, ...errorResponses(400) },
      },
    },
    async (request) => countWithinRadii(ctx, request.query),
  );

  app.get(
    "/api/tasks/my-tasks",
    {
      config: { auth: "user" },
      schema: { tags: ["tasks"], operationId: "listMyTasks", summary: "Lists the tasks the signed-in person posted", response: { 200: myTaskListSchema, ...errorResponses(401) } },
    },
    async (request) => listPostedBy(ctx, requireUser(request).id),
  );

  app.get(
    "/api/tasks/my-jobs",
    {
      config: { auth: "user" },
      schema: { tags: ["tasks"], operationId: "listMyJobs", summary: "Lists the tasks the signed-in provider works on", response: { 200: myTaskListSchema, ...errorResponses(401) } },
    },
    async (request) => listAssignedTo(ctx, requireUser(request).id),
  );

  app.get(
    "/api/tasks/declined",
    {
      config: { auth: "user" },
      schema: { tags: ["tasks"], operationId: "listDeclinedTasks", summary: "Lists the tasks whose posters declined the signed-in provider", response: { 200: declinedTasksSchema, ...errorResponses(401) } },
    },
    // The board is the same for everyone and kept (decision 035), so a declined provider's browser
    // leaves these out of it, and their task page says why there is no Claim (decision 024).
    async (request) => ({ taskIds: await declinedOpenTasks(ctx.db, requireUser(request).id) }),
  );

  app.get(
    "/api/tasks/:id",
    {
      config: { auth: "public" },
      schema: {
        tags: ["tasks"],
        operationId: "getTask",
        summary: "Returns one task as the asking person may see it",
        params: uuidParamSchema,
        response: { 200: taskDetailSchema, ...errorResponses(400, 404) },
      },
    },
    async (request) => getTaskDetail(ctx, request.params.id, viewerOrNull(request.user)),
  );

  app.patch(
    "/api/tasks/:id",
    {
      config: { auth: "user" },
      schema: {
        tags: ["tasks"],
        operationId: "editTask",
        summary: "Changes an open task's details, price, date or place (poster only)",
        params: uuidParamSchema,
        body: editTaskBodySchema,
        response: {
          200: taskPrivateSchema,
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    // An edit may move the card anywhere on the board (budget, text): every kept answer of its
    // category is dropped, as for a task whose place in the orders is unknown (board-reach.ts).
    async (request) =>
      editTask(ctx, requireUser(request), request.params.id, request.body, (task) =>
        changedHere({ effect: "added", taskId: task.id, category: task.category, createdAtMs: null, budgetCents: null, text: null }),
      ),
  );

  for (const { name, path } of PERSON_TRANSITIONS) {
    app.patch(
      `/api/tasks/:id/${path}`,
      {
        config: { auth: "user" },
        schema: {
          tags: ["tasks"],
          operationId: `${name.replace(/_(\w)/g, (_m: string, c: string) => c.toUpperCase())}Task`,
          summary: `Moves the task by the "${name}" row of the task table (docs/product.md)`,
          params: uuidParamSchema,
          response: {
            200: taskPrivateSchema,
            ...errorResponses(400, 401, 403, 404, 409),
          },
        },
      },
      async (request) => {
        const user = requireUser(request);
        return privateView(ctx, await performTransition(ctx, name, request.params.id, user));
      },
    );
  }

  // The poster's one Cancel: a waiting request by its own row, so its provider is told (decision 065).
  app.patch(
    "/api/tasks/:id/cancel",
    {
      config: { auth: "user" },
      schema: {
        tags: ["tasks"],
        operationId: "cancelTask",
        summary: "The poster cancels the task, by the cancel row or, for a request still waiting, by cancel_request",
        params: uuidParamSchema,
        response: {
          200: taskPrivateSchema,
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request) => privateView(ctx, await cancelAsPoster(ctx, request.params.id, requireUser(request))),
  );

  // Declining a request carries an optional reason, and its row is the one the poster's choice picks
  // (docs/decisions/065-requesting-a-provider.md).
  app.patch(
    "/api/tasks/:id/decline-request",
    {
      config: { auth: "user" },
      schema: {
        tags: ["tasks"],
        operationId: "declineTaskRequest",
        summary: "The requested provider declines: the task opens to everyone or is cancelled, as the poster chose",
        params: uuidParamSchema,
        body: declineRequestBodySchema,
        response: {
          200: taskPrivateSchema,
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request) => privateView(ctx, await declineRequest(ctx, request.params.id, requireUser(request), request.body.reason)),
  );

  // accept_offer names the offer and the price the poster saw, so it has a route of its own
  // (docs/decisions/061-offers.md).
  app.post(
    "/api/tasks/:id/offers/:offerId/accept",
    {
      config: { auth: "user" },
      schema: {
        tags: ["offers"],
        operationId: "acceptTaskOffer",
        summary: "Accepts an offer at the price the poster saw: the task is claimed by its provider at that price",
        params: offerParamsSchema,
        body: acceptOfferBodySchema,
        response: {
          200: taskPrivateSchema,
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request) => {
      const { id, offerId } = request.params;
      const offer = { id: offerId, priceCents: dollarsToCents(request.body.price) };
      return privateView(ctx, await performTransition(ctx, "accept_offer", id, requireUser(request), { offer }));
    },
  );

  await app.register(geocodeRoutes);
  await app.register(scheduleRoutes);
};

// Not encapsulated (fastify-plugin), so the taskTransition decorator reaches the plugins registered after it.
export default fp(tasksRoutes, { name: "tasks" });
