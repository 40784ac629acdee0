import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { uuidParamSchema } from "../../../shared/common.js";
import {
  answerQuestionBodySchema,
  askQuestionBodySchema,
  MAX_OPEN_QUESTIONS_PER_ASKER,
  QUESTION_MESSAGES,
  QUESTION_RATE_LIMIT_PER_MINUTE,
  questionParamsSchema,
  taskQuestionListSchema,
  taskQuestionSchema,
  type TaskQuestion,
} from "../../../shared/questions.js";
import { maskContactDetails } from "../../contact-masking.js";
import type { Db } from "../../db/client.js";
import { conflict, errorResponses, forbidden, notFound } from "../../http-errors.js";
import { requireUser } from "../../plugins/auth.js";
import { isPartyOrAdmin, viewerOrNull } from "../../policy.js";
import { rateLimit } from "../../plugins/rate-limit.js";
import { recordTaskEvent } from "../../transition-actions.js";
import { registerQuestionActions } from "./actions.js";
import {
  answerQuestion,
  findQuestion,
  insertQuestion,
  listQuestions,
  lockAndCountOpenQuestions,
  questionContext,
  setQuestionHidden,
  type QuestionContext,
} from "./repository.js";

// Public questions on an open task (docs/product.md, Public questions;
// docs/decisions/063-public-questions.md): a verified provider asks, the poster answers once,
// everyone reads; the poster or an admin hides a question. Every text is masked here, before it is
// stored, so no reader (the API, the server-rendered page, an export) ever gets the original.
// Asking, answering and hiding are task events (src/shared/task-events.ts): their notices and live
// frames are the events' actions (actions.ts).

type SessionUser = NonNullable<FastifyRequest["user"]>;

const errors = errorResponses(400, 401, 403, 404, 409, 429);

/** The poster and admins see hidden questions (marked hidden); nobody else receives them. */
const seesHidden = (found: QuestionContext, viewer: SessionUser | null) => isPartyOrAdmin(viewerOrNull(viewer), [found.task.userId]);

async function questionOf(db: Db, found: QuestionContext, questionId: string): Promise<TaskQuestion> {
  const [question] = (await listQuestions(db, found.task.id, true)).filter((q) => q.id === questionId);
  if (!question) throw notFound(QUESTION_MESSAGES.noQuestion);
  return question;
}

const questionsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  registerQuestionActions(ctx);
  const limit = rateLimit(ctx.db, ctx.now, {
    name: "questions",
    max: QUESTION_RATE_LIMIT_PER_MINUTE,
    windowMs: 60_000,
    key: (request) => request.user?.id ?? null,
    message: (wait) => `You are posting questions and answers too fast. Try again in ${wait}.`,
  });

  async function taskFor(db: Db, taskId: string, userId: string | null): Promise<QuestionContext> {
    const found = await questionContext(db, taskId, userId);
    if (!found) throw notFound("Task not found");
    return found;
  }

  /** The question on this task that the poster or an admin hides or shows again. */
  async function moderate(user: SessionUser, taskId: string, questionId: string, hidden: boolean): Promise<TaskQuestion> {
    const found = await taskFor(ctx.db, taskId, user.id);
    if (!seesHidden(found, user)) throw forbidden(QUESTION_MESSAGES.notModerator);
    if (!(await findQuestion(ctx.db, taskId, questionId))) throw notFound(QUESTION_MESSAGES.noQuestion);
    await ctx.db.transaction(async (tx) => {
      await setQuestionHidden(tx, questionId, hidden ? ctx.now() : null);
      await recordTaskEvent(ctx.taskEventActions, "question_moderated", { taskId, actorId: user.id, tx, now: ctx.now() });
    });
    return questionOf(ctx.db, found, questionId);
  }

  app.get(
    "/api/tasks/:id/questions",
    {
      config: { auth: "public" },
      schema: {
        tags: ["questions"],
        operationId: "listTaskQuestions",
        summary: "Lists a task's public questions and answers; its poster and admins also see hidden ones",
        params: uuidParamSchema,
        response: { 200: taskQuestionListSchema, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const viewer = request.user ?? null;
      const found = await taskFor(ctx.db, request.params.id, viewer?.id ?? null);
      return { questions: await listQuestions(ctx.db, found.task.id, seesHidden(found, viewer)) };
    },
  );

  app.post(
    "/api/tasks/:id/questions",
    {
      config: { auth: "user" },
      preHandler: limit,
      schema: {
        tags: ["questions"],
        operationId: "askTaskQuestion",
        summary: "Asks a public question on an open task (verified providers other than the poster)",
        params: uuidParamSchema,
        body: askQuestionBodySchema,
        response: { 201: taskQuestionSchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const taskId = request.params.id;
      const body = maskContactDetails(request.body.body);
      const question = await ctx.db.transaction(async (tx) => {
        const found = await taskFor(tx, taskId, user.id);
        if (found.task.userId === user.id) throw forbidden(QUESTION_MESSAGES.ownTask);
        if (!found.verified) throw forbidden(QUESTION_MESSAGES.notProvider);
        if (found.task.status !== "open") throw conflict(QUESTION_MESSAGES.notOpen);
        if ((await lockAndCountOpenQuestions(tx, taskId, user.id)) >= MAX_OPEN_QUESTIONS_PER_ASKER) throw conflict(QUESTION_MESSAGES.tooMany);
        const row = await insertQuestion(tx, { taskId, askerId: user.id, body, now: ctx.now() });
        const question = { askerId: user.id, text: body };
        await recordTaskEvent(ctx.taskEventActions, "question_asked", { taskId, actorId: user.id, tx, now: ctx.now(), task: found.task, question });
        return { found, row };
      });
      return reply.code(201).send(await questionOf(ctx.db, question.found, question.row.id));
    },
  );

  app.post(
    "/api/tasks/:id/questions/:questionId/answer",
    {
      config: { auth: "user" },
      preHandler: limit,
      schema: {
        tags: ["questions"],
        operationId: "answerTaskQuestion",
        summary: "Answers a question on the poster's open task, once",
        params: questionParamsSchema,
        body: answerQuestionBodySchema,
        response: { 200: taskQuestionSchema, ...errors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { id: taskId, questionId } = request.params;
      const answer = maskContactDetails(request.body.answer);
      const found = await ctx.db.transaction(async (tx) => {
        const task = await taskFor(tx, taskId, user.id);
        if (task.task.userId !== user.id) throw forbidden(QUESTION_MESSAGES.notPoster);
        if (!(await findQuestion(tx, taskId, questionId))) throw notFound(QUESTION_MESSAGES.noQuestion);
        if (task.task.status !== "open") throw conflict(QUESTION_MESSAGES.notOpen);
        const row = await answerQuestion(tx, questionId, answer, ctx.now());
        if (!row) throw conflict(QUESTION_MESSAGES.answered);
        // The asker is neither poster nor provider of the task: named so their open page refreshes too.
        const question = { askerId: row.askerId, text: answer };
        await recordTaskEvent(ctx.taskEventActions, "question_answered", { taskId, actorId: user.id, tx, now: ctx.now(), task: task.task, question, also: row.askerId });
        return task;
      });
      return questionOf(ctx.db, found, questionId);
    },
  );

  for (const [action, hidden] of [
    ["hide", true],
    ["unhide", false],
  ] as const) {
    app.post(
      `/api/tasks/:id/questions/:questionId/${action}`,
      {
        config: { auth: "user" },
        schema: {
          tags: ["questions"],
          operationId: hidden ? "hideTaskQuestion" : "unhideTaskQuestion",
          summary: hidden ? "Hides a question from everyone but the poster and admins" : "Shows a hidden question to everyone again",
          params: questionParamsSchema,
          response: { 200: taskQuestionSchema, ...errors },
        },
      },
      async (request) => moderate(requireUser(request), request.params.id, request.params.questionId, hidden),
    );
  }
};

export default questionsRoutes;
