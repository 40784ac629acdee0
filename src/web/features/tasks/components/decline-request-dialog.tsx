import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { declineRequestBodySchema } from "@shared/task-requests";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Textarea } from "@/components/ui/textarea";
import type { DeferredOverlay } from "@/components/ui/use-deferred-overlay";
import { toast } from "@/components/ui/use-toast";
import { maxLengthOf } from "@/lib/form";
import { useSchemaForm } from "@/lib/schema-form";
import type { ActionConfirmation } from "./task-action-confirmations";


export interface DeclineRequestDialogProps {
  overlay: DeferredOverlay;
  /** The decline's confirmation (task-action-confirmations.ts): what happens to the task. */
  confirmation: ActionConfirmation;
  /** Sends the decline; throws a refused reason (400) back for the form (decline-request-button.tsx). */
  onDecline: (reason: string | undefined) => Promise<void>;
}

/**
 * The requested provider's Decline Request (docs/product.md, Requesting a provider): the confirmation
 * with an optional reason the poster reads in their notice, checked with the server's own schema.
 * Loaded at the trigger's first press (decision 041), as every confirmation is.
 */
export function DeclineRequestDialog({ overlay, confirmation, onDecline }: DeclineRequestDialogProps) {
  const form = useSchemaForm<z.input<typeof declineRequestBodySchema>, z.output<typeof declineRequestBodySchema>>({
    resolver: zodResolver(declineRequestBodySchema),
    defaultValues: { reason: "" },
  });
  const { errors, isSubmitting } = form.formState;
  // Each opening starts with an empty reason, however the last one ended.
  const close = () => {
    form.reset({ reason: "" });
    overlay.setOpen(false);
  };
  const decline = form.handleSubmit(async ({ reason }) => {
    try {
      await onDecline(reason);
      close();
    } catch (error) {
      const rest = form.showServerErrors(error, "We could not decline the request. Please try again.");
      if (rest) toast({ variant: "destructive", title: "Request not declined", description: rest });
    }
  });

  return (
    <Dialog open={overlay.open} onOpenChange={(next) => (next ? overlay.setOpen(true) : close())}>
      <DialogContent role="alertdialog" hideCloseButton onInteractOutside={(event) => event.preventDefault()} onCloseAutoFocus={overlay.returnFocus}>
        <DialogHeader>
          <DialogTitle>{confirmation.title}</DialogTitle>
          <DialogDescription asChild>
            <div className="grid gap-2">
              {confirmation.lines.map((line) => (
                <p key={line}>{line}</p>
              ))}
            </div>
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={(event) => void decline(event)} noValidate className="grid gap-4">
          <FormField label="Reason (optional)" error={errors.reason?.message} description="The poster reads it with your answer.">
            <Textarea rows={3} maxLength={maxLengthOf(declineRequestBodySchema.shape.reason)} {...form.register("reason")} />
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={close}>
              {confirmation.cancelLabel}
            </Button>
            <Button type="submit" variant={confirmation.destructive ? "destructive" : "default"} disabled={isSubmitting}>
              {isSubmitting ? "Declining..." : confirmation.confirmLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
