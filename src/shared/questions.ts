import { z } from "zod";
import { text } from "./common.js";

// Public questions on an open task (docs/product.md, Public questions;
// docs/decisions/063-public-questions.md): a verified provider asks, the poster answers, everyone
// reads. Phone numbers, e-mail addresses and links are masked before the text is stored, so a
// question cannot take the payment off Errandly.

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

export const HIDDEN = { phone: "[hidden: phone]", email: "[hidden: e-mail]", link: "[hidden: link]" } as const;

// "at" and "dot" spelled out to dodge a filter: "sam at mail dot com", "sam (at) mail [dot] com".
const AT = String.raw`(?:\s*[([{]\s*at\s*[)\]}]\s*|\s+at\s+)`;
const DOT = String.raw`(?:\s*[([{]\s*dot\s*[)\]}]\s*|\s+dot\s+)`;
// Top-level domains a bare address ("example.com/xyz") ends in; a short list, so "Node.js" or
// "10.30" are left alone.
const TLD = "com|net|org|io|co|us|info|biz|app|dev|ly|xyz|edu|gov|uk|ca|site|online|shop|store|link|page";

/** Any word holding "http" or starting with "www.": a link however it is written. */
const LINK_WORD = /\S*https?\S*|\bwww\.\S+/gi;
/** "name@domain", also with spaces around the "@" and without a top-level domain. */
const EMAIL = /[\w.+-]*\w\s*@\s*\w[\w-]*(?:\s*\.\s*\w[\w-]*)*/g;
/** "name at domain dot com", or "name at domain.com" with a known top-level domain. */
const SPELLED_EMAIL = new RegExp(String.raw`\b[\w.+-]+${AT}[\w-]+(?:(?:${DOT}|\.)[\w-]+)*(?:${DOT}[a-z]{2,}|\.(?:${TLD}))\b`, "gi");
const BARE_DOMAIN = new RegExp(String.raw`\b[a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*\.(?:${TLD})\b(?:/\S*)?`, "gi");
/**
 * Digits with one space, dot or dash between groups, an optional "+country" and "(area)": a phone
 * number when it holds 7 digits or more. "$45.00", "10:30" and "12/05" hold fewer or use other
 * separators, so they stay.
 */
const DIGIT_GROUPS = /(?:\+\s?\d{1,3}[\s.-]?)?(?:\(\s?\d{1,4}\s?\)[\s.-]?)?\d+(?:[\s.-]\d+)*/g;
const PHONE_DIGITS = 7;

/** The text with phone numbers, e-mail addresses and links replaced by a visible placeholder. */
export function maskContactDetails(input: string): string {
  return input
    .replace(LINK_WORD, HIDDEN.link)
    .replace(SPELLED_EMAIL, HIDDEN.email)
    .replace(EMAIL, HIDDEN.email)
    .replace(BARE_DOMAIN, HIDDEN.link)
    .replace(DIGIT_GROUPS, (run) => (run.replace(/\D/g, "").length >= PHONE_DIGITS ? HIDDEN.phone : run));
}
