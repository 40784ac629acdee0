import { AskFelixButton } from "@/features/felix/components/ask-felix-button";
import { PostTaskDialog } from "@/features/tasks/components/post-task-dialog";

/** The Post a Task dialog with Felix beside the budget: features meet here, not in each other. */
export function PostTaskDialogWithFelix({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <PostTaskDialog
      open={open}
      onOpenChange={onOpenChange}
      budgetHelper={({ context, applyBudget }) => <AskFelixButton mode="recommend" context={context} onApplyBudget={applyBudget} />}
    />
  );
}
