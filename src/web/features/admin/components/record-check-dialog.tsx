import { zodResolver } from "@hookform/resolvers/zod";
import { manualCheckBodySchema, type BackgroundCheckResult, type ManualCheckBody } from "@shared/background-checks";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/use-toast";
import { maxLengthOf } from "@/lib/form";
import { useSchemaForm } from "@/lib/schema-form";
import { useRecordBackgroundCheck } from "../api/record-background-check";

// The admin records a background check they did by hand (docs/decisions/064-background-checks.md):
// what was checked, the day, the result in Checkr's words, and with "consider" the reason the
// applicant is told. The shared schema judges the form as the server does.

type RecordForm = { checkedWhat: string; result: BackgroundCheckResult | ""; checkedOn: string; reason: string };

const SELECT_CLASS =
  "flex h-10 w-full min-w-0 rounded-md border border-input bg-background px-3 py-2 text-base text-foreground focus-visible:outline-hidden focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background aria-invalid:border-destructive md:text-sm";

const fields = manualCheckBodySchema.shape;

function today(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}-${String(now.getDate()).padStart(2, "0")}`;
}

const blank = (): RecordForm => ({ checkedWhat: "", result: "", checkedOn: today(), reason: "" });

export interface RecordCheckDialogProps {
  userId: string;
  name: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus: (event: Event) => void;
}

export function RecordCheckDialog({ userId, name, open, onOpenChange, onCloseAutoFocus }: RecordCheckDialogProps) {
  const record = useRecordBackgroundCheck(userId);
  const form = useSchemaForm<RecordForm, ManualCheckBody>({
    resolver: zodResolver(manualCheckBodySchema) as never,
    defaultValues: blank(),
  });
  const { errors, isSubmitting } = form.formState;
  const consider = form.watch("result") === "consider";
  const submit = form.handleSubmit(async (body) => {
    try {
      await record.mutateAsync(body);
      onOpenChange(false);
      form.reset(blank());
      toast({
        title: "Check recorded",
        description: body.result === "clear" ? `${name}'s check is clear.` : `${name}'s check needs review; they have been told why and how to dispute it.`,
      });
    } catch (error) {
      const message = form.showServerErrors(error, "The check could not be recorded. Please try again.");
      if (message) toast({ variant: "destructive", title: "Not recorded", description: message });
    }
  });

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) form.reset(blank());
        onOpenChange(next);
      }}
    >
      <DialogContent onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>Record a background check</DialogTitle>
          <DialogDescription>
            For a check you did by hand for {name}. It is kept with your name; approval needs a clear result.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={(event) => void submit(event)} noValidate className="grid gap-4">
          <FormField label="What was checked" required error={errors.checkedWhat?.message} description='For example "County criminal records, MD, 7 years".'>
            <Input maxLength={maxLengthOf(fields.checkedWhat)} {...form.register("checkedWhat")} />
          </FormField>
          <FormField label="Date of the check" required error={errors.checkedOn?.message}>
            <Input type="date" max={today()} {...form.register("checkedOn")} />
          </FormField>
          <FormField label="Result" required error={errors.result?.message}>
            <select className={SELECT_CLASS} {...form.register("result")}>
              <option value="" disabled>
                Choose the result…
              </option>
              <option value="clear">Clear: nothing found that stops approval</option>
              <option value="consider">Consider: a record needs review</option>
            </select>
          </FormField>
          {consider ? (
            <FormField label="What needs review" required error={errors.reason?.message} description="The applicant is told this, with how to dispute it.">
              <Textarea rows={3} maxLength={maxLengthOf(fields.reason)} {...form.register("reason")} />
            </FormField>
          ) : null}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={isSubmitting}>
              {isSubmitting ? "Recording..." : "Record check"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
