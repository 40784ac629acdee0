import { ArrowLeft, Clock, CreditCard, RotateCcw } from "lucide-react";
import { Link, useParams } from "wouter";
import { availableTransitions } from "@shared/task-lifecycle";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { TaskChatPanel } from "@/features/chat/components/task-chat-panel";
import { AskFelixButton } from "@/features/felix/components/ask-felix-button";
import { TaskEscrowActions } from "@/features/payments/components/task-escrow-actions";
import { TaskPaymentForm } from "@/features/payments/components/task-payment-form";
import { TaskReviews } from "@/features/reviews/components/task-reviews";
import { useTask } from "@/features/tasks/api/get-task";
import { PosterRating } from "@/features/tasks/components/job-card";
import { PaymentCountdown } from "@/features/tasks/components/payment-countdown";
import { TaskCategoryBadge, TaskStatusBadge, TaskUrgencyBadge } from "@/features/tasks/components/task-badges";
import { relativeTime, taskFelixContext } from "@/features/tasks/components/task-format";
import { TaskLocation, TaskPaymentBox, TaskSchedule } from "@/features/tasks/components/task-info";
import { useClaimTask, useReactivateTask, useUpdateTask } from "@/features/tasks/hooks/use-task-actions";
import { useTaskViewer } from "@/features/tasks/hooks/use-task-viewer";

function BackButton() {
  return (
    <Button asChild variant="ghost" size="sm" className="mb-4">
      <Link href="/">
        <ArrowLeft aria-hidden="true" /> Back
      </Link>
    </Button>
  );
}

/** Spec §2 Task detail (/task/{id} and /tasks/{id}). */
export default function TaskDetailPage() {
  const { id = "" } = useParams<{ id: string }>();
  const task = useTask(id);
  const { viewer } = useTaskViewer();
  const { claim, pendingId } = useClaimTask(viewer !== null);
  const { update, pendingAction } = useUpdateTask();
  const { reactivate, isPending: reactivating } = useReactivateTask();

  if (task.isLoading) {
    // The page's own column, so React turns this very element into the task card's container
    // without moving it (a full-width spinner box made desktop CLS 0.13).
    return (
      <div className="mx-auto flex min-h-[50vh] max-w-4xl items-center justify-center px-4 py-8 sm:px-6">
        <Spinner label="Loading task..." />
      </div>
    );
  }
  if (!task.data) {
    return (
      <div className="mx-auto max-w-4xl px-4 py-8 sm:px-6">
        <BackButton />
        <h1 className="text-2xl font-bold">Task not found</h1>
      </div>
    );
  }

  const t = task.data;
  const now = new Date();
  const actions = availableTransitions(t, viewer, now);
  const isOwner = viewer?.id === t.userId;
  const isAssigned = viewer !== null && t.providerId === viewer.id;
  const unpaidClaim = t.status === "claimed" && t.paymentCapturedAt === null;
  // Spec §4: while the claim is unpaid the owner sees the payment card instead of the buttons.
  const ownerMustPay = isOwner && unpaidClaim;
  const showClaim = t.status === "open" && !isOwner && (viewer === null || actions.includes("claim"));
  const isProvider = viewer?.role === "provider" || viewer?.role === "both";

  return (
    <div className="mx-auto max-w-4xl px-4 py-8 sm:px-6">
      <BackButton />
      <div className="grid gap-6">
        <Card>
          <CardHeader className="gap-3">
            <div className="flex flex-wrap gap-2">
              <TaskStatusBadge status={t.status} />
              <TaskCategoryBadge category={t.category} />
              <TaskUrgencyBadge urgency={t.urgency} />
            </div>
            <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t.title}</h1>
            <p className="flex flex-wrap items-center gap-x-2 text-sm text-muted-foreground">
              <Clock className="size-4" aria-hidden="true" />
              <span>Posted {relativeTime(t.createdAt)}</span>
              <span>
                by {t.poster.firstName} {t.poster.lastName}
              </span>
              <PosterRating rating={t.poster.rating} reviewCount={t.poster.reviewCount} />
            </p>
          </CardHeader>
          <CardContent className="grid gap-6">
            <section className="grid gap-2">
              <h2 className="text-lg font-semibold">Description</h2>
              <p className="whitespace-pre-line">{t.description}</p>
            </section>
            <section className="grid gap-2">
              <h2 className="text-lg font-semibold">Location</h2>
              <TaskLocation task={t} />
            </section>
            {t.scheduledDate && (
              <section className="grid gap-2">
                <h2 className="text-lg font-semibold">Scheduled</h2>
                <TaskSchedule scheduledDate={t.scheduledDate} />
              </section>
            )}
            <section className="grid gap-2">
              <h2 className="text-lg font-semibold">Payment</h2>
              <TaskPaymentBox task={t} />
            </section>

            <section aria-label="Task actions" className="flex flex-wrap items-center gap-2">
              {showClaim && (
                <Button onClick={() => claim(t.id)} disabled={pendingId === t.id}>
                  {pendingId === t.id ? "Claiming..." : "Claim Task"}
                </Button>
              )}
              {isProvider && !isOwner && t.status === "open" && (
                <AskFelixButton mode="evaluate" context={taskFelixContext(t)} />
              )}
              {isAssigned && t.status === "claimed" && (
                <Button onClick={() => update(t.id, "start")} disabled={!actions.includes("start") || pendingAction !== null}>
                  {pendingAction === "start" ? "Starting..." : "Start Task"}
                </Button>
              )}
              {actions.includes("complete") && (
                <Button onClick={() => update(t.id, "complete")} disabled={pendingAction !== null}>
                  {pendingAction === "complete" ? "Completing..." : "Mark Complete"}
                </Button>
              )}
              {actions.includes("cancel") && !ownerMustPay && (
                <Button variant="destructive" onClick={() => update(t.id, "cancel")} disabled={pendingAction !== null}>
                  {pendingAction === "cancel" ? "Cancelling..." : "Cancel Task"}
                </Button>
              )}
              {isAssigned && unpaidClaim && (
                <p className="w-full text-sm text-muted-foreground">Waiting for customer payment to start work</p>
              )}
            </section>
          </CardContent>
        </Card>

        {ownerMustPay && (
          <Card className="border-warning">
            <CardHeader>
              <CardTitle asChild className="flex items-center gap-2 text-xl">
                <h2>
                  <CreditCard className="size-5" aria-hidden="true" /> Payment Required
                </h2>
              </CardTitle>
              <CardDescription>
                A provider claimed your task. Pay to confirm it; the money is held in escrow until the work is done.
              </CardDescription>
            </CardHeader>
            <CardContent className="grid gap-4">
              {t.paymentDeadline && (
                <p className="text-sm">
                  Time left to pay: <PaymentCountdown deadline={t.paymentDeadline} />
                </p>
              )}
              <TaskPaymentForm task={t} />
            </CardContent>
          </Card>
        )}

        {isAssigned && unpaidClaim && (
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

        {isOwner && t.status === "payment_expired" && (
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
              <Button onClick={() => reactivate(t.id)} disabled={reactivating || !actions.includes("reactivate")}>
                <RotateCcw aria-hidden="true" /> {reactivating ? "Reactivating..." : "Reactivate Task"}
              </Button>
            </CardContent>
          </Card>
        )}

        <TaskEscrowActions task={t} />
        <TaskReviews task={t} />
        <TaskChatPanel task={t} />
      </div>
    </div>
  );
}
