import { Button } from "@/components/ui/button";
import { DeferredDialog, deferredPart } from "@/components/ui/deferred-dialog";
import { ApiError } from "@/lib/api";
import { useTaskAction } from "../api/transition-task";
import { toastFailure, toastSuccess } from "../hooks/use-task-actions";
import { declineRequestConfirmation } from "./task-action-confirmations";
import type { TaskActionButton } from "./task-actions";

const dialog = deferredPart(() => import("./decline-request-dialog"), (m) => m.DeclineRequestDialog);

export interface DeclineRequestButtonProps {
  taskId: string;
  /** The decline row the poster's choice picks. */
  action: Parameters<typeof declineRequestConfirmation>[0];
  button: TaskActionButton;
  disabled: boolean;
}

/**
 * Decline Request on a requested task's page: as TaskActionButton, but its confirmation takes an
 * optional reason for the poster (decision 065). Only the requested provider sees it, so the task
 * page loads it, and its own request, in a chunk of their own.
 */
export function DeclineRequestButton({ taskId, action, button, disabled }: DeclineRequestButtonProps) {
  const mutation = useTaskAction();
  const decline = async (reason: string | undefined) => {
    try {
      await mutation.mutateAsync({ id: taskId, action, reason });
      toastSuccess(action);
    } catch (error) {
      // A refused reason goes back to the dialog, under its field; anything else is told as for any task button.
      if (error instanceof ApiError && error.status === 400) throw error;
      toastFailure(action, error);
    }
  };
  return (
    <DeferredDialog
      part={dialog}
      trigger={
        <Button variant={button.variant} disabled={disabled || mutation.isPending}>
          {mutation.isPending ? button.pendingLabel : button.label}
        </Button>
      }
    >
      {(overlay) => <dialog.Component overlay={overlay} confirmation={declineRequestConfirmation(action)} onDecline={decline} />}
    </DeferredDialog>
  );
}
