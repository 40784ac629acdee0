import { Sparkles } from "lucide-react";
import type { FelixContext, FelixMode } from "@shared/felix";
import { Button } from "@/components/ui/button";
import { DeferredDialog, deferredPart } from "@/components/ui/deferred-dialog";
import type { FelixSubject } from "./felix-copy";

// The dialog (react-hook-form, Radix Dialog, the chat) is its own chunk, fetched when the pointer
// or focus reaches the button and mounted at the first opening: a job board with a button per card
// no longer loads it, or mounts thirty closed dialogs, before its first paint (issue 17).
const felixDialog = deferredPart(() => import("./ask-felix-dialog"), (m) => m.AskFelixDialog);

export interface AskFelixButtonProps {
  mode: FelixMode;
  /** What an evaluation judges: the task's budget (default), an offer its poster reads, or the provider's own price (decision 072). */
  subject?: FelixSubject;
  context: FelixContext;
  /** Poster mode: "Use $X as My Budget" calls this with dollars, then the dialog closes. */
  onApplyBudget?: (dollars: number) => void;
  /** Smaller button for job cards. */
  size?: "default" | "sm";
}

export function AskFelixButton({ mode, subject, context, onApplyBudget, size = "default" }: AskFelixButtonProps) {
  return (
    <DeferredDialog
      part={felixDialog}
      trigger={
        <Button variant="outline" size={size}>
          <Sparkles aria-hidden="true" />
          Ask Felix
        </Button>
      }
    >
      {(overlay) => (
        <felixDialog.Component
          mode={mode}
          subject={subject}
          context={context}
          open={overlay.open}
          onOpenChange={overlay.setOpen}
          onCloseAutoFocus={overlay.returnFocus}
          onApplyBudget={onApplyBudget}
        />
      )}
    </DeferredDialog>
  );
}
