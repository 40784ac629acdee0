import { toast } from "@/components/ui/use-toast";
import { ApiError, errorMessage, goToLogin, isUnauthorizedError } from "@/lib/api";
import { useTaskAction, type TaskAction } from "../api/transition-task";

// The toasts of spec §8 around each task action, so the job board and the task page say the same.

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

export function useClaimTask(isAuthenticated: boolean) {
  const mutation = useTaskAction();
  const claim = (id: string) => {
    if (!isAuthenticated) {
      toast({ title: "Sign in required", description: "Please sign in to claim tasks", variant: "destructive" });
      goToLogin();
      return;
    }
    mutation.mutate(
      { id, action: "claim" },
      {
        onSuccess: () => toast({ title: "Task claimed successfully!" }),
        onError: (error) => {
          if (isUnauthorizedError(error)) {
            toast({ title: "Unauthorized", description: "Please sign in to claim tasks", variant: "destructive" });
            redirectToLoginSoon();
            return;
          }
          toast({
            title: "Error",
            description: refusalMessage(error) ?? "Failed to claim task. Please try again.",
            variant: "destructive",
          });
        },
      },
    );
  };
  return { claim, pendingId: mutation.isPending ? mutation.variables.id : null };
}

/** Start, Complete and Cancel: spec §8 "Task update". */
export function useUpdateTask() {
  const mutation = useTaskAction();
  const update = (id: string, action: Exclude<TaskAction, "claim" | "reactivate">) =>
    mutation.mutate(
      { id, action },
      {
        onSuccess: () => toast({ title: "Task updated successfully!" }),
        onError: (error) => {
          if (isUnauthorizedError(error)) {
            toast({ title: "Unauthorized", description: "Please sign in to perform this action", variant: "destructive" });
            redirectToLoginSoon();
            return;
          }
          toast({
            title: "Error",
            description: refusalMessage(error) ?? "Failed to update task. Please try again.",
            variant: "destructive",
          });
        },
      },
    );
  return { update, pendingAction: mutation.isPending ? mutation.variables.action : null };
}

export function useReactivateTask() {
  const mutation = useTaskAction();
  const reactivate = (id: string) =>
    mutation.mutate(
      { id, action: "reactivate" },
      {
        onSuccess: () =>
          toast({ title: "Task Reactivated", description: "Your task is now available for providers to claim again." }),
        onError: (error) =>
          toast({
            title: "Failed to Reactivate",
            description: errorMessage(error, "Could not reactivate task"),
            variant: "destructive",
          }),
      },
    );
  return { reactivate, isPending: mutation.isPending };
}
