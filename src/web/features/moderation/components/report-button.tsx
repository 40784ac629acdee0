import { zodResolver } from "@hookform/resolvers/zod";
import { Flag } from "lucide-react";
import { useState } from "react";
import { createReportBodySchema, REPORT_REASONS, type ReportReason, type ReportTarget } from "@shared/moderation";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/use-toast";
import { maxLengthOf } from "@/lib/form";
import { useSchemaForm } from "@/lib/schema-form";
import { useCreateReport } from "../api/reports";

const formSchema = createReportBodySchema.pick({ reason: true, details: true });
type ReportForm = { reason: ReportReason | ""; details: string };

const SELECT_CLASS =
  "flex h-10 w-full min-w-0 rounded-md border border-input bg-background px-3 py-2 text-base text-foreground focus-visible:outline-hidden focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background aria-invalid:border-destructive md:text-sm";

/**
 * "Report" on a person, a task, a chat message or a review (docs/product.md, Moderation): a reason
 * from the fixed list and what happened, sent to the admins' queue.
 */
export function ReportButton({ targetType, targetId, what, compact = false }: { targetType: ReportTarget; targetId: string; what: string; compact?: boolean }) {
  const [open, setOpen] = useState(false);
  const report = useCreateReport();
  const form = useSchemaForm<ReportForm, { reason: ReportReason; details: string }>({
    resolver: zodResolver(formSchema) as never,
    defaultValues: { reason: "", details: "" },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    try {
      await report.mutateAsync({ targetType, targetId, ...values });
      setOpen(false);
      form.reset();
      toast({ title: "Report sent", description: "Thank you. Our team will look at it and act if it breaks our rules." });
    } catch (error) {
      const message = form.showServerErrors(error, "We could not send your report. Please try again.");
      if (message) toast({ variant: "destructive", title: "Report not sent", description: message });
    }
  });

  return (
    <>
      <Button type="button" variant="ghost" size="sm" className="text-muted-foreground" aria-label={compact ? `Report ${what}` : undefined} onClick={() => setOpen(true)}>
        <Flag className="size-4" aria-hidden="true" />
        {compact ? null : "Report"}
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Report {what}</DialogTitle>
          <DialogDescription>Tell our team what is wrong. The person you report is not told who reported them.</DialogDescription>
        </DialogHeader>
        <form onSubmit={(event) => void submit(event)} noValidate className="grid gap-4">
          <FormField label="Reason" required error={errors.reason?.message}>
            <select className={SELECT_CLASS} {...form.register("reason")}>
              <option value="" disabled>
                Choose a reason…
              </option>
              {(Object.entries(REPORT_REASONS) as [ReportReason, string][]).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </FormField>
          <FormField label="What happened" required error={errors.details?.message} description="At least 10 characters.">
            <Textarea rows={4} maxLength={maxLengthOf(formSchema.shape.details)} {...form.register("details")} />
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={isSubmitting}>
              {isSubmitting ? "Sending..." : "Send report"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
      </Dialog>
    </>
  );
}
