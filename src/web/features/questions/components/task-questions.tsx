import type { AnswerQuestionBody, AskQuestionBody, TaskQuestion } from "@shared/questions";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/use-toast";
import { errorMessage } from "@/lib/api";
import { timeAgo } from "@/lib/dates";
import { useRenderTime } from "@/lib/hydration";
import { lazyResolver } from "@/lib/lazy-resolver";
import { useSchemaForm } from "@/lib/schema-form";
import { useQuestions } from "../api/get-questions";
import { useAnswerQuestion, useAskQuestion, useHideQuestion } from "../api/question-mutations";

// Public questions on a task (docs/product.md, Public questions; docs/decisions/063-public-questions.md):
// everyone reads them; a verified provider other than the poster asks while the task is open; the
// poster answers each once and hides or shows them, as admins may. The forms' schemas load at
// their first check, so a visitor's page never loads zod for a list it only reads.

const loadResolvers = () => import("./question-resolvers");
const askResolver = lazyResolver<AskQuestionBody>(() => loadResolvers().then((m) => m.askResolver));
const answerResolver = lazyResolver<AnswerQuestionBody>(() => loadResolvers().then((m) => m.answerResolver));

/** Why some words show as "[hidden: phone]": said under every box that takes a question or an answer. */
const MASKING_NOTE = "Phone numbers, e-mail addresses and links are hidden, to keep payment on Errandly.";

export interface TaskQuestionsProps {
  task: { id: string; status: string };
  /** The poster's view: an Answer form under each unanswered question, and Hide/Show. */
  isPoster: boolean;
  /** An admin: Hide/Show on every question. */
  isAdmin: boolean;
  /** A verified provider other than the poster: the "Ask a question" form while the task is open. */
  canAsk: boolean;
}

export function TaskQuestions({ task, isPoster, isAdmin, canAsk }: TaskQuestionsProps) {
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
              <QuestionItem key={question.id} taskId={task.id} question={question} canAnswer={isPoster && open} canHide={isPoster || isAdmin} />
            ))}
          </ul>
        )}
        {canAsk && open ? <AskQuestionForm taskId={task.id} /> : null}
      </CardContent>
    </Card>
  );
}

function QuestionItem({ taskId, question, canAnswer, canHide }: { taskId: string; question: TaskQuestion; canAnswer: boolean; canHide: boolean }) {
  const now = useRenderTime();
  const hide = useHideQuestion(taskId);
  return (
    <li className="grid gap-2 rounded-md border p-3" data-testid="task-question">
      <p className="text-sm text-muted-foreground">
        <span className="font-medium text-foreground">{question.asker.displayName}</span> asked{" "}
        <time dateTime={question.createdAt}>{timeAgo(new Date(question.createdAt), now)}</time>
        {question.hidden ? <span className="font-medium text-foreground"> · Hidden from everyone but you</span> : null}
      </p>
      <p className="whitespace-pre-line break-words">{question.body}</p>
      {question.answer !== null ? (
        <div className="ml-3 border-l-2 pl-3">
          <p className="text-sm font-medium">Poster's answer</p>
          <p className="whitespace-pre-line break-words">{question.answer}</p>
        </div>
      ) : canAnswer ? (
        <AnswerForm taskId={taskId} questionId={question.id} />
      ) : (
        <p className="text-sm text-muted-foreground">Not answered yet.</p>
      )}
      {canHide ? (
        <div>
          <Button
            variant="outline"
            size="sm"
            disabled={hide.isPending}
            onClick={() =>
              hide.mutate(
                { questionId: question.id, hide: !question.hidden },
                { onError: (error) => toast({ title: "Could not change the question", description: errorMessage(error, "Please try again."), variant: "destructive" }) },
              )
            }
          >
            {question.hidden ? "Show question" : "Hide question"}
          </Button>
        </div>
      ) : null}
    </li>
  );
}

function AskQuestionForm({ taskId }: { taskId: string }) {
  const ask = useAskQuestion(taskId);
  const form = useSchemaForm<AskQuestionBody>({ resolver: askResolver, defaultValues: { body: "" } });
  const submit = form.handleSubmit((body) =>
    ask.mutate(body, {
      onSuccess: () => {
        form.reset({ body: "" });
        toast({ title: "Question posted", description: "The poster has been told; you will be told when they answer." });
      },
      onError: (error) => {
        const rest = form.showServerErrors(error, "Your question was not posted. Please try again.");
        if (rest) toast({ title: "Question not posted", description: rest, variant: "destructive" });
      },
    }),
  );
  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="grid gap-3">
      <FormField label="Ask a question" required error={form.formState.errors.body?.message} description={`Everyone can read questions and answers. ${MASKING_NOTE}`}>
        <Textarea rows={3} {...form.register("body")} />
      </FormField>
      <div>
        <Button type="submit" disabled={ask.isPending}>
          {ask.isPending ? "Posting..." : "Post question"}
        </Button>
      </div>
    </form>
  );
}

function AnswerForm({ taskId, questionId }: { taskId: string; questionId: string }) {
  const answer = useAnswerQuestion(taskId, questionId);
  const form = useSchemaForm<AnswerQuestionBody>({ resolver: answerResolver, defaultValues: { answer: "" } });
  const submit = form.handleSubmit((body) =>
    answer.mutate(body, {
      onSuccess: () => toast({ title: "Answer posted", description: "Everyone can read it, and the provider who asked has been told." }),
      onError: (error) => {
        const rest = form.showServerErrors(error, "Your answer was not posted. Please try again.");
        if (rest) toast({ title: "Answer not posted", description: rest, variant: "destructive" });
      },
    }),
  );
  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="grid gap-2">
      <FormField label="Your answer" required error={form.formState.errors.answer?.message} description={MASKING_NOTE}>
        <Textarea rows={2} {...form.register("answer")} />
      </FormField>
      <div>
        <Button type="submit" size="sm" disabled={answer.isPending}>
          {answer.isPending ? "Posting..." : "Post answer"}
        </Button>
      </div>
    </form>
  );
}
