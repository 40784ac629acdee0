import { zodResolver } from "@hookform/resolvers/zod";
import type { ReactNode } from "react";
import type { z } from "zod";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Textarea } from "@/components/ui/textarea";
import { maxLengthOf } from "@/lib/form";
import { useSchemaForm } from "@/lib/schema-form";

type ReasonBody = { reason: string };

export interface ReasonDialogProps {
  open: boolean;
  pending: boolean;
  onCancel: () => void;
  onConfirm: (reason: string) => void;
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
  open,
  pending,
  onCancel,
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
  const confirm = form.handleSubmit(({ reason }) => onConfirm(reason));

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) {
          form.reset({ reason: "" });
          onCancel();
        }
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <form onSubmit={(event) => void confirm(event)} noValidate className="grid gap-4">
          <FormField label={label} required error={errors.reason?.message} {...(hint ? { description: hint } : {})}>
            <Textarea rows={4} maxLength={maxLengthOf(schema.shape.reason)} {...form.register("reason")} />
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onCancel}>
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
