import { useState, type ReactElement } from "react";
import { Button } from "./button";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "./dialog";

// One confirmation before every irreversible or money-moving action, stating the amounts
// (docs/product.md, Web app: "Confirmations"). Built on the Radix Dialog with the alertdialog role:
// it does not close on an outside click, and Escape or the go-back button leave everything as it was.

export interface ConfirmActionDialogProps {
  /** The button that opens the dialog; it keeps its own label, disabled state and accessible name. */
  trigger: ReactElement;
  title: string;
  /** One paragraph per line: what happens, with the amounts. */
  lines: readonly string[];
  confirmLabel: string;
  /** The way back, which changes nothing. */
  cancelLabel?: string;
  destructive?: boolean;
  onConfirm: () => void;
}

export function ConfirmActionDialog({ trigger, title, lines, confirmLabel, cancelLabel = "Go back", destructive = false, onConfirm }: ConfirmActionDialogProps) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent role="alertdialog" hideCloseButton onInteractOutside={(event) => event.preventDefault()}>
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
              setOpen(false);
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
