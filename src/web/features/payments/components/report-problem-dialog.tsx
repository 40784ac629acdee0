import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { DISPUTE_REASON_LABELS, DISPUTE_REASONS, reportProblemBodySchema, type ReportProblemBody } from "@shared/disputes";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Textarea } from "@/components/ui/textarea";
import type { DeferredOverlay } from "@/components/ui/use-deferred-overlay";
import { toast } from "@/components/ui/use-toast";
import { maxLengthOf } from "@/lib/form";
import { useSchemaForm } from "@/lib/schema-form";
import { useReportProblem } from "../api/report-problem";
import { DisputePhotoPicker } from "./dispute-photo-picker";

const SELECT_CLASS =
  "flex h-10 w-full min-w-0 rounded-md border border-input bg-background px-3 py-2 text-base text-foreground focus-visible:outline-hidden focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background aria-invalid:border-destructive md:text-sm";

/**
 * Either party's 'Report a Problem' (docs/product.md, Money: disputes): `moneyNow` says where the
 * money stays meanwhile. Loaded at its button's first press (task-dispute.tsx), which opens it.
 */
export function ReportProblemDialog({ overlay, taskId, moneyNote }: { overlay: DeferredOverlay; taskId: string; moneyNote: string }) {
  const empty: ReportProblemBody = { reason: "" as ReportProblemBody["reason"], description: "" };
  const form = useSchemaForm<ReportProblemBody>({ resolver: zodResolver(reportProblemBodySchema), defaultValues: empty, mode: "onChange" });
  const report = useReportProblem(taskId);
  const [files, setFiles] = useState<File[]>([]);
  const { errors, isValid } = form.formState;

  const submit = form.handleSubmit((body) =>
    report.mutate({ ...body, files }, {
      onSuccess: () => {
        toast({ title: "Problem Reported", description: "The other person has been told. An admin will decide." });
        overlay.setOpen(false);
        form.reset(empty);
        setFiles([]);
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
          <DialogDescription>{moneyNote}</DialogDescription>
        </DialogHeader>
        <form onSubmit={(event) => void submit(event)} noValidate className="grid gap-4">
          <FormField label="What kind of problem?" required error={errors.reason?.message}>
            <select className={SELECT_CLASS} {...form.register("reason")}>
              <option value="" disabled>
                Choose…
              </option>
              {DISPUTE_REASONS.map((reason) => (
                <option key={reason} value={reason}>
                  {DISPUTE_REASON_LABELS[reason]}
                </option>
              ))}
            </select>
          </FormField>
          <FormField label="What happened?" required error={errors.description?.message} description="At least 10 characters. Both of you and our admins read it.">
            <Textarea rows={4} maxLength={maxLengthOf(reportProblemBodySchema.shape.description)} {...form.register("description")} />
          </FormField>
          <DisputePhotoPicker files={files} onChange={setFiles} error={errors.photoURLs?.message} />
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
