import { moderationReasonBodySchema } from "@shared/moderation";
import { ReasonDialog, type ReasonDialogProps } from "./reason-dialog";

/**
 * Asks before an approved provider's approval is revoked, with the reason they will read (the
 * server's rule: 5 to 500 characters; docs/product.md, Moderation).
 */
export function RevokeApprovalDialog({ name, ...props }: ReasonDialogProps & { name: string }) {
  return (
    <ReasonDialog
      {...props}
      schema={moderationReasonBodySchema}
      title={`Revoke ${name}'s approval?`}
      description={`${name} can no longer claim tasks or make offers, and is told your reason and how to appeal. They may apply again, and you approve them as any application.`}
      label="Reason"
      hint="They read this. At least 5 characters."
      action="Revoke approval"
      acting="Revoking..."
    />
  );
}
