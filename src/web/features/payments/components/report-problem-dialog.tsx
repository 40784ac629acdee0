import { zodResolver } from "@hookform/resolvers/zod";
import { reportProblemBodySchema } from "@shared/payments";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Textarea } from "@/components/ui/textarea";
import type { DeferredOverlay } from "@/components/ui/use-deferred-overlay";
import { toast } from "@/components/ui/use-toast";
import { maxLengthOf } from "@/lib/form";
import { useSchemaForm } from "@/lib/schema-form";
import { useReportProblem } from "../api/report-problem";

type ReportBody = { reason: string };

/**
 * The poster's 'Report a Problem': the money stays held until an admin decides. Loaded at its
 * button's first press (task-escrow-actions.tsx), which opens it.
 */
export function ReportProblemDialog({ overlay, taskId }: { overlay: DeferredOverlay; taskId: string }) {
  const form = useSchemaForm<ReportBody>({ resolver: zodResolver(reportProblemBodySchema), defaultValues: { reason: "" }, mode: "onChange" });
  const report = useReportProblem(taskId);
  const { errors, isValid } = form.formState;

  const submit = form.handleSubmit(({ reason }) =>
    report.mutate(reason, {
      onSuccess: () => {
        toast({ title: "Problem Reported", description: "The payment stays held while our team reviews it." });
        overlay.setOpen(false);
        form.reset({ reason: "" });
      },
      onError: (error) => {
        const rest = form.showServerErrors(error, "Failed to report the problem.");
        if (rest) toast({ title: "Error", description: rest, variant: "destructive" });
      },
    }),
  );

  return (
    <Dialog open={overlay.open} onOpenChange={overlay.setOpen}>
      <DialogContent onCloseAutoFocus={overlay.returnFocus}>
        <DialogHeader>
          <DialogTitle>Report a Problem</DialogTitle>
          <DialogDescription>Tell us what went wrong. The payment is held until an admin reviews your report.</DialogDescription>
        </DialogHeader>
        <form onSubmit={(event) => void submit(event)} noValidate className="grid gap-4">
          <FormField label="What went wrong?" required error={errors.reason?.message}>
            <Textarea rows={4} maxLength={maxLengthOf(reportProblemBodySchema.shape.reason)} {...form.register("reason")} />
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => overlay.setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={!isValid || report.isPending}>
              {report.isPending ? "Reporting..." : "Report Problem"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
