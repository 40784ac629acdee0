import type { FelixContext, FelixMode } from "@shared/felix";

// Placeholder until the Felix feature lands; the props are the agreed interface.
export interface AskFelixButtonProps {
  mode: FelixMode;
  context: FelixContext;
  /** Poster mode: "Use $X as My Budget" calls this with dollars, then the dialog closes. */
  onApplyBudget?: (dollars: number) => void;
  /** Smaller button for job cards. */
  size?: "default" | "sm";
}

export function AskFelixButton(_props: AskFelixButtonProps) {
  return null;
}
