import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { reportProblemBodySchema } from "@shared/payments";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/use-toast";
import { errorMessage } from "@/lib/api";
import { maxLengthOf } from "@/lib/form";
import { useReportProblem } from "../api/report-problem";

type ReportBody = { reason: string };

/** The poster's 'Report a Problem': the money stays held until an admin decides. */
export function ReportProblemDialog({ taskId }: { taskId: string }) {
  const [open, setOpen] = useState(false);
  const form = useForm<ReportBody>({ resolver: zodResolver(reportProblemBodySchema), defaultValues: { reason: "" }, mode: "onChange" });
  const report = useReportProblem(taskId);
  const { errors, isValid } = form.formState;

  const submit = form.handleSubmit(({ reason }) =>
    report.mutate(reason, {
      onSuccess: () => {
        toast({ title: "Problem Reported", description: "The payment stays held while our team reviews it." });
        setOpen(false);
        form.reset({ reason: "" });
      },
      onError: (error) => toast({ title: "Error", description: errorMessage(error, "Failed to report the problem."), variant: "destructive" }),
    }),
  );

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline">Report a Problem</Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Report a Problem</DialogTitle>
          <DialogDescription>Tell us what went wrong. The payment is held until an admin reviews your report.</DialogDescription>
        </DialogHeader>
        <form onSubmit={(event) => void submit(event)} noValidate className="grid gap-4">
          <FormField label="What went wrong?" required error={errors.reason?.message}>
            <Textarea rows={4} maxLength={maxLengthOf(reportProblemBodySchema.shape.reason)} {...form.register("reason")} />
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
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
