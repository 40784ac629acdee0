import { zodResolver } from "@hookform/resolvers/zod";
import { rejectBodySchema } from "@shared/providers";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Textarea } from "@/components/ui/textarea";
import { maxLengthOf } from "@/lib/form";
import { useSchemaForm } from "@/lib/schema-form";

type RejectBody = { reason: string };

/**
 * Asks for the rejection reason with the server's own rule (required, non-empty after trimming):
 * Reject stays disabled until the reason is valid.
 */
export function RejectDialog({
  name,
  open,
  pending,
  onCancel,
  onConfirm,
}: {
  name: string;
  open: boolean;
  pending: boolean;
  onCancel: () => void;
  onConfirm: (reason: string) => void;
}) {
  const form = useSchemaForm<RejectBody>({ resolver: zodResolver(rejectBodySchema), defaultValues: { reason: "" }, mode: "onChange" });
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
          <DialogTitle>Reject Application</DialogTitle>
          <DialogDescription>Tell {name} why the application was rejected. They will be notified.</DialogDescription>
        </DialogHeader>
        <form onSubmit={(event) => void confirm(event)} noValidate className="grid gap-4">
          <FormField label="Rejection Reason" required error={errors.reason?.message}>
            <Textarea rows={4} maxLength={maxLengthOf(rejectBodySchema.shape.reason)} {...form.register("reason")} />
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onCancel}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={!isValid || pending}>
              {pending ? "Rejecting..." : "Reject Application"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
