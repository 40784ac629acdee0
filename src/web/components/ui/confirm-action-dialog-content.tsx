import type { DeferredOverlay } from "./use-deferred-overlay";
import { Button } from "./button";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "./dialog";
import type { ConfirmActionDialogProps } from "./confirm-action-dialog";

/**
 * The confirmation itself, loaded at its trigger's first press (confirm-action-dialog.tsx). The
 * alertdialog role: it does not close on an outside click, and Escape or the go-back button leave
 * everything as it was.
 */
export function ConfirmActionDialogContent({
  overlay,
  title,
  lines,
  confirmLabel,
  cancelLabel = "Go back",
  destructive = false,
  onConfirm,
}: Omit<ConfirmActionDialogProps, "trigger"> & { overlay: DeferredOverlay }) {
  return (
    <Dialog open={overlay.open} onOpenChange={overlay.setOpen}>
      <DialogContent
        role="alertdialog"
        hideCloseButton
        onInteractOutside={(event) => event.preventDefault()}
        onCloseAutoFocus={overlay.returnFocus}
      >
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription asChild>
            <div className="grid gap-2">
              {lines.map((line) => (
                <p key={line}>{line}</p>
              ))}
            </div>
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">{cancelLabel}</Button>
          </DialogClose>
          <Button
            variant={destructive ? "destructive" : "default"}
            onClick={() => {
              overlay.setOpen(false);
              onConfirm();
            }}
          >
            {confirmLabel}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
