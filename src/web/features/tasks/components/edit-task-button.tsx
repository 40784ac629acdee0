import { Pencil } from "lucide-react";
import type { TaskPrivate } from "@shared/tasks";
import { Button } from "@/components/ui/button";
import { DeferredDialog, deferredPart } from "@/components/ui/deferred-dialog";

// The edit form (react-hook-form, zod, the dialog) is its own chunk, loaded when the poster reaches
// the button (docs/decisions/041-forms-loaded-on-first-use.md).
const editDialog = deferredPart(() => import("./edit-task-dialog"), (m) => m.EditTaskDialog);

/** The poster's Edit button on their open task (docs/decisions/058-withdrawing-and-editing.md). */
export function EditTaskButton({ task }: { task: TaskPrivate }) {
  return (
    <DeferredDialog
      part={editDialog}
      trigger={
        <Button variant="outline">
          <Pencil aria-hidden="true" /> Edit Task
        </Button>
      }
    >
      {(overlay) => <editDialog.Component task={task} open={overlay.open} onOpenChange={overlay.setOpen} onCloseAutoFocus={overlay.returnFocus} />}
    </DeferredDialog>
  );
}
