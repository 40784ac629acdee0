import { lazy, Suspense, type ReactNode } from "react";
import type { TaskQuestion } from "@shared/questions";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { timeAgo } from "@/lib/dates";
import { useRenderTime } from "@/lib/hydration";
import { useQuestions } from "../api/get-questions";

// Public questions on a task (docs/product.md, Public questions; docs/decisions/063-public-questions.md):
// everyone reads them; a verified provider other than the poster asks while the task is open; the
// poster answers each once and hides or shows them, as admins may. The forms and buttons load only
// for those who get them (question-forms.tsx), so a visitor's page loads the list alone (budget).

const loadForms = () => import("./question-forms");
const AskQuestionForm = lazy(() => loadForms().then((m) => ({ default: m.AskQuestionForm })));
const AnswerForm = lazy(() => loadForms().then((m) => ({ default: m.AnswerForm })));
const HideQuestionButton = lazy(() => loadForms().then((m) => ({ default: m.HideQuestionButton })));

export interface TaskQuestionsProps {
  task: { id: string; status: string };
  /** The poster's view: an Answer form under each unanswered question, and Hide/Show. */
  isPoster: boolean;
  /** An admin: Hide/Show on every question. */
  isAdmin: boolean;
  /** A verified provider other than the poster: the "Ask a question" form while the task is open. */
  canAsk: boolean;
  /** The Report flag beside a question, for a signed-in reader (the page brings moderation's button). */
  report?: ((question: TaskQuestion) => ReactNode) | undefined;
}

export function TaskQuestions({ task, isPoster, isAdmin, canAsk, report }: TaskQuestionsProps) {
  const questions = useQuestions(task.id);
  const list = questions.data?.questions ?? [];
  const open = task.status === "open";
  // A task past open with no questions has nothing to show here.
  if (!open && list.length === 0) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild className="text-xl">
          <h2>Questions</h2>
        </CardTitle>
        <CardDescription>
          {open ? "Providers ask here before they commit; the poster's answers are public." : "Questions asked while the task was open."}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {questions.isLoading ? null : list.length === 0 ? (
          <p className="text-sm text-muted-foreground">No questions yet.{canAsk ? " Ask the poster anything about the task below." : ""}</p>
        ) : (
          <ul className="grid gap-4">
            {list.map((question) => (
              <QuestionItem
                key={question.id}
                taskId={task.id}
                question={question}
                canAnswer={isPoster && open}
                canHide={isPoster || isAdmin}
                report={report?.(question)}
              />
            ))}
          </ul>
        )}
        {canAsk && open ? (
          <Suspense fallback={null}>
            <AskQuestionForm taskId={task.id} />
          </Suspense>
        ) : null}
      </CardContent>
    </Card>
  );
}

interface QuestionItemProps {
  taskId: string;
  question: TaskQuestion;
  canAnswer: boolean;
  canHide: boolean;
  report: ReactNode;
}

function QuestionItem({ taskId, question, canAnswer, canHide, report }: QuestionItemProps) {
  const now = useRenderTime();
  return (
    <li className="grid gap-2 rounded-md border p-3" data-testid="task-question">
      <div className="flex items-start justify-between gap-2">
        <p className="text-sm text-muted-foreground">
          <span className="font-medium text-foreground">{question.asker.displayName}</span> asked{" "}
          <time dateTime={question.createdAt}>{timeAgo(new Date(question.createdAt), now)}</time>
          {question.hidden ? <span className="font-medium text-foreground"> · Hidden from everyone but you</span> : null}
        </p>
        {report}
      </div>
      <p className="whitespace-pre-line break-words">{question.body}</p>
      {question.answer !== null ? (
        <div className="ml-3 border-l-2 pl-3">
          <p className="text-sm font-medium">Poster's answer</p>
          <p className="whitespace-pre-line break-words">{question.answer}</p>
        </div>
      ) : canAnswer ? (
        <Suspense fallback={null}>
          <AnswerForm taskId={taskId} questionId={question.id} />
        </Suspense>
      ) : (
        <p className="text-sm text-muted-foreground">Not answered yet.</p>
      )}
      {canHide ? (
        <Suspense fallback={null}>
          <HideQuestionButton taskId={taskId} question={question} />
        </Suspense>
      ) : null}
    </li>
  );
}
