import { describe, expect, it } from "vitest";
import type { NotificationList } from "../../../shared/notifications.js";
import { MAX_OPEN_QUESTIONS_PER_ASKER, QUESTION_MESSAGES, QUESTION_RATE_LIMIT_PER_MINUTE, type TaskQuestion, type TaskQuestionList } from "../../../shared/questions.js";
import { HIDDEN } from "../../contact-masking.js";
import { call, createUser, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import { askQuestion, createPoster, createProvider, postTask, taskAt } from "../../../../test/fixtures/factory.js";

// Public questions on an open task (docs/product.md, Public questions; docs/decisions/063-public-questions.md).

const t = await useTestApp();

const ask = (user: TestUser | null, taskId: string, body: string) => call(t, user, { method: "POST", url: `/api/tasks/${taskId}/questions`, payload: { body } });
const answer = (user: TestUser, taskId: string, questionId: string, text: string) =>
  call(t, user, { method: "POST", url: `/api/tasks/${taskId}/questions/${questionId}/answer`, payload: { answer: text } });
const moderate = (user: TestUser, taskId: string, questionId: string, action: "hide" | "unhide") =>
  call(t, user, { method: "POST", url: `/api/tasks/${taskId}/questions/${questionId}/${action}` });
async function questionsSeenBy(user: TestUser | null, taskId: string): Promise<TaskQuestion[]> {
  const res = await call(t, user, { url: `/api/tasks/${taskId}/questions` });
  expect(res.statusCode).toBe(200);
  return res.json<TaskQuestionList>().questions;
}
async function noticesOf(user: TestUser, kind: string) {
  const res = await call(t, user, { url: "/api/notifications" });
  return res.json<NotificationList>().notifications.filter((n) => n.kind === kind);
}
const messageOf = (res: { json: <T>() => T }) => res.json<{ message: string }>().message;

describe("asking", () => {
  it("masks contact details however they are written: spaced, full-width, invisible, spelled out or defanged", async () => {
    const task = await postTask(t, await createPoster(t));
    const sam = await createProvider(t);
    const res = await ask(sam, task.id, "Ring ４１０５５５１２３４, 4\u200B1\u200B0 555 1234 or four one zero five five five one two three four; sam at gmail, t.me/sammy, evil dot com, hxxp://x.io");
    expect(res.statusCode).toBe(201);
    const masked = `Ring ${HIDDEN.phone}, ${HIDDEN.phone} or ${HIDDEN.phone}; ${HIDDEN.email}, ${HIDDEN.link}, ${HIDDEN.link}, ${HIDDEN.link}`;
    expect((await questionsSeenBy(null, task.id)).map((q) => q.body)).toEqual([masked]);
  });

  it("stores the question masked, shows it to everyone, and tells the poster", async () => {
    const poster = await createPoster(t);
    const task = await postTask(t, poster);
    const sam = await createProvider(t, { firstName: "Sam", lastName: "Porter" });
    const res = await ask(sam, task.id, "  Can I call you on 555-123-4567 or write to sam@example.com?  ");
    expect(res.statusCode).toBe(201);
    const masked = `Can I call you on ${HIDDEN.phone} or write to ${HIDDEN.email}?`;
    expect(res.json<TaskQuestion>()).toMatchObject({ body: masked, answer: null, hidden: false, asker: { id: sam.id, displayName: "Sam P." } });
    expect((await questionsSeenBy(null, task.id)).map((q) => q.body)).toEqual([masked]);
    const [notice] = await noticesOf(poster, "question_asked");
    expect(notice?.taskId).toBe(task.id);
    expect(notice?.body).toContain(HIDDEN.phone);
    expect(notice?.body).not.toContain("4567");
  });

  it("refuses the poster, people who are not verified providers, signed-out visitors and tasks no longer open", async () => {
    const poster = await createPoster(t);
    const task = await postTask(t, poster);
    const own = await ask(poster, task.id, "Is this my own task really?");
    expect([own.statusCode, messageOf(own)]).toEqual([403, QUESTION_MESSAGES.ownTask]);
    const providerPoster = await createProvider(t);
    const theirs = await postTask(t, providerPoster);
    const self = await ask(providerPoster, theirs.id, "Is this my own task really?");
    expect([self.statusCode, messageOf(self)]).toEqual([403, QUESTION_MESSAGES.ownTask]);
    const user = await ask(await createUser(t), task.id, "Can I help with this one?");
    expect([user.statusCode, messageOf(user)]).toEqual([403, QUESTION_MESSAGES.notProvider]);
    expect((await ask(null, task.id, "Can I help with this one?")).statusCode).toBe(401);
    const claimed = await taskAt(t, "claimed");
    const late = await ask(await createProvider(t), claimed.task.id, "Is it still available?");
    expect([late.statusCode, messageOf(late)]).toEqual([409, QUESTION_MESSAGES.notOpen]);
    expect((await ask(await createProvider(t), "00000000-0000-4000-8000-000000000000", "Is it still available?")).statusCode).toBe(404);
  });

  it("refuses a question shorter than 10 characters with the field's message", async () => {
    const task = await postTask(t, await createPoster(t));
    const res = await ask(await createProvider(t), task.id, "  Parking? ");
    expect(res.statusCode).toBe(400);
    expect(res.json<{ fieldErrors: Record<string, string> }>().fieldErrors.body).toBe("Question must be at least 10 characters");
  });

  it(`holds each asker to ${MAX_OPEN_QUESTIONS_PER_ASKER} unanswered questions per task, and an answer frees a place`, async () => {
    const poster = await createPoster(t);
    const task = await postTask(t, poster);
    const provider = await createProvider(t);
    const ids = [];
    for (let i = 0; i < MAX_OPEN_QUESTIONS_PER_ASKER; i += 1) ids.push(await askQuestion(t, provider, task.id, `Question number ${i + 1} about it`));
    const refused = await ask(provider, task.id, "One question too many?");
    expect([refused.statusCode, messageOf(refused)]).toEqual([409, QUESTION_MESSAGES.tooMany]);
    // Another provider is not held by this one's questions.
    expect((await ask(await createProvider(t), task.id, "A question of my own")).statusCode).toBe(201);
    expect((await answer(poster, task.id, ids[0] ?? "", "Yes")).statusCode).toBe(200);
    expect((await ask(provider, task.id, "Now there is room again?")).statusCode).toBe(201);
  });

  it(`rate-limits one person to ${QUESTION_RATE_LIMIT_PER_MINUTE} questions and answers a minute`, async () => {
    const provider = await createProvider(t);
    const tasks = await Promise.all(Array.from({ length: 3 }, async () => postTask(t, await createPoster(t))));
    let created = 0;
    for (let i = 0; i < QUESTION_RATE_LIMIT_PER_MINUTE; i += 1) {
      const res = await ask(provider, tasks[i % 3]?.id ?? "", `Rate question ${i} here`);
      if (res.statusCode === 201) created += 1;
    }
    expect(created).toBe(QUESTION_RATE_LIMIT_PER_MINUTE);
    const over = await ask(provider, tasks[0]?.id ?? "", "One more question now");
    expect(over.statusCode).toBe(429);
    expect(messageOf(over)).toMatch(/^You are posting questions and answers too fast\. Try again in /);
  });
});

describe("answering", () => {
  it("lets the poster answer once, masked, and tells the asker", async () => {
    const poster = await createPoster(t);
    const task = await postTask(t, poster);
    const asker = await createProvider(t);
    const id = await askQuestion(t, asker, task.id);
    const other = await answer(asker, task.id, id, "I answer my own question");
    expect([other.statusCode, messageOf(other)]).toEqual([403, QUESTION_MESSAGES.notPoster]);
    const res = await answer(poster, task.id, id, "Yes, see www.parking.example.com or 410 555 0199.");
    expect(res.statusCode).toBe(200);
    expect(res.json<TaskQuestion>().answer).toBe(`Yes, see ${HIDDEN.link} or ${HIDDEN.phone}.`);
    const again = await answer(poster, task.id, id, "A second answer");
    expect([again.statusCode, messageOf(again)]).toEqual([409, QUESTION_MESSAGES.answered]);
    const [seen] = await questionsSeenBy(null, task.id);
    expect(seen?.answer).toBe(`Yes, see ${HIDDEN.link} or ${HIDDEN.phone}.`);
    expect(seen?.answeredAt).not.toBeNull();
    expect(await noticesOf(asker, "question_answered")).toHaveLength(1);
  });

  it("answers 404 for a question of another task or none at all", async () => {
    const poster = await createPoster(t);
    const task = await postTask(t, poster);
    const elsewhere = await askQuestion(t, await createProvider(t), (await postTask(t, await createPoster(t))).id);
    const res = await answer(poster, task.id, elsewhere, "Not yours");
    expect([res.statusCode, messageOf(res)]).toEqual([404, QUESTION_MESSAGES.noQuestion]);
    expect((await answer(poster, task.id, "00000000-0000-4000-8000-000000000000", "Nobody")).statusCode).toBe(404);
  });
});

describe("hiding", () => {
  it("hides a question from everyone but the poster and admins, who see it marked, and shows it again", async () => {
    const poster = await createPoster(t);
    const task = await postTask(t, poster);
    const asker = await createProvider(t);
    const admin = await createUser(t, { role: "admin" });
    const id = await askQuestion(t, asker, task.id);
    const refused = await moderate(asker, task.id, id, "hide");
    expect([refused.statusCode, messageOf(refused)]).toEqual([403, QUESTION_MESSAGES.notModerator]);
    expect((await moderate(poster, task.id, id, "hide")).json<TaskQuestion>().hidden).toBe(true);
    expect(await questionsSeenBy(null, task.id)).toEqual([]);
    expect(await questionsSeenBy(asker, task.id)).toEqual([]);
    expect((await questionsSeenBy(poster, task.id)).map((q) => q.hidden)).toEqual([true]);
    expect((await questionsSeenBy(admin, task.id)).map((q) => q.hidden)).toEqual([true]);
    expect((await moderate(admin, task.id, id, "unhide")).statusCode).toBe(200);
    expect((await questionsSeenBy(null, task.id)).map((q) => q.id)).toEqual([id]);
    expect((await moderate(poster, task.id, "00000000-0000-4000-8000-000000000000", "hide")).statusCode).toBe(404);
  });
});

it("answers 404 for the questions of an unknown task", async () => {
  const res = await call(t, null, { url: "/api/tasks/00000000-0000-4000-8000-000000000000/questions" });
  expect(res.statusCode).toBe(404);
});
