import { Sparkles } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import type { FelixContext, FelixMode } from "@shared/felix";
import { Button } from "@/components/ui/button";

// The dialog (react-hook-form, Radix Dialog, the chat) is its own chunk, fetched when the pointer
// or focus reaches the button and mounted at the first opening: a job board with a button per card
// no longer loads it, or mounts thirty closed dialogs, before its first paint (issue 17).
const loadDialog = () => import("./ask-felix-dialog");
const AskFelixDialog = lazy(() => loadDialog().then((m) => ({ default: m.AskFelixDialog })));

export interface AskFelixButtonProps {
  mode: FelixMode;
  context: FelixContext;
  /** Poster mode: "Use $X as My Budget" calls this with dollars, then the dialog closes. */
  onApplyBudget?: (dollars: number) => void;
  /** Smaller button for job cards. */
  size?: "default" | "sm";
}

export function AskFelixButton({ mode, context, onApplyBudget, size = "default" }: AskFelixButtonProps) {
  const [open, setOpen] = useState(false);
  // Stays mounted after the first opening, so closing animates as any dialog does.
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        variant="outline"
        size={size}
        onPointerEnter={() => void loadDialog()}
        onFocus={() => void loadDialog()}
        onClick={() => {
          setOpened(true);
          setOpen(true);
        }}
      >
        <Sparkles aria-hidden="true" />
        Ask Felix
      </Button>
      {opened && (
        <Suspense fallback={null}>
          <AskFelixDialog mode={mode} context={context} open={open} onOpenChange={setOpen} onApplyBudget={onApplyBudget} />
        </Suspense>
      )}
    </>
  );
}
