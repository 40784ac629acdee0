import { zodResolver } from "@hookform/resolvers/zod";
import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";
import { useWatch } from "react-hook-form";
import { z } from "zod";
import { FELIX_AUTO_SEND_DELAY_MS } from "@shared/constants";
import { fairRange } from "@shared/felix-pricing";
import { felixRequestSchema, type FelixChatMessage, type FelixContext, type FelixMode, type FelixResponse } from "@shared/felix";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/use-toast";
import { cn } from "@/lib/cn";
import { maxLengthOf } from "@/lib/form";
import { useSchemaForm } from "@/lib/schema-form";
import { useAskFelix } from "../api/ask-felix";
import { EvaluationCard } from "./evaluation-card";
import { DIALOG_TITLES, TROUBLE_MESSAGE, autoMessage, greeting, helperText, lowerBudgetQuestion, usd, type FelixSubject } from "./felix-copy";
import { PricingBreakdownDialog } from "./pricing-breakdown-dialog";

// A question as the server accepts it (src/shared/felix.ts): trimmed, not empty, bounded.
const questionSchema = z.object({ message: felixRequestSchema.shape.message });
type QuestionInput = z.input<typeof questionSchema>;
type QuestionValues = z.output<typeof questionSchema>;
const NO_QUESTION: QuestionInput = { message: "" };

export interface AskFelixDialogProps {
  mode: FelixMode;
  /** What an evaluation judges: the task's budget (default), an offer its poster reads, or the provider's own price. */
  subject?: FelixSubject;
  context: FelixContext;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where focus goes when the dialog closes: back to the button that opened it (deferred-dialog.tsx). */
  onCloseAutoFocus: (event: Event) => void;
  onApplyBudget?: (dollars: number) => void;
}

export function AskFelixDialog({ mode, subject = "task", context, open, onOpenChange, onCloseAutoFocus, onApplyBudget }: AskFelixDialogProps) {
  const [messages, setMessages] = useState<FelixChatMessage[]>([]);
  const [result, setResult] = useState<FelixResponse | null>(null);
  // The poster's answer to Felix's question about the size of the work, sent with every later
  // question of this conversation (docs/product.md#felix); the server stores nothing.
  const [workAnswer, setWorkAnswer] = useState<FelixContext["workAnswer"]>(null);
  const workAnswerRef = useRef<FelixContext["workAnswer"]>(null);
  const questionRef = useRef<FelixResponse["work"]>(null);
  // "Use $X" below the typed budget asks before lowering it.
  const [confirmLower, setConfirmLower] = useState(false);
  const question = useSchemaForm<QuestionInput, QuestionValues>({ resolver: zodResolver(questionSchema), defaultValues: NO_QUESTION });
  const { reset: resetQuestion } = question;
  const input = useWatch({ control: question.control, name: "message" });
  const [breakdownOpen, setBreakdownOpen] = useState(false);
  const ask = useAskFelix();
  const { mutateAsync, reset } = ask;
  // A ref, not isPending alone: two Enter presses in one frame must not send twice.
  const inFlight = useRef(false);
  const [pending, setPending] = useState(false);
  // Each opening is a conversation; an answer arriving after the dialog closed is dropped.
  const conversation = useRef(0);
  // The latest context for sends and the greeting, without restarting the open effect on each keystroke.
  const contextRef = useRef(context);
  useEffect(() => {
    contextRef.current = context;
  }, [context]);
  const listRef = useRef<HTMLDivElement>(null);

  const send = useCallback(
    async (text: string) => {
      const message = text.trim();
      if (message === "" || inFlight.current) return;
      const current = conversation.current;
      inFlight.current = true;
      setPending(true);
      resetQuestion(NO_QUESTION);
      setMessages((list) => [...list, { role: "user", content: message }]);
      // A message right after Felix's question is its answer.
      const asked = questionRef.current?.question;
      if (asked) {
        workAnswerRef.current = { question: asked, text: message.slice(0, 200) };
        setWorkAnswer(workAnswerRef.current);
      }
      try {
        const response = await mutateAsync({ message, context: { ...contextRef.current, workAnswer: workAnswerRef.current }, mode });
        if (current !== conversation.current) return;
        setMessages((list) => [...list, { role: "assistant", content: response.reply }]);
        setResult(response);
        questionRef.current = response.work;
        setConfirmLower(false);
      } catch {
        if (current !== conversation.current) return;
        setMessages((list) => [...list, { role: "assistant", content: TROUBLE_MESSAGE }]);
        toast({ title: "Connection Error", description: "Unable to reach Felix. Please try again.", variant: "destructive" });
      } finally {
        if (current === conversation.current) {
          inFlight.current = false;
          setPending(false);
        }
      }
    },
    [mode, mutateAsync, resetQuestion],
  );

  // On open: the greeting, then Felix's automatic question (docs/product.md#felix) after 600 ms when the task has enough.
  useEffect(() => {
    if (!open) return;
    setMessages([{ role: "assistant", content: greeting(mode, contextRef.current, subject) }]);
    const auto = autoMessage(mode, contextRef.current, subject);
    if (!auto) return;
    const timer = window.setTimeout(() => void send(auto), FELIX_AUTO_SEND_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [open, mode, subject, send]);

  useEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [messages, pending]);

  const close = (next: boolean) => {
    if (next) return onOpenChange(true);
    conversation.current += 1;
    inFlight.current = false;
    setPending(false);
    setMessages([]);
    setResult(null);
    workAnswerRef.current = null;
    questionRef.current = null;
    setWorkAnswer(null);
    setConfirmLower(false);
    resetQuestion(NO_QUESTION);
    setBreakdownOpen(false);
    reset();
    onOpenChange(false);
  };

  const apply = (dollars: number, confirmed = false) => {
    if (!confirmed && lowerBudgetQuestion(dollars, contextRef.current.offeredBudget)) {
      setConfirmLower(true);
      return;
    }
    onApplyBudget?.(dollars);
    toast({ title: "Budget Set", description: `Felix's recommendation of ${usd(dollars)} has been applied.` });
    close(false);
  };

  // The typed question goes through the server's schema; an empty one is simply not sent.
  const submitQuestion = (event?: FormEvent) => question.handleSubmit(({ message }) => send(message))(event);

  const suggestion = result?.suggestedBudget ?? null;
  const breakdown = result?.pricingBreakdown ?? null;
  const lowerQuestion = suggestion !== null && confirmLower ? lowerBudgetQuestion(suggestion, context.offeredBudget) : null;

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent className="max-w-xl" onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>{DIALOG_TITLES[mode]}</DialogTitle>
          <DialogDescription>{helperText(mode, subject)}</DialogDescription>
        </DialogHeader>

        <div
          ref={listRef}
          role="log"
          aria-label="Conversation with Felix"
          aria-live="polite"
          // Focusable so keyboard users can scroll a long conversation.
          tabIndex={0}
          className="flex max-h-[400px] flex-col gap-3 overflow-y-auto rounded-md border bg-muted/40 p-3 focus-visible:outline-hidden focus-visible:ring-2 focus-visible:ring-ring"
        >
          {messages.map((m, i) => (
            <div
              key={i}
              className={cn(
                "max-w-[85%] rounded-lg px-3 py-2 text-sm whitespace-pre-line",
                m.role === "user" ? "self-end bg-primary text-primary-foreground" : "self-start border bg-card text-card-foreground",
              )}
            >
              <span className="sr-only">{m.role === "user" ? "You: " : "Felix: "}</span>
              {m.content}
            </div>
          ))}
          {pending ? (
            <div role="status" className="self-start rounded-lg border bg-card px-3 py-2 text-sm text-muted-foreground">
              <span className="inline-flex gap-1" aria-hidden="true">
                <span className="size-1.5 animate-bounce rounded-full bg-muted-foreground" />
                <span className="size-1.5 animate-bounce rounded-full bg-muted-foreground [animation-delay:150ms]" />
                <span className="size-1.5 animate-bounce rounded-full bg-muted-foreground [animation-delay:300ms]" />
              </span>
              <span className="ml-2">Felix is typing...</span>
            </div>
          ) : null}
        </div>

        {result?.evaluation ? <EvaluationCard evaluation={result.evaluation} market={result.market} pricing={breakdown} subject={subject} /> : null}

        {breakdown && result?.work ? (
          <p className="text-sm text-muted-foreground">
            Fair range {usd(fairRange(breakdown).low)} to {usd(fairRange(breakdown).high)}: {result.work.quantityFrom}.{workAnswer ? ` Your answer: "${workAnswer.text}".` : ""}
          </p>
        ) : null}

        {breakdown || (mode === "recommend" && suggestion !== null && onApplyBudget) ? (
          <div className="flex flex-wrap items-center justify-between gap-2">
            {breakdown ? (
              <Button variant="link" className="h-auto px-0" onClick={() => setBreakdownOpen(true)}>
                See how we calculate this
              </Button>
            ) : null}
            {mode === "recommend" && suggestion !== null && onApplyBudget && !lowerQuestion ? (
              <Button onClick={() => apply(suggestion)}>Use {usd(suggestion)} as My Budget</Button>
            ) : null}
          </div>
        ) : null}

        {lowerQuestion && suggestion !== null ? (
          <div role="alertdialog" aria-label="Lower your budget?" aria-describedby="felix-lower-question" className="rounded-md border border-warning bg-card p-3 text-sm">
            <p id="felix-lower-question">{lowerQuestion}</p>
            <div className="mt-2 flex flex-wrap justify-end gap-2">
              <Button variant="outline" onClick={() => setConfirmLower(false)}>
                Keep {usd(context.offeredBudget ?? suggestion)}
              </Button>
              <Button onClick={() => apply(suggestion, true)}>Lower to {usd(suggestion)}</Button>
            </div>
          </div>
        ) : null}

        <form className="flex items-end gap-2" noValidate onSubmit={(event) => void submitQuestion(event)}>
          <Label htmlFor="felix-message" className="sr-only">
            Message Felix
          </Label>
          <Textarea
            id="felix-message"
            rows={2}
            className="min-h-11 resize-none"
            placeholder="Ask Felix about the budget..."
            maxLength={maxLengthOf(questionSchema.shape.message)}
            onKeyDown={(event) => {
              // Enter sends; Shift+Enter is a new line; never mid-composition (IME).
              if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
                event.preventDefault();
                void submitQuestion();
              }
            }}
            {...question.register("message")}
          />
          <Button type="submit" disabled={pending || input.trim() === ""}>
            Send
          </Button>
        </form>
        {breakdown ? <PricingBreakdownDialog breakdown={breakdown} open={breakdownOpen} onOpenChange={setBreakdownOpen} /> : null}
      </DialogContent>
    </Dialog>
  );
}
