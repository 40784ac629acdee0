import { Sparkles } from "lucide-react";
import { useState } from "react";
import type { FelixContext, FelixMode } from "@shared/felix";
import { Button } from "@/components/ui/button";
import { AskFelixDialog } from "./ask-felix-dialog";

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
  return (
    <>
      <Button variant="outline" size={size} onClick={() => setOpen(true)}>
        <Sparkles aria-hidden="true" />
        Ask Felix
      </Button>
      <AskFelixDialog mode={mode} context={context} open={open} onOpenChange={setOpen} onApplyBudget={onApplyBudget} />
    </>
  );
}
