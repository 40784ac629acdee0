import { Clock, RotateCcw } from "lucide-react";
import { useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useState } from "react";
import { Link, useParams } from "wouter";
import { DECLINED_PROVIDER_MESSAGE, TASK_CONDITIONS } from "@shared/task-lifecycle";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PersonAvatar } from "@/components/ui/person-avatar";
import { LoadingRegion, Skeleton, SkeletonText } from "@/components/ui/skeleton";
import { TaskChatPanel } from "@/features/chat/components/task-chat-panel";
import { AskFelixButton } from "@/features/felix/components/ask-felix-button";
import type { OfferList } from "@shared/offers";
import type { StatementViewer } from "@shared/statement-words";
import type { TaskDetail } from "@shared/tasks";
import { useOffers } from "@/features/offers/api/get-offers";
import { useDisputeOpen } from "@/features/payments/api/get-task-dispute";
import { useTaskAccount } from "@/features/payments/hooks/use-task-account";
import { TaskPaymentForm } from "@/features/payments/components/task-payment-form";
import { useDeclinedTasks } from "@/features/tasks/api/get-declined-tasks";
import { tasksBaseKey, useTask } from "@/features/tasks/api/get-task";
import { ClaimedByCard } from "@/features/tasks/components/claimed-by-card";
import { TaskAreaMap } from "@/features/tasks/components/task-area-map";
import { PosterRating } from "@/features/tasks/components/poster-rating";
import { PaymentCountdown } from "@/features/tasks/components/payment-countdown";
import { PaymentRequiredCard } from "@/features/tasks/components/payment-required-card";
import { TaskActionButton } from "@/features/tasks/components/task-action-button";
import { TaskCategoryBadge, TaskEscrowBadge, TaskStatusBadge, TaskUrgencyBadge } from "@/features/tasks/components/task-badges";
import { posterOwesPayment, taskActionButtons } from "@/features/tasks/components/task-actions";
import { relativeTime, taskFelixContext } from "@/features/tasks/components/task-format";
import { TaskLocation, TaskPaymentBox, TaskSchedule } from "@/features/tasks/components/task-info";
import { useTaskActions } from "@/features/tasks/hooks/use-task-actions";
import { useTaskViewer, type PageViewer } from "@/features/tasks/hooks/use-task-viewer";
import { useRenderTime } from "@/lib/hydration";
import { bookAgainPath, userProfilePath } from "@/lib/profile-path";
import { TaskUnavailable } from "@/features/tasks/components/task-unavailable";
import { useDocumentTitle } from "@/features/site/hooks/use-document-title";
import { BackLink } from "../layout/back-link";

// Only tasks that take offers show them; the form and its schema load with that section.
const TaskOffers = lazy(() => import("@/features/offers/components/task-offers").then((m) => ({ default: m.TaskOffers })));
// Shown only to the task's people and only in some states, each with its own form code: loaded
// when shown, so the task page's first load stays within its budget (docs/benchmarks.md).
const TaskDisputePanel = lazy(() => import("@/features/payments/components/task-dispute").then((m) => ({ default: m.TaskDisputePanel })));
const EditTaskButton = lazy(() => import("@/features/tasks/components/edit-task-button").then((m) => ({ default: m.EditTaskButton })));
// Only a requested task shows it (decision 065): its own chunk, out of every other task's first load.
const TaskRequestNote = lazy(() => import("@/features/tasks/components/task-request-note").then((m) => ({ default: m.TaskRequestNote })));
// ...and only a task whose request ended shows its outcome to the poster (decision 082).
const TaskRequestOutcome = lazy(() => import("@/features/tasks/components/task-request-note").then((m) => ({ default: m.TaskRequestOutcome })));
// The requested provider's decline takes an optional reason: its button and dialog load with it.
const DeclineRequestButton = lazy(() => import("@/features/tasks/components/decline-request-button").then((m) => ({ default: m.DeclineRequestButton })));
const ReportButton = lazy(() => import("@/features/moderation/components/report-button").then((m) => ({ default: m.ReportButton })));
// Public questions: their list and forms load after the task, for everyone (docs/product.md, Public questions).
const TaskQuestions = lazy(() => import("@/features/questions/components/task-questions").then((m) => ({ default: m.TaskQuestions })));
// The payment card's table and buttons, only where money moved (its words load with them, in
// use-task-account.ts); the reviews, only on a completed task.
const TaskEscrowActions = lazy(() => import("@/features/payments/components/task-escrow-actions").then((m) => ({ default: m.TaskEscrowActions })));
const TaskReviews = lazy(() => import("@/features/reviews/components/task-reviews").then((m) => ({ default: m.TaskReviews })));
// A claimed task's time card (decision 074) is only its two people's, with its own forms and clocks.
const TaskTimeCard = lazy(() => import("@/features/calendar/components/task-time-card").then((m) => ({ default: m.TaskTimeCard })));
import { TaskPhotosSection } from "../task-photos";

/** Whether the signed-in provider may have had an offer on this task that was not chosen. */
function mayBePassedOver(task: TaskDetail | undefined, viewer: PageViewer | null): boolean {
  const provider = viewer?.role === "provider" || viewer?.role === "both";
  return task !== undefined && provider && task.hiringMode === "offers" && task.status !== "open" && task.status !== "requested" && viewer?.id !== task.userId && viewer?.id !== task.providerId;
}

/**
 * Whose money the reader sees on this task: the poster's, the provider's, an admin's, a passed-over
 * offerer's, or none; undefined while a provider's own offers, which tell, are loading.
 */
function accountViewer(task: TaskDetail | undefined, viewer: PageViewer | null, offers: OfferList | undefined): StatementViewer | null | undefined {
  if (!task || !viewer) return null;
  if (viewer.id === task.userId) return { role: "poster" };
  if (viewer.id === task.providerId) return { role: "provider", id: viewer.id };
  if (viewer.isAdmin) return { role: "admin" };
  if (mayBePassedOver(task, viewer) && offers === undefined) return undefined;
  const passedOver = offers?.offers.some((offer) => offer.provider.id === viewer.id && (offer.status === "closed" || offer.status === "accepted"));
  return mayBePassedOver(task, viewer) && passedOver ? { role: "passed_over" } : null;
}

function BackButton() {
  return <BackLink fallback="/job-board" />;
}

/**
 * The task page while its task loads: the page's own column and the card's sections in their
 * sizes, so the task takes their place without moving anything (a full-width spinner box made
 * desktop CLS 0.13).
 */
function TaskDetailSkeleton() {
  const heading = (
    <p className="text-lg font-semibold">
      <SkeletonText className="w-28" />
    </p>
  );
  return (
    <LoadingRegion label="Loading task..." className="mx-auto max-w-4xl px-4 py-8 sm:px-6">
      <Skeleton className="mb-4 h-9 w-20" />
      <Card>
        <CardHeader className="gap-3">
          <div className="flex gap-2">
            <Skeleton className="h-[22px] w-14 rounded-full" />
            <Skeleton className="h-[22px] w-24 rounded-full" />
            <Skeleton className="h-[22px] w-16 rounded-full" />
          </div>
          <p className="text-2xl font-bold tracking-tight sm:text-3xl">
            <SkeletonText className="w-2/3" />
          </p>
          <p className="text-sm">
            <SkeletonText className="w-40" />
          </p>
          <div className="flex items-center gap-3 text-sm">
            <Skeleton className="size-10 rounded-full" />
            <div className="grid gap-0.5">
              <p>
                <SkeletonText className="w-36" />
              </p>
              <p>
                <SkeletonText className="w-24" />
              </p>
            </div>
          </div>
        </CardHeader>
        <CardContent className="grid gap-6">
          <div className="grid gap-2">
            {heading}
            <p>
              <SkeletonText className="w-full" />
              <br />
              <SkeletonText className="w-4/5" />
            </p>
          </div>
          <div className="grid gap-2">
            {heading}
            <p className="text-sm">
              <SkeletonText className="w-32" />
            </p>
            <Skeleton className="h-48 w-full rounded-lg" />
          </div>
          <div className="grid gap-2">
            {heading}
            <Skeleton className="h-28 w-full" />
          </div>
        </CardContent>
      </Card>
    </LoadingRegion>
  );
}

/** The task page (/task/{id} and /tasks/{id}; docs/product.md#task-states). */
export default function TaskDetailPage() {
  const { id = "" } = useParams<{ id: string }>();
  const { viewer } = useTaskViewer();
  const task = useTask(id, viewer);
  const now = useRenderTime();
  const { run, pending } = useTaskActions();
  const declined = useDeclinedTasks(viewer?.role === "provider" || viewer?.role === "both");
  const disputeOpen = useDisputeOpen(task.data, viewer);
  // The poster accepted an offer here: the payment card comes into view when it appears (issue 41).
  const [acceptedHere, setAcceptedHere] = useState(false);
  // The task's money as one account, worded for this reader (docs/decisions/073): a provider whose
  // offer was not chosen learns it from their own offer, closed when another was accepted.
  const ownOffers = useOffers(id, mayBePassedOver(task.data, viewer));
  const account = useTaskAccount(task.data, accountViewer(task.data, viewer, ownOffers.data));
  const queryClient = useQueryClient();
  // The same title the server wrote into the page for this task (src/server/features/seo/head.ts).
  useDocumentTitle(task.data?.title ?? (task.isError ? "Task not found" : null));

  if (task.isLoading) return <TaskDetailSkeleton />;
  if (!task.data) return <TaskUnavailable error={task.error} onRetry={() => void task.refetch()} />;

  const t = task.data;
  const isOwner = viewer?.id === t.userId;
  const isProvider = viewer?.role === "provider" || viewer?.role === "both";
  // Every button, its state and its reason come from the shared transition table.
  const buttons = taskActionButtons(t, viewer, now, disputeOpen);
  // While the poster owes the claim's payment, the payment card replaces the poster's own buttons.
  const ownerMustPay = posterOwesPayment(t, viewer?.id ?? null, now);
  const reactivate = buttons.find((b) => b.name === "reactivate");
  // Declining sits on the card of the provider it declines.
  const decline = buttons.find((b) => b.name === "decline");
  // A provider the poster declined may not claim this task again; the server refuses it too (decision 024).
  const declinedYou = t.status === "open" && declined.has(t.id);
  const rowButtons = buttons.filter(
    (b) => b !== reactivate && b !== decline && !(ownerMustPay && b.actor === "poster") && !(declinedYou && b.name === "claim"),
  );
  // Providers read their take-home pay, not what the poster pays (docs/product.md, Fees).
  const providerView = viewer !== null && !isOwner && (viewer.id === t.providerId || isProvider);
  // Start waits for the poster's payment: the assigned provider is told so, with the time left.
  const waitingForPayment = buttons.some((b) => b.name === "start" && b.blockedBy === "paid");
  const pendingHere = pending?.id === t.id ? pending.action : null;

  return (
    <div className="mx-auto max-w-4xl px-4 py-8 sm:px-6">
      <BackButton />
      <div className="grid gap-6">
        <Card>
          <CardHeader className="gap-3">
            <div className="flex flex-wrap gap-2">
              <TaskStatusBadge status={t.status} settlement={t.visibility === "private" ? t.settlement : null} />
              <TaskCategoryBadge category={t.category} />
              <TaskUrgencyBadge urgency={t.urgency} />
              <TaskEscrowBadge badge={account.words?.badge} />
            </div>
            <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t.title}</h1>
            <p className="flex flex-wrap items-center gap-x-2 text-sm text-muted-foreground">
              <Clock className="size-4" aria-hidden="true" />
              <span>Posted {relativeTime(t.createdAt, now)}</span>
              {t.editedAt && <span>· Edited {relativeTime(t.editedAt, now)}</span>}
              {viewer && !isOwner ? (
                <Suspense fallback={null}>
                  <ReportButton targetType="task" targetId={t.id} what="this task" />
                </Suspense>
              ) : null}
            </p>
            <div className="flex items-center gap-3 text-sm">
              <PersonAvatar name={t.poster.displayName} photoUrl={t.poster.photoUrl} className="size-10" />
              <div className="grid min-w-0 gap-0.5">
                <span className="[overflow-wrap:anywhere]">
                  Posted by{" "}
                  <Link href={userProfilePath(t.poster.id)} className="font-medium hover:underline">
                    {t.poster.displayName}
                  </Link>
                </span>
                <span className="text-muted-foreground">
                  <PosterRating rating={t.poster.rating} reviewCount={t.poster.reviewCount} />
                </span>
              </div>
            </div>
          </CardHeader>
          <CardContent className="grid gap-6">
            <section className="grid gap-2">
              <h2 className="text-lg font-semibold">Description</h2>
              <p className="whitespace-pre-line">{t.description}</p>
            </section>
            <TaskPhotosSection task={t} canEdit={isOwner && t.status === "open"} />
            <section className="grid gap-2">
              <h2 className="text-lg font-semibold">Location</h2>
              <TaskLocation task={t} isPoster={isOwner} />
              <TaskAreaMap task={t} />
            </section>
            {t.scheduledDate && (
              <section className="grid gap-2">
                <h2 className="text-lg font-semibold">Scheduled</h2>
                <TaskSchedule scheduledDate={t.scheduledDate} />
              </section>
            )}
            <section className="grid gap-2">
              <h2 className="text-lg font-semibold">Payment</h2>
              <TaskPaymentBox task={t} providerView={providerView} account={providerView ? account.words : null} accountPending={providerView && account.pending} />
            </section>

            <section aria-label="Task actions" className="flex flex-wrap items-center gap-2">
              {declinedYou && (
                <p role="status" className="w-full text-sm font-medium">
                  {DECLINED_PROVIDER_MESSAGE}
                </p>
              )}
              {t.status === "requested" && (
                <Suspense fallback={null}>
                  <TaskRequestNote task={t} isPoster={isOwner} />
                </Suspense>
              )}
              {/* The payment card says an accepted request itself while the poster owes the payment. */}
              {isOwner && t.requestOutcome !== null && !ownerMustPay && (
                <Suspense fallback={null}>
                  <TaskRequestOutcome task={t} />
                </Suspense>
              )}
              {rowButtons.map((button) =>
                button.name === "decline_request" || button.name === "decline_request_cancel" ? (
                  <Suspense key={button.name} fallback={null}>
                    <DeclineRequestButton taskId={t.id} action={button.name} button={button} disabled={!button.enabled || pending !== null} />
                  </Suspense>
                ) : (
                  <TaskActionButton
                    key={button.name}
                    task={t}
                    button={button}
                    onRun={() => run(t.id, button)}
                    pending={pendingHere === button.name}
                    disabled={!button.enabled || pending !== null}
                  />
                ),
              )}
              {/* docs/product.md, Requesting a provider: the same task again, from the same provider. */}
              {isOwner && t.status === "completed" && t.provider && (
                <Button asChild variant="outline">
                  <Link href={bookAgainPath(t.id)}>Book Again</Link>
                </Button>
              )}
              {isOwner && t.status === "open" && t.visibility === "private" && (
                <Suspense fallback={null}>
                  <EditTaskButton task={t} />
                </Suspense>
              )}
              {isProvider && !isOwner && t.status === "open" && !declinedYou && (
                <AskFelixButton mode="evaluate" context={taskFelixContext(t)} />
              )}
              {rowButtons.map((button) =>
                button.disabledReason ? (
                  <p key={button.name} className="w-full text-sm text-muted-foreground">
                    {button.disabledReason}
                  </p>
                ) : null,
              )}
              {/* Cancel Task is gone once work starts: say where the way out went (docs/product.md, Late cancellation). */}
              {isOwner && t.status === "in_progress" && !disputeOpen && (
                <p className="w-full text-sm text-muted-foreground">
                  The work has started, so the task can no longer be cancelled. To ask for your money back, use Report a Problem below.
                </p>
              )}
            </section>
          </CardContent>
        </Card>

        {/* A claimed task's time between its two people: "on my way", a new time, a late provider (decision 074). */}
        {t.status === "claimed" && t.scheduledDate && viewer && (viewer.id === t.userId || viewer.id === t.providerId) && (
          <Suspense fallback={null}>
            <TaskTimeCard task={t} viewer={viewer} now={now} onChanged={() => queryClient.invalidateQueries({ queryKey: tasksBaseKey })} />
          </Suspense>
        )}

        {t.hiringMode === "offers" && t.status === "open" && viewer && (
          <Suspense fallback={null}>
            <TaskOffers
              task={t}
              isPoster={isOwner}
              canOffer={!isOwner && viewer.providerVerified && !declinedYou}
              providerCard={(provider, title, actions) => <ClaimedByCard provider={provider} title={title} actions={actions} />}
              felix={(offer) => <AskFelixButton mode="evaluate" subject="offer" context={{ ...taskFelixContext(t), offerPrice: offer.price }} />}
              felixForPrice={(price) => <AskFelixButton mode="evaluate" subject="my-offer" context={{ ...taskFelixContext(t), offerPrice: price }} />}
              onAccepted={() => setAcceptedHere(true)}
            />
          </Suspense>
        )}

        <Suspense fallback={null}>
          <TaskQuestions
            task={t}
            isPoster={isOwner}
            isAdmin={viewer?.isAdmin === true}
            canAsk={!isOwner && Boolean(viewer?.providerVerified)}
            report={
              viewer
                ? (question) =>
                    question.asker.id === viewer.id ? null : (
                      <Suspense fallback={null}>
                        <ReportButton compact targetType="question" targetId={question.id} what={`the question by ${question.asker.displayName}`} />
                      </Suspense>
                    )
                : undefined
            }
          />
        </Suspense>

        {/* The claimer's card is the poster's (and admins') decision aid: pay or decline (docs/product.md). */}
        {t.provider && (isOwner || viewer?.isAdmin) && (
          <ClaimedByCard
            provider={t.provider}
            // A provider the poster chose (an offer, a request) did not claim: "Claimed by" is for a claim.
            title={t.status === "claimed" && TASK_CONDITIONS.claimed_by_provider(t, now) ? "Claimed by" : isOwner ? "Your provider" : "Provider"}
            actions={
              decline ? (
                <div className="grid gap-2">
                  <p className="text-sm text-muted-foreground">
                    Not the right fit? You can decline this provider until you pay; your task goes back on the job board.
                  </p>
                  <div>
                    <TaskActionButton
                      task={t}
                      button={decline}
                      onRun={() => run(t.id, decline)}
                      pending={pendingHere === "decline"}
                      disabled={!decline.enabled || pending !== null}
                    />
                  </div>
                </div>
              ) : undefined
            }
          />
        )}

        {ownerMustPay && (
          <PaymentRequiredCard task={t} bringIntoView={acceptedHere}>
            <TaskPaymentForm task={t} />
          </PaymentRequiredCard>
        )}

        {waitingForPayment && (
          <Alert role="status" variant="info">
            <AlertTitle>Waiting for Payment</AlertTitle>
            <AlertDescription>
              The customer has been asked to pay. You can start once the payment is held in escrow.
              {t.paymentDeadline && (
                <>
                  {" "}
                  Time left: <PaymentCountdown deadline={t.paymentDeadline} />
                </>
              )}
            </AlertDescription>
          </Alert>
        )}

        {reactivate && (
          <Card className="border-destructive">
            <CardHeader>
              <CardTitle asChild className="text-xl">
                <h2>Payment Expired</h2>
              </CardTitle>
              <CardDescription>
                The payment window closed and the provider was released. Reactivate the task so providers can claim it again.
              </CardDescription>
            </CardHeader>
            <CardContent>
              <Button onClick={() => run(t.id, reactivate)} disabled={!reactivate.enabled || pending !== null}>
                <RotateCcw aria-hidden="true" /> {pendingHere === "reactivate" ? reactivate.pendingLabel : reactivate.label}
              </Button>
            </CardContent>
          </Card>
        )}

        {account.escrow && (account.words !== null || account.pending) && (
          <Suspense fallback={null}>
            <TaskEscrowActions task={t} account={account} />
          </Suspense>
        )}
        {t.paymentCapturedAt !== null && viewer && (
          <Suspense fallback={null}>
            <TaskDisputePanel task={t} />
          </Suspense>
        )}
        {t.status === "completed" && (
          <Suspense fallback={null}>
            <TaskReviews
              task={t}
              report={(review) => (
                <Suspense fallback={null}>
                  <ReportButton compact targetType="review" targetId={review.id} what={`the review by ${review.reviewerName}`} />
                </Suspense>
              )}
            />
          </Suspense>
        )}
        <TaskChatPanel
          task={t}
          closedLine={account.words?.closedLine ?? null}
          closedLinePending={account.pending}
          reportMessage={(message) => (
            <Suspense fallback={null}>
              <ReportButton compact targetType="message" targetId={message.id} what="this message" />
            </Suspense>
          )}
        />
      </div>
    </div>
  );
}
