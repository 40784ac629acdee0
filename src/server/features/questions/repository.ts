import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { displayName } from "../../../shared/names.js";
import type { TaskQuestion } from "../../../shared/questions.js";
import type { Db } from "../../db/client.js";
import { providerProfiles } from "../../db/schema/providers.js";
import { taskQuestions } from "../../db/schema/questions.js";
import { tasks } from "../../db/schema/tasks.js";
import { users } from "../../db/schema/users.js";

// The questions table's reads and writes (docs/decisions/063-public-questions.md). The texts reach
// here already masked: the routes mask before they call.

export type QuestionRow = typeof taskQuestions.$inferSelect;

/** What a person asking or answering needs to know of the task and of themselves. */
export interface QuestionContext {
  task: Pick<typeof tasks.$inferSelect, "id" | "userId" | "title" | "status">;
  verified: boolean;
}

export async function questionContext(db: Db, taskId: string, userId: string | null): Promise<QuestionContext | null> {
  const [row] = await db
    .select({
      id: tasks.id,
      userId: tasks.userId,
      title: tasks.title,
      status: tasks.status,
      verified:
        userId === null
          ? sql<boolean>`false`
          : sql<boolean>`exists (select 1 from ${providerProfiles} pp where pp.user_id = ${userId} and pp.verification_status = 'approved')`,
    })
    .from(tasks)
    .where(eq(tasks.id, taskId))
    .limit(1);
  if (!row) return null;
  const { verified, ...task } = row;
  return { task, verified };
}

/**
 * Takes the asker's question lock on this task for the transaction and counts their unanswered
 * questions on it, so two questions at once cannot both pass MAX_OPEN_QUESTIONS_PER_ASKER.
 */
export async function lockAndCountOpenQuestions(tx: Db, taskId: string, askerId: string): Promise<number> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`questions:${taskId}:${askerId}`}))`);
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(taskQuestions)
    .where(and(eq(taskQuestions.taskId, taskId), eq(taskQuestions.askerId, askerId), isNull(taskQuestions.answer)));
  return row?.n ?? 0;
}

export async function insertQuestion(tx: Db, values: { taskId: string; askerId: string; body: string; now: Date }): Promise<QuestionRow> {
  const [row] = await tx.insert(taskQuestions).values({ taskId: values.taskId, askerId: values.askerId, body: values.body, createdAt: values.now }).returning();
  if (!row) throw new Error("question insert returned no row");
  return row;
}

export async function findQuestion(db: Db, taskId: string, questionId: string): Promise<QuestionRow | null> {
  const [row] = await db
    .select()
    .from(taskQuestions)
    .where(and(eq(taskQuestions.id, questionId), eq(taskQuestions.taskId, taskId)))
    .limit(1);
  return row ?? null;
}

/** Answers the question once: the answered row, or null when it already had an answer (two answers at once: one wins). */
export async function answerQuestion(tx: Db, questionId: string, answer: string, now: Date): Promise<QuestionRow | null> {
  const [row] = await tx
    .update(taskQuestions)
    .set({ answer, answeredAt: now })
    .where(and(eq(taskQuestions.id, questionId), isNull(taskQuestions.answer)))
    .returning();
  return row ?? null;
}

export async function setQuestionHidden(tx: Db, questionId: string, hiddenAt: Date | null): Promise<void> {
  await tx.update(taskQuestions).set({ hiddenAt }).where(eq(taskQuestions.id, questionId));
}

/** The task's questions, oldest first, with each asker's public name; hidden ones only when `withHidden`. */
export async function listQuestions(db: Db, taskId: string, withHidden: boolean): Promise<TaskQuestion[]> {
  const rows = await db
    .select({ question: taskQuestions, firstName: users.firstName, lastName: users.lastName })
    .from(taskQuestions)
    .innerJoin(users, eq(users.id, taskQuestions.askerId))
    .where(and(eq(taskQuestions.taskId, taskId), withHidden ? undefined : isNull(taskQuestions.hiddenAt)))
    .orderBy(asc(taskQuestions.createdAt), asc(taskQuestions.id));
  return rows.map(({ question: q, ...name }) => ({
    id: q.id,
    taskId: q.taskId,
    body: q.body,
    answer: q.answer,
    answeredAt: q.answeredAt?.toISOString() ?? null,
    hidden: q.hiddenAt !== null,
    createdAt: q.createdAt.toISOString(),
    asker: { id: q.askerId, displayName: displayName(name) },
  }));
}
