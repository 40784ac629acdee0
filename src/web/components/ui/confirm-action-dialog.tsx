import type { ComponentProps, ReactElement } from "react";
import { DeferredDialog, deferredPart } from "./deferred-dialog";

// One confirmation before every irreversible or money-moving action, stating the amounts
// (docs/product.md, Web app: "Confirmations"). The dialog (Radix Dialog, its focus trap and scroll
// lock) is its own chunk, fetched when the pointer or focus reaches the button and shown at its
// press: the job board has a Claim button per card and the task page several, and neither first
// paint opens one (issue 17, docs/decisions/041-forms-loaded-on-first-use.md).
const content = deferredPart(() => import("./confirm-action-dialog-content"), (m) => m.ConfirmActionDialogContent);

export interface ConfirmActionDialogProps {
  /** The button that opens the dialog; it keeps its own label, disabled state and accessible name. */
  trigger: ReactElement<ComponentProps<"button">>;
  title: string;
  /** One paragraph per line: what happens, with the amounts. */
  lines: readonly string[];
  confirmLabel: string;
  /** The way back, which changes nothing. */
  cancelLabel?: string;
  destructive?: boolean;
  onConfirm: () => void;
}

export function ConfirmActionDialog({ trigger, ...dialog }: ConfirmActionDialogProps) {
  return (
    <DeferredDialog part={content} trigger={trigger}>
      {(overlay) => <content.Component overlay={overlay} {...dialog} />}
    </DeferredDialog>
  );
}
