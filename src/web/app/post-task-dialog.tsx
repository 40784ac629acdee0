import { SlotPicker } from "@/features/calendar/components/slot-picker";
import { AskFelixButton } from "@/features/felix/components/ask-felix-button";
import { PostTaskDialog, type PostTaskDialogProps } from "@/features/tasks/components/post-task-dialog";
import { useUser } from "@/lib/current-user";
import { PostedTaskPhotosStep } from "./task-photos";

/**
 * The Post a Task dialog with Felix beside the budget and, in a request, the provider's free times
 * (the calendar feature): features meet here, not in each other.
 * Felix answers signed-in people only (its API is), so a visitor typing a draft before signing up
 * sees the budget field alone.
 */
export function PostTaskDialogWithFelix({
  open,
  onOpenChange,
  onCloseAutoFocus,
  prefill,
  onPosted,
}: Pick<PostTaskDialogProps, "open" | "onOpenChange" | "onCloseAutoFocus" | "prefill" | "onPosted">) {
  const { isAuthenticated } = useUser();
  return (
    <PostTaskDialog
      open={open}
      onOpenChange={onOpenChange}
      onCloseAutoFocus={onCloseAutoFocus}
      prefill={prefill}
      onPosted={onPosted}
      budgetHelper={
        isAuthenticated
          ? ({ context, applyBudget }) => <AskFelixButton mode="recommend" context={context} onApplyBudget={applyBudget} />
          : undefined
      }
      requestTime={(slot) => (
        <SlotPicker
          providerId={slot.providerId}
          providerName={slot.providerName}
          durationMinutes={slot.durationMinutes}
          value={slot.value}
          error={slot.error}
          onChange={(choice) => slot.onChange(choice ? { startsAt: choice.slot.startsAt, endsAt: choice.slot.endsAt, instant: choice.instant } : null)}
        />
      )}
      afterPost={(task, done) => <PostedTaskPhotosStep taskId={task.id} onDone={done} />}
    />
  );
}
