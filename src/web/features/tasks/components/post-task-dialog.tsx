import type { ReactNode } from "react";
import type { FelixContext } from "@shared/felix";

// Placeholder until the tasks feature lands; the props are the agreed interface.
export interface BudgetHelperSlot {
  /** The task as typed so far, in Felix's context shape. */
  context: FelixContext;
  /** Sets the budget field (dollars). */
  applyBudget: (dollars: number) => void;
}

export interface PostTaskDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Rendered beside the budget field: the app puts "Ask Felix" here. */
  budgetHelper?: (slot: BudgetHelperSlot) => ReactNode;
}

export function PostTaskDialog(_props: PostTaskDialogProps) {
  return null;
}
