import { cloneElement, lazy, Suspense, type ComponentProps, type ReactElement } from "react";
import { useDeferredOverlay } from "./use-deferred-overlay";

// One confirmation before every irreversible or money-moving action, stating the amounts
// (docs/product.md, Web app: "Confirmations"). The dialog (Radix Dialog, its focus trap and scroll
// lock) is its own chunk, fetched when the pointer or focus reaches the button and shown at its
// press: the job board has a Claim button per card and the task page several, and neither first
// paint opens one (issue 17, docs/decisions/041-forms-loaded-on-first-use.md).
const loadContent = () => import("./confirm-action-dialog-content");
const ConfirmActionDialogContent = lazy(() => loadContent().then((m) => ({ default: m.ConfirmActionDialogContent })));

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
  const overlay = useDeferredOverlay(loadContent);
  return (
    <>
      {cloneElement(trigger, overlay.triggerProps)}
      {overlay.mounted && (
        <Suspense fallback={null}>
          <ConfirmActionDialogContent overlay={overlay} {...dialog} />
        </Suspense>
      )}
    </>
  );
}
