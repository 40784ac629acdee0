import { toast } from "@/components/ui/use-toast";
import { ApiError, errorMessage, goToLogin, isUnauthorizedError } from "@/lib/api";
import { useTaskAction, type TaskAction } from "../api/transition-task";
import type { TaskActionButton } from "../components/task-actions";

// The toasts (docs/product.md#web-app) around each task action, so the job board and the task page say the same.

const LOGIN_REDIRECT_DELAY_MS = 500;

function redirectToLoginSoon() {
  window.setTimeout(() => {
    window.location.href = "/api/login";
  }, LOGIN_REDIRECT_DELAY_MS);
}

/** A refusal the server explained (403 not allowed, 409 state changed) is worth showing as is. */
function refusalMessage(error: unknown): string | null {
  return error instanceof ApiError && (error.status === 403 || error.status === 409) ? error.serverMessage : null;
}

interface Toasts {
  success: { title: string; description?: string };
  /** After a 401: the session ended since the page loaded. */
  signedOut: string;
  failure: (error: unknown) => { title: string; description: string };
}

const update = (error: unknown) => ({ title: "Error", description: refusalMessage(error) ?? "Failed to update task. Please try again." });

const TOASTS: Record<TaskAction, Toasts> = {
  claim: {
    success: { title: "Task claimed successfully!" },
    signedOut: "Please sign in to claim tasks",
    failure: (error) => ({ title: "Error", description: refusalMessage(error) ?? "Failed to claim task. Please try again." }),
  },
  start: { success: { title: "Task updated successfully!" }, signedOut: "Please sign in to perform this action", failure: update },
  complete: { success: { title: "Task updated successfully!" }, signedOut: "Please sign in to perform this action", failure: update },
  cancel: { success: { title: "Task updated successfully!" }, signedOut: "Please sign in to perform this action", failure: update },
  decline: {
    success: { title: "Provider Declined", description: "Your task is open again for other providers to claim." },
    signedOut: "Please sign in to perform this action",
    failure: update,
  },
  reactivate: {
    success: { title: "Task Reactivated", description: "Your task is now available for providers to claim again." },
    signedOut: "Please sign in to perform this action",
    failure: (error) => ({ title: "Failed to Reactivate", description: errorMessage(error, "Could not reactivate task") }),
  },
  withdraw: {
    success: { title: "You withdrew", description: "The poster was refunded in full and the task is back on the job board." },
    signedOut: "Please sign in to perform this action",
    failure: update,
  },
  release_claim: {
    success: { title: "Claim released", description: "The task is back on the job board for other providers." },
    signedOut: "Please sign in to perform this action",
    failure: update,
  },
  accept_request: {
    success: { title: "Request accepted", description: "The task is yours. You can start once the poster pays." },
    signedOut: "Please sign in to perform this action",
    failure: update,
  },
  decline_request: {
    success: { title: "Request declined", description: "The poster was told, and the task is open to every provider." },
    signedOut: "Please sign in to perform this action",
    failure: update,
  },
  decline_request_cancel: {
    success: { title: "Request declined", description: "The poster was told, and the task was cancelled." },
    signedOut: "Please sign in to perform this action",
    failure: update,
  },
  cancel_request: { success: { title: "Task updated successfully!" }, signedOut: "Please sign in to perform this action", failure: update },
};

/** The failure toast of any task action: a 401 also sends the person to sign in. */
export function toastFailure(action: TaskAction, error: unknown): void {
  if (isUnauthorizedError(error)) {
    toast({ title: "Unauthorized", description: TOASTS[action].signedOut, variant: "destructive" });
    redirectToLoginSoon();
    return;
  }
  toast({ ...TOASTS[action].failure(error), variant: "destructive" });
}

export function toastSuccess(action: TaskAction): void {
  toast(TOASTS[action].success);
}

/** Runs a task button of taskActionButtons(); `pending` is the action in flight, if any. */
export function useTaskActions() {
  const mutation = useTaskAction();
  const run = (id: string, button: TaskActionButton) => {
    if (button.signInMessage !== null) {
      toast({ title: "Sign in required", description: button.signInMessage, variant: "destructive" });
      goToLogin();
      return;
    }
    mutation.mutate({ id, action: button.name }, { onSuccess: () => toastSuccess(button.name), onError: (error) => toastFailure(button.name, error) });
  };
  return { run, pending: mutation.isPending ? mutation.variables : null };
}
