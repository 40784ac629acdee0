import { rejectBodySchema } from "@shared/providers";
import { ReasonDialog, type ReasonDialogProps } from "./reason-dialog";

/** Asks for the rejection reason with the server's own rule (required, non-empty after trimming). */
export function RejectDialog({ name, ...props }: ReasonDialogProps & { name: string }) {
  return (
    <ReasonDialog
      {...props}
      schema={rejectBodySchema}
      title="Reject Application"
      description={`Tell ${name} why the application was rejected. They will be notified.`}
      label="Rejection Reason"
      action="Reject Application"
      acting="Rejecting..."
    />
  );
}
