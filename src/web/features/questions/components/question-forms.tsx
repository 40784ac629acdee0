import type { AnswerQuestionBody, AskQuestionBody, TaskQuestion } from "@shared/questions";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/use-toast";
import { errorMessage } from "@/lib/api";
import { lazyResolver } from "@/lib/lazy-resolver";
import { useSchemaForm } from "@/lib/schema-form";
import { useAnswerQuestion, useAskQuestion, useHideQuestion } from "../api/question-mutations";

// The task page's question forms and the Hide/Show button (task-questions.tsx loads them for the
// people who get them). The forms' schemas load at their first check, so zod waits for a form's use.

const loadResolvers = () => import("./question-resolvers");
const askResolver = lazyResolver<AskQuestionBody>(() => loadResolvers().then((m) => m.askResolver));
const answerResolver = lazyResolver<AnswerQuestionBody>(() => loadResolvers().then((m) => m.answerResolver));

/** Why some words show as "[hidden: phone]": said under every box that takes a question or an answer. */
const MASKING_NOTE = "Phone numbers, e-mail addresses and links are hidden, to keep payment on Errandly.";

export function HideQuestionButton({ taskId, question }: { taskId: string; question: TaskQuestion }) {
  const hide = useHideQuestion(taskId);
  return (
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
  );
}

export function AskQuestionForm({ taskId }: { taskId: string }) {
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

export function AnswerForm({ taskId, questionId }: { taskId: string; questionId: string }) {
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
