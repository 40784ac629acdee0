import type { ReactNode } from "react";
import type { TaskPublic } from "@shared/tasks";
import { Button } from "@/components/ui/button";
import { ConfirmActionDialog } from "@/components/ui/confirm-action-dialog";
import { actionConfirmation } from "./task-action-confirmations";
import type { TaskActionButton as ActionButton } from "./task-actions";

export interface TaskActionButtonProps {
  task: Parameters<typeof actionConfirmation>[1] & Pick<TaskPublic, "title">;
  button: ActionButton;
  /** Runs the action (after the confirmation, when the action has one). */
  onRun: () => void;
  pending: boolean;
  disabled: boolean;
  size?: "default" | "sm";
  /** Extra words for screen readers, e.g. " for <title>" on job-board cards. */
  srSuffix?: string;
  icon?: ReactNode;
}

/**
 * One task button from taskActionButtons(). An irreversible or money-moving action asks first, with
 * its amounts (task-action-confirmations.ts); a signed-out visitor's Claim goes straight to sign-in.
 */
export function TaskActionButton({ task, button, onRun, pending, disabled, size = "default", srSuffix, icon }: TaskActionButtonProps) {
  const label = (
    <>
      {icon}
      {pending ? button.pendingLabel : button.label}
      {srSuffix ? <span className="sr-only">{srSuffix}</span> : null}
    </>
  );
  const confirmation = button.signInMessage === null ? actionConfirmation(button.name, task) : null;
  if (confirmation === null) {
    return (
      <Button variant={button.variant} size={size} disabled={disabled} onClick={onRun}>
        {label}
      </Button>
    );
  }
  return (
    <ConfirmActionDialog
      trigger={
        <Button variant={button.variant} size={size} disabled={disabled}>
          {label}
        </Button>
      }
      title={confirmation.title}
      lines={confirmation.lines}
      confirmLabel={confirmation.confirmLabel}
      cancelLabel={confirmation.cancelLabel}
      destructive={confirmation.destructive}
      onConfirm={onRun}
    />
  );
}
