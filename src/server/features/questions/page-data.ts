import { createHash } from "node:crypto";
import { serializerCompiler } from "fastify-type-provider-zod";
import { taskQuestionListSchema } from "../../../shared/questions.js";
import type { AppContext } from "../../context.js";
import type { PageDataAnswer } from "../../plugins/spa.js";
import { listQuestions } from "./repository.js";

// A task page's server-rendered HTML shows its public questions (docs/decisions/036-server-rendered-data-pages.md,
// 063-public-questions.md): the task's answer and the questions a signed-out visitor sees, in one
// answer `{task, questions}`, whose tag changes with either.

const serializeQuestions = serializerCompiler({ schema: taskQuestionListSchema, method: "GET", url: "/api/tasks/:id/questions" });

export async function withTaskQuestions(ctx: AppContext, taskId: string, task: PageDataAnswer): Promise<PageDataAnswer> {
  const questions = serializeQuestions({ questions: await listQuestions(ctx.db, taskId, false) });
  const json = `{"task":${task.json.toString()},"questions":${questions}}`;
  return { json, etag: createHash("sha1").update(json).digest("base64url") };
}
