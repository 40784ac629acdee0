import { notificationPreview } from "../../../shared/chat-text.js";
import type { AppContext } from "../../context.js";
import { sendNotice } from "../../declared-notices.js";
import type { TaskEventPayload } from "../../transition-actions.js";

// The questions feature's actions (docs/decisions/083-every-consequence-in-its-row.md): the notices of
// the question_asked and question_answered events (src/shared/task-events.ts), as their rows declare.

function parts(event: TaskEventPayload): Required<Pick<TaskEventPayload, "task" | "question">> {
  if (!event.task || !event.question) throw new Error(`${event.event} ran without its task and question`);
  return { task: event.task, question: event.question };
}

export function registerQuestionActions(ctx: AppContext): void {
  ctx.taskEventActions.handle("notify.poster_question_asked", async (event) => {
    const { task, question } = parts(event);
    await sendNotice(ctx, event.tx, "notify.poster_question_asked", "poster", {
      userId: task.userId,
      title: "A new question on your task",
      body: `A provider asked about "${task.title}": "${notificationPreview(question.text)}" Answer it on the task page; everyone can read the answer.`,
      taskId: event.taskId,
    });
  });
  ctx.taskEventActions.handle("notify.asker_question_answered", async (event) => {
    const { task, question } = parts(event);
    await sendNotice(ctx, event.tx, "notify.asker_question_answered", "asker", {
      userId: question.askerId,
      title: "Your question was answered",
      body: `The poster of "${task.title}" answered your question: "${notificationPreview(question.text)}" Read it on the task page.`,
      taskId: event.taskId,
    });
  });
}
