import { zodResolver } from "@hookform/resolvers/zod";
import { lazy, Suspense, useState } from "react";
import { useWatch } from "react-hook-form";
import type { z } from "zod";
import {
  DISPUTE_REASON_LABELS,
  disputeMessageBodySchema,
  resolveDisputeBodySchema,
  type ResolveDisputeBody,
  type TaskDispute,
  type TaskDisputeAnswer,
} from "@shared/disputes";
import { disputeSplit, dollarsToCents, formatDollarsExact } from "@shared/money";
import type { TaskDetail } from "@shared/tasks";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmActionDialog } from "@/components/ui/confirm-action-dialog";
import { DeferredDialog, deferredPart } from "@/components/ui/deferred-dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/use-toast";
import { useUser } from "@/lib/current-user";
import { formatDate } from "@/lib/dates";
import { maxLengthOf } from "@/lib/form";
import { useSchemaForm } from "@/lib/schema-form";
import { useAnswerDispute } from "../api/answer-dispute";
import { mayReadDispute, useTaskDispute } from "../api/get-task-dispute";
import { useResolveDispute } from "../api/resolve-dispute";

// "Report a problem" on a paid task, its thread, and an admin's split (docs/product.md, Money:
// disputes). The report form is its own chunk, fetched when the pointer or focus reaches its button
// (docs/decisions/041-forms-loaded-on-first-use.md).
const reportDialog = deferredPart(() => import("./report-problem-dialog"), (m) => m.ReportProblemDialog);
// The answer's photo picker is its own chunk too, fetched only while a dispute is open.
const DisputePhotoPicker = lazy(() => import("./dispute-photo-picker").then((m) => ({ default: m.DisputePhotoPicker })));

type ResolveDisputeValues = z.output<typeof resolveDisputeBodySchema>;

const money = (dollars: number) => formatDollarsExact(dollarsToCents(dollars));

/** What happens to the money while a new report waits for an admin. */
function moneyNote(held: number): string {
  return held > 0
    ? `${money(held)} stays held in escrow until an admin decides.`
    : "The payment was already released; if an admin decides in the poster's favour, Errandly's guarantee pays the refund.";
}

/**
 * A party's side, with photos; or, for an admin who is not a party, a note to both people, shown in
 * the thread as Errandly support (the server takes it as the admin acting on the dispute). An admin
 * has no side to give (issue 41).
 */
function AnswerForm({ taskId, asAdmin }: { taskId: string; asAdmin: boolean }) {
  const form = useSchemaForm<{ body: string; photoURLs?: string[] }>({ resolver: zodResolver(disputeMessageBodySchema), defaultValues: { body: "" }, mode: "onChange" });
  const answer = useAnswerDispute(taskId);
  const [files, setFiles] = useState<File[]>([]);
  const submit = form.handleSubmit(({ body }) =>
    answer.mutate({ body, files }, {
      onSuccess: () => {
        form.reset({ body: "" });
        setFiles([]);
      },
      onError: (error) => {
        const rest = form.showServerErrors(error, "Failed to send your answer.");
        if (rest) toast({ title: "Error", description: rest, variant: "destructive" });
      },
    }),
  );
  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="grid gap-2">
      <FormField
        label={asAdmin ? "Note to both people" : "Your side"}
        description={asAdmin ? "Shown in the thread as Errandly support, e.g. to ask either of them for details or photos before you decide." : undefined}
        error={form.formState.errors.body?.message}
      >
        <Textarea rows={3} maxLength={maxLengthOf(disputeMessageBodySchema.shape.body)} {...form.register("body")} />
      </FormField>
      {asAdmin ? null : (
        <Suspense fallback={null}>
          <DisputePhotoPicker files={files} onChange={setFiles} error={form.formState.errors.photoURLs?.message} />
        </Suspense>
      )}
      <div>
        <Button type="submit" variant="secondary" disabled={!form.formState.isValid || answer.isPending}>
          {answer.isPending ? "Sending..." : asAdmin ? "Send note" : "Send"}
        </Button>
      </div>
    </form>
  );
}

/**
 * The shared body schema, and while the escrow holds money, a refund of at most what it holds (the
 * server refuses more too, disputes.ts): said under the field as it is typed.
 */
function resolveFormSchema(heldCents: number | null) {
  if (heldCents === null) return resolveDisputeBodySchema;
  return resolveDisputeBodySchema.extend({
    refund: resolveDisputeBodySchema.shape.refund.refine((dollars) => dollarsToCents(dollars) <= heldCents, {
      error: `The refund can be at most ${formatDollarsExact(heldCents)}, what the escrow holds.`,
    }),
  });
}

/**
 * An admin's split: the poster's refund in dollars; the rest of the escrow is released. The
 * confirmation states both amounts from disputeSplit, the function the server records them with.
 */
function ResolveForm({ task, held }: { task: TaskDetail; held: number }) {
  const taskId = task.id;
  const most = held > 0 ? dollarsToCents(held) : null;
  const form = useSchemaForm<ResolveDisputeBody, ResolveDisputeValues>({
    resolver: zodResolver(resolveFormSchema(most)),
    defaultValues: { refund: undefined, reason: "", recoverFromProvider: false },
    mode: "onChange",
  });
  const resolve = useResolveDispute();
  const values = useWatch({ control: form.control });
  const refundCents = Number.isFinite(values.refund) ? dollarsToCents(values.refund ?? 0) : 0;
  const recover = values.recoverFromProvider === true;
  // The pro-rata rule on the share fixed when the task was priced, as the server records it.
  const split = most !== null ? disputeSplit({ providerShareCents: dollarsToCents(task.providerShare) }, most, refundCents) : null;
  const lines =
    split !== null
      ? [
          `${formatDollarsExact(split.refundCents)} is refunded to the poster.`,
          `The provider receives ${formatDollarsExact(split.providerShareCents)} of the ${formatDollarsExact(split.releaseCents)} released; Errandly keeps ${formatDollarsExact(split.releaseCents - split.providerShareCents)} in fees.`,
        ]
      : [`${formatDollarsExact(refundCents)} is refunded to the poster from Errandly's guarantee.`, recover ? "The same amount is taken from the provider's next payouts; they are told." : "Nothing is taken from the provider."];
  const { errors } = form.formState;
  const submit = form.handleSubmit((body) =>
    resolve.mutate(
      { taskId, ...body },
      {
        onSuccess: () => toast({ title: "Dispute Resolved", description: lines[0] }),
        onError: (error) => {
          const rest = form.showServerErrors(error, "Failed to resolve the dispute.");
          if (rest) toast({ title: "Error", description: rest, variant: "destructive" });
        },
      },
    ),
  );
  return (
    <div className="grid gap-3 rounded-md border p-3">
      <h3 className="font-semibold">Resolve as admin</h3>
      <div className="grid items-start gap-3 sm:grid-cols-2">
        <FormField
          label="Refund to the poster ($)"
          description={most !== null ? `The escrow holds ${formatDollarsExact(most)}.` : "The money was already released."}
          error={errors.refund?.message}
        >
          <Input type="number" inputMode="decimal" min={0} step="0.01" {...form.register("refund", { valueAsNumber: true })} />
        </FormField>
      </div>
      {/* The whole reason stays readable as it is typed: both people read it as the decision's why. */}
      <FormField label="Reason shown to both" error={errors.reason?.message}>
        <Textarea rows={3} maxLength={maxLengthOf(resolveDisputeBodySchema.shape.reason)} {...form.register("reason")} />
      </FormField>
      {most === null && (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" {...form.register("recoverFromProvider")} /> Recover it from the provider's next payouts
        </label>
      )}
      <div>
        <ConfirmActionDialog
          trigger={<Button disabled={!form.formState.isValid || resolve.isPending}>{resolve.isPending ? "Resolving..." : "Resolve dispute"}</Button>}
          title="Resolve this dispute?"
          lines={[...lines, "Both people are told the amounts and your reason."]}
          confirmLabel="Yes, resolve"
          onConfirm={() => void submit()}
        />
      </div>
    </div>
  );
}

function Thread({ dispute }: { dispute: TaskDispute }) {
  return (
    <ol className="grid gap-2" aria-label="Dispute thread">
      {dispute.messages.map((message) => (
        <li key={message.id} className="rounded-md bg-muted p-3 text-sm">
          <p className="font-medium">
            {message.authorName} <span className="font-normal text-muted-foreground">({message.authorRole}) · {formatDate(new Date(message.createdAt), "MMM d, h:mm a")}</span>
          </p>
          <p className="whitespace-pre-wrap break-words">{message.body}</p>
          {message.photos.length > 0 && (
            <ul className="mt-2 flex flex-wrap gap-2" aria-label={`Photos from the ${message.authorRole}`}>
              {message.photos.map((photo, i) => (
                <li key={photo.id}>
                  {/* The full-size image in a new tab; it is served only to the two parties and admins. */}
                  <a href={photo.medium} target="_blank" rel="noopener" className="block rounded-md focus-visible:outline-hidden focus-visible:ring-2 focus-visible:ring-ring">
                    <img src={photo.small} alt={`Photo ${i + 1} from the ${message.authorRole}, open full size`} width={80} height={80} loading="lazy" className="size-20 rounded-md border object-cover" />
                  </a>
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ol>
  );
}

function DisputeCard({ task, answer, viewer }: { task: TaskDetail; answer: TaskDisputeAnswer & { dispute: TaskDispute }; viewer: { id: string; isAdmin: boolean } }) {
  const { dispute } = answer;
  const open = dispute.status === "open";
  const isParty = viewer.id === task.userId || viewer.id === task.providerId;
  return (
    <Card data-testid="dispute-card">
      <CardHeader>
        <CardTitle asChild className="flex flex-wrap items-center gap-2 text-xl">
          <h2>
            Reported problem <Badge variant={open ? "destructive" : "secondary"}>{open ? "Open" : "Resolved"}</Badge>
          </h2>
        </CardTitle>
        <CardDescription>
          Reported by the {dispute.openedByRole}: {DISPUTE_REASON_LABELS[dispute.reason]}.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <p className="font-medium" data-testid="dispute-money">
          {dispute.moneyNow}
        </p>
        {dispute.resolution && <p className="text-sm">Admin's reason: {dispute.resolution.reason}</p>}
        <Thread dispute={dispute} />
        {open && <AnswerForm taskId={task.id} asAdmin={!isParty} />}
        {open && viewer.isAdmin && <ResolveForm task={task} held={answer.held} />}
        {answer.canReport && <ReportButton taskId={task.id} held={answer.held} />}
      </CardContent>
    </Card>
  );
}

function ReportButton({ taskId, held }: { taskId: string; held: number }) {
  return (
    <DeferredDialog part={reportDialog} trigger={<Button variant="outline">Report a Problem</Button>}>
      {(overlay) => <reportDialog.Component overlay={overlay} taskId={taskId} moneyNote={moneyNote(held)} />}
    </DeferredDialog>
  );
}

/** On a paid task, for its poster, its provider and admins: report a problem, or the dispute's thread. */
export function TaskDisputePanel({ task }: { task: TaskDetail }) {
  const { user } = useUser();
  const mayAsk = (t: TaskDetail) => mayReadDispute(t, user);
  const visible = mayAsk(task);
  const query = useTaskDispute(task.id, visible, mayAsk);
  if (!visible || !user || !query.data) return null;
  const answer = query.data;
  if (answer.dispute) return <DisputeCard task={task} answer={{ ...answer, dispute: answer.dispute }} viewer={user} />;
  if (!answer.canReport) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild className="text-xl">
          <h2>Something wrong?</h2>
        </CardTitle>
        <CardDescription>Either of you can report a problem until 72 hours after completion. {moneyNote(answer.held)}</CardDescription>
      </CardHeader>
      <CardContent>
        <ReportButton taskId={task.id} held={answer.held} />
      </CardContent>
    </Card>
  );
}
