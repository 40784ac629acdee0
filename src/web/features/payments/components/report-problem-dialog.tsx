import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/use-toast";
import { errorMessage } from "@/lib/api";
import { useReportProblem } from "../api/report-problem";

/** The poster's 'Report a Problem': the money stays held until an admin decides. */
export function ReportProblemDialog({ taskId }: { taskId: string }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const report = useReportProblem(taskId);
  const trimmed = reason.trim();

  function submit() {
    report.mutate(trimmed, {
      onSuccess: () => {
        toast({ title: "Problem Reported", description: "The payment stays held while our team reviews it." });
        setOpen(false);
        setReason("");
      },
      onError: (error) => toast({ title: "Error", description: errorMessage(error, "Failed to report the problem."), variant: "destructive" }),
    });
  }

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
        <FormField label="What went wrong?" required>
          <Textarea rows={4} maxLength={1000} value={reason} onChange={(e) => setReason(e.target.value)} />
        </FormField>
        <DialogFooter>
          <Button variant="outline" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button variant="destructive" disabled={trimmed.length === 0 || report.isPending} onClick={submit}>
            {report.isPending ? "Reporting..." : "Report Problem"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
