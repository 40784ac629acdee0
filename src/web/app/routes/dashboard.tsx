import { useQueryClient } from "@tanstack/react-query";
import { Briefcase, ClipboardList, Home, Plus } from "lucide-react";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { Link, useLocation, useSearchParams } from "wouter";
import { Button } from "@/components/ui/button";
import { LoadingRegion } from "@/components/ui/skeleton";
import { DeferredDialog, deferredPart } from "@/components/ui/deferred-dialog";
import { toast } from "@/components/ui/use-toast";
import { PayoutAlert } from "@/features/payments/components/payout-alert";
import { providerProfileQueryKey, useProviderProfile } from "@/features/providers/api/get-provider-profile";
import { VerificationAlert } from "@/features/providers/components/verification-alert";
import { useMyJobs } from "@/features/tasks/api/get-my-jobs";
import { useMyTasks } from "@/features/tasks/api/get-my-tasks";
import { DashboardTaskCard, DashboardTaskCardSkeleton } from "@/features/tasks/components/dashboard-task-card";
import { POST_TASK_RETURN_PARAM } from "@/features/tasks/components/post-task-return";
import {
  canUseView,
  initialDashboardView,
  VIEW_MODE_STORAGE_KEY,
  type DashboardView,
} from "@/features/tasks/components/task-format";
import { userQueryKey } from "@/lib/current-user";
import { useSignedInUser } from "../protected-route";

function storedView(): string | null {
  try {
    return window.localStorage.getItem(VIEW_MODE_STORAGE_KEY);
  } catch {
    return null; // Storage blocked (private mode): fall back to the role's default.
  }
}

/** Return from payout onboarding (?setup=success or ?error=...; docs/product.md#money). */
function usePayoutReturn() {
  const [params] = useSearchParams();
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const handled = useRef(false);
  const setup = params.get("setup");
  const error = params.get("error");
  useEffect(() => {
    if (handled.current || (setup !== "success" && error === null)) return;
    handled.current = true;
    if (setup === "success") {
      toast({ title: "Payouts Set Up", description: "Your payout account is ready." });
      void queryClient.invalidateQueries({ queryKey: userQueryKey });
      void queryClient.invalidateQueries({ queryKey: providerProfileQueryKey });
    } else {
      toast({
        title: "Error",
        description: error === "stripe_error" ? "There was an error setting up your account. Please try again." : "An error occurred.",
        variant: "destructive",
      });
    }
    // A reload must not repeat the toast.
    navigate("/dashboard", { replace: true });
  }, [setup, error, navigate, queryClient]);
}

function LoadingCards() {
  return (
    <LoadingRegion label="Loading tasks..." className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {[0, 1, 2].map((n) => (
        <DashboardTaskCardSkeleton key={n} />
      ))}
    </LoadingRegion>
  );
}

// The Post a Task wizard (react-hook-form, zod, the Radix dialog, select and radio groups) is its own
// chunk, fetched when the pointer or focus reaches its button and shown at the press, as on the
// landing page (issue 17, docs/decisions/041-forms-loaded-on-first-use.md).
const postTaskDialog = deferredPart(() => import("../post-task-dialog"), (m) => m.PostTaskDialogWithFelix);
// "Request" and "Book again" arrive with ?request= or ?again=: what they read and prefill is its own chunk.
const PrefilledPosting = lazy(() => import("../prefilled-posting"));

/** The dashboard (/dashboard; docs/product.md#roles). */
export default function DashboardPage() {
  const user = useSignedInUser();
  const [chosenView, setChosenView] = useState<DashboardView | null>(null);
  const [params, setParams] = useSearchParams();
  // "?post=task": back from signing in again with the Post a Task draft (docs/product.md#post-a-task-draft).
  // "Request" and "Book again" open the wizard prefilled (docs/product.md, Requesting a provider).
  const requestId = params.get("request");
  const againId = params.get("again");
  // Kept once read: posting or closing the wizard drops ?request=/?again= from the address (so a
  // reload or Back does not open the same request again), while the wizard stays open for its photo step.
  const [prefillFrom, setPrefillFrom] = useState<{ requestId: string | null; againId: string | null } | null>(null);
  if ((requestId || againId) && (prefillFrom?.requestId !== requestId || prefillFrom.againId !== againId)) setPrefillFrom({ requestId, againId });
  const dropPrefillParams = () =>
    setParams(
      (current) => {
        current.delete("request");
        current.delete("again");
        return current;
      },
      { replace: true },
    );
  usePayoutReturn();

  const view = chosenView ?? initialDashboardView(user.role, storedView());
  const tasks = useMyTasks(view === "user");
  const jobs = useMyJobs(view === "provider");

  const choose = (next: DashboardView) => {
    setChosenView(next);
    if (user.role === "both" || user.role === "provider") {
      try {
        window.localStorage.setItem(VIEW_MODE_STORAGE_KEY, next);
      } catch {
        // Storage blocked: the choice lasts for this visit only.
      }
    }
  };
  const list = view === "user" ? tasks : jobs;
  const profile = useProviderProfile(true);

  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <h1 className="text-3xl font-bold tracking-tight">My Dashboard</h1>
        <nav aria-label="Dashboard" className="flex gap-2">
          <Button asChild variant="outline" size="sm">
            <Link href="/">
              <Home aria-hidden="true" /> Home
            </Link>
          </Button>
          <Button asChild variant="outline" size="sm">
            <Link href="/job-board">
              <Briefcase aria-hidden="true" /> Job Board
            </Link>
          </Button>
        </nav>
      </div>

      {/* The alerts wait for the provider profile, and everything below waits with them: alerts
          that appeared above the view buttons and the list pushed them down (CLS 0.21 at 390 px). */}
      {profile.isLoading ? (
        <div className="mt-6">
          <LoadingCards />
        </div>
      ) : (
        <>
          <div className="mt-6 grid gap-4">
            <VerificationAlert />
            <PayoutAlert />
          </div>

          <div className="mt-6 flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
            <div className="inline-flex rounded-md border p-1" role="group" aria-label="Dashboard view">
              <Button
                variant={view === "user" ? "default" : "ghost"}
                size="sm"
                aria-pressed={view === "user"}
                disabled={!canUseView(user.role, "user")}
                onClick={() => choose("user")}
              >
                <ClipboardList aria-hidden="true" /> My Tasks
              </Button>
              <Button
                variant={view === "provider" ? "default" : "ghost"}
                size="sm"
                aria-pressed={view === "provider"}
                disabled={!canUseView(user.role, "provider")}
                onClick={() => choose("provider")}
              >
                <Briefcase aria-hidden="true" /> My Jobs
              </Button>
            </div>
            <DeferredDialog
              part={postTaskDialog}
              initiallyOpen={params.get(POST_TASK_RETURN_PARAM) === "task"}
              trigger={
                <Button>
                  <Plus aria-hidden="true" /> Post a Task
                </Button>
              }
            >
              {(overlay) => <postTaskDialog.Component open={overlay.open} onOpenChange={overlay.setOpen} onCloseAutoFocus={overlay.returnFocus} />}
            </DeferredDialog>
          </div>

          <section className="mt-6" aria-labelledby="dashboard-list-title">
            <h2 id="dashboard-list-title" className="mb-4 text-2xl font-semibold">
              {view === "user" ? "Tasks I Posted" : "Jobs I'm Working On"}
            </h2>
            {list.isLoading ? (
              <LoadingCards />
            ) : list.isError ? (
              <p className="text-destructive">Could not load your tasks. Please refresh the page.</p>
            ) : (list.data ?? []).length === 0 ? (
              <p className="rounded-lg border bg-card p-8 text-center text-muted-foreground">
                {view === "user" ? "You haven't posted any tasks yet" : "You haven't claimed any tasks yet"}
              </p>
            ) : (
              <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
                {(list.data ?? []).map((task) => (
                  <DashboardTaskCard key={task.id} task={task} viewerId={user.id} />
                ))}
              </div>
            )}
          </section>
        </>
      )}
      {prefillFrom ? (
        <Suspense fallback={null}>
          <PrefilledPosting requestId={prefillFrom.requestId} againId={prefillFrom.againId} onPosted={dropPrefillParams} onClosed={dropPrefillParams} />
        </Suspense>
      ) : null}
    </div>
  );
}
