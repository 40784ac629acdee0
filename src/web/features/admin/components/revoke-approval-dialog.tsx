import { zodResolver } from "@hookform/resolvers/zod";
import { moderationReasonBodySchema } from "@shared/moderation";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Textarea } from "@/components/ui/textarea";
import { maxLengthOf } from "@/lib/form";
import { useSchemaForm } from "@/lib/schema-form";

type RevokeBody = { reason: string };

/**
 * Asks before an approved provider's approval is revoked, with the reason they will read (the
 * server's rule: 5 to 500 characters); Revoke stays disabled until the reason is valid
 * (docs/product.md, Moderation).
 */
export function RevokeApprovalDialog({
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
  const form = useSchemaForm<RevokeBody>({ resolver: zodResolver(moderationReasonBodySchema), defaultValues: { reason: "" }, mode: "onChange" });
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
          <DialogTitle>Revoke {name}&apos;s approval?</DialogTitle>
          <DialogDescription>
            {name} can no longer claim tasks or make offers, and is told your reason and how to appeal. They may apply again, and you
            approve them as any application.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={(event) => void confirm(event)} noValidate className="grid gap-4">
          <FormField label="Reason" required error={errors.reason?.message} description="They read this. At least 5 characters.">
            <Textarea rows={4} maxLength={maxLengthOf(moderationReasonBodySchema.shape.reason)} {...form.register("reason")} />
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onCancel}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={!isValid || pending}>
              {pending ? "Revoking..." : "Revoke approval"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
