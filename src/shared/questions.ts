import { z } from "zod";
import { text } from "./common.js";

// Public questions on an open task (docs/product.md, Public questions;
// docs/decisions/063-public-questions.md): a verified provider asks, the poster answers, everyone
// reads. Phone numbers, e-mail addresses and links are masked before the text is stored, so a
// question cannot take the payment off Errandly: the server's contact-masking.ts, decision 070.

/** Unanswered questions one provider may have on one task at a time, so nobody floods a task. */
export const MAX_OPEN_QUESTIONS_PER_ASKER = 5;
/** Questions and answers a person may post per minute, across all tasks. */
export const QUESTION_RATE_LIMIT_PER_MINUTE = 10;

export const QUESTION_MESSAGES = {
  ownTask: "You cannot ask a question on your own task. Edit the task's details instead.",
  notProvider: "Only verified providers can ask questions. Apply to become a provider first.",
  notOpen: "This task is no longer open, so it takes no new questions or answers.",
  tooMany: `You already have ${MAX_OPEN_QUESTIONS_PER_ASKER} unanswered questions on this task. Wait for the poster to answer one before asking another.`,
  notPoster: "Only the task's poster can answer its questions.",
  notModerator: "Only the task's poster or an administrator can hide or show a question.",
  answered: "This question already has an answer. Each question is answered once.",
  noQuestion: "Question not found. Reload the page to see the task's questions now.",
} as const;

export const askQuestionBodySchema = z.object({ body: text(10, 1000, "Question") });
export type AskQuestionBody = z.input<typeof askQuestionBodySchema>;

export const answerQuestionBodySchema = z.object({ answer: text(1, 1000, "Answer") });
export type AnswerQuestionBody = z.input<typeof answerQuestionBodySchema>;

export const questionParamsSchema = z.object({
  id: z.uuid({ error: "Task id must be a UUID" }),
  questionId: z.uuid({ error: "Question id must be a UUID" }),
});

export const taskQuestionSchema = z.object({
  id: z.uuid(),
  taskId: z.uuid(),
  body: z.string(),
  answer: z.string().nullable(),
  answeredAt: z.string().nullable(),
  /** Shown only to the poster and admins: everyone else never receives a hidden question. */
  hidden: z.boolean(),
  createdAt: z.string(),
  asker: z.object({ id: z.uuid(), displayName: z.string() }),
});
export type TaskQuestion = z.infer<typeof taskQuestionSchema>;

export const taskQuestionListSchema = z.object({ questions: z.array(taskQuestionSchema) });
export type TaskQuestionList = z.infer<typeof taskQuestionListSchema>;
