import { zodResolver } from "@hookform/resolvers/zod";
import type { ReactNode } from "react";
import type { z } from "zod";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Textarea } from "@/components/ui/textarea";
import type { DeferredOverlay } from "@/components/ui/use-deferred-overlay";
import { maxLengthOf } from "@/lib/form";
import { useSchemaForm } from "@/lib/schema-form";

type ReasonBody = { reason: string };

export interface ReasonDialogProps {
  /** Opened by its card's button through DeferredDialog. */
  overlay: DeferredOverlay;
  pending: boolean;
  /** `done` empties the form and closes the dialog, once the decision is taken. */
  onConfirm: (reason: string, done: () => void) => void;
}

/**
 * An admin's decision that the person it concerns reads the reason of (a rejected application, a
 * revoked approval): the reason is checked with the server's own schema, and the action stays
 * disabled until it is valid.
 */
export function ReasonDialog({
  schema,
  title,
  description,
  label,
  hint,
  action,
  acting,
  overlay,
  pending,
  onConfirm,
}: ReasonDialogProps & {
  schema: z.ZodObject<{ reason: z.ZodType<string, string> }>;
  title: ReactNode;
  description: ReactNode;
  label: string;
  hint?: string;
  /** The button's label, and while the request runs. */
  action: string;
  acting: string;
}) {
  const form = useSchemaForm<ReasonBody>({ resolver: zodResolver(schema), defaultValues: { reason: "" }, mode: "onChange" });
  const { errors, isValid } = form.formState;
  // Each opening starts with an empty reason, however the last one ended.
  const close = () => {
    form.reset({ reason: "" });
    overlay.setOpen(false);
  };
  const confirm = form.handleSubmit(({ reason }) => onConfirm(reason, close));

  return (
    <Dialog open={overlay.open} onOpenChange={(next) => (next ? overlay.setOpen(true) : close())}>
      <DialogContent onCloseAutoFocus={overlay.returnFocus}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <form onSubmit={(event) => void confirm(event)} noValidate className="grid gap-4">
          <FormField label={label} required error={errors.reason?.message} {...(hint ? { description: hint } : {})}>
            <Textarea rows={4} maxLength={maxLengthOf(schema.shape.reason)} {...form.register("reason")} />
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={!isValid || pending}>
              {pending ? acting : action}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
