import type { FieldErrors, Resolver } from "react-hook-form";
import { formatDollarsExact, dollarsToCents, priceTask } from "@shared/money";
import { MONEY_WORDS } from "@shared/money-words";
import { editTaskBodySchema, type TaskPrivate } from "@shared/tasks";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/use-toast";
import { formatDate } from "@/lib/dates";
import { maxLengthOf } from "@/lib/form";
import { useSchemaForm } from "@/lib/schema-form";
import { useEditTask, type ValidEditTaskBody } from "../api/edit-task";
import { scheduledDateIso, scheduleIssue } from "./post-task-form";

// The poster edits their open task (docs/decisions/058-withdrawing-and-editing.md): the shared
// editTaskBodySchema judges the form as the server does, the new total is shown as the budget is
// typed (the one fee function), and the server's field errors land under their fields.

interface EditTaskForm {
  title: string;
  description: string;
  budget: string;
  date: string;
  time: string;
  location: string;
  city: string;
  state: string;
}

type FormField = keyof EditTaskForm;

/** The body's field each form field stands for; the date and time make one scheduledDate. */
const FIELD_OF_PATH: Partial<Record<string, FormField>> = {
  title: "title",
  description: "description",
  budget: "budget",
  scheduledDate: "date",
  location: "location",
  city: "city",
  state: "state",
};

function defaults(task: TaskPrivate): EditTaskForm {
  const when = task.scheduledDate ? new Date(task.scheduledDate) : null;
  return {
    title: task.title,
    description: task.description,
    budget: String(task.budget),
    date: when ? formatDate(when, "yyyy-MM-dd") : "",
    time: when ? formatDate(when, "HH:mm") : "",
    location: task.location ?? "",
    city: task.city ?? "",
    state: task.state ?? "",
  };
}

function toBody(values: EditTaskForm, task: TaskPrivate) {
  const budget = values.budget.trim() === "" ? Number.NaN : Number(values.budget);
  const place = task.isRoute ? {} : { location: values.location, city: values.city, state: values.state };
  return { title: values.title, description: values.description, budget, scheduledDate: scheduledDateIso(values.date, values.time), ...place };
}

/** The shared schema, plus the date rule judged on the browser's clock (an unchanged date is kept as it is). */
function editResolver(task: TaskPrivate): Resolver<EditTaskForm, unknown, ValidEditTaskBody> {
  return async (values) => {
    const errors: FieldErrors<EditTaskForm> = {};
    const body = toBody(values, task);
    const parsed = editTaskBodySchema.safeParse(body);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = FIELD_OF_PATH[String(issue.path[0])];
        if (field && !errors[field]) errors[field] = { type: issue.code, message: issue.message };
      }
    }
    const unchangedDate = task.scheduledDate !== null && body.scheduledDate !== null && Date.parse(body.scheduledDate) === Date.parse(task.scheduledDate);
    const schedule = unchangedDate ? null : scheduleIssue(values.date, values.time, new Date());
    if (schedule && !errors[schedule.field as FormField]) errors[schedule.field as FormField] = { type: "schedule", message: schedule.message };
    if (!task.isRoute && !values.location.trim() && !errors.location) errors.location = { type: "required", message: "Location is required. Enter the address where the task happens." };
    if (Object.keys(errors).length > 0 || !parsed.success) return { values: {}, errors };
    return { values: parsed.data, errors: {} };
  };
}

export interface EditTaskDialogProps {
  task: TaskPrivate;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus: (event: Event) => void;
}

export function EditTaskDialog({ task, open, onOpenChange, onCloseAutoFocus }: EditTaskDialogProps) {
  const form = useSchemaForm<EditTaskForm, ValidEditTaskBody>({ resolver: editResolver(task), defaultValues: defaults(task) });
  const mutation = useEditTask(task.id);
  const { errors } = form.formState;
  const budget = Number(form.watch("budget"));
  const valid = Number.isFinite(budget) && budget > 0 && editTaskBodySchema.shape.budget.safeParse(budget).success;
  const total = valid ? formatDollarsExact(priceTask(dollarsToCents(budget), task.urgency).totalCents) : null;

  const submit = form.handleSubmit((body) =>
    mutation.mutate(body, {
      onSuccess: () => {
        toast({ title: "Task updated", description: "Your changes are on the task page and the job board." });
        onOpenChange(false);
      },
      onError: (error) => {
        const message = form.showServerErrors(error, "Your changes could not be saved. Please try again.", (path) => FIELD_OF_PATH[path] ?? null);
        if (message) toast({ title: "Not saved", description: message, variant: "destructive" });
      },
    }),
  );

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) form.reset(defaults(task));
        onOpenChange(next);
      }}
    >
      <DialogContent className="max-h-[90dvh] max-w-xl overflow-y-auto" onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>Edit your task</DialogTitle>
          <DialogDescription>You can change it until a provider claims it. Providers who already saw it see the new version.</DialogDescription>
        </DialogHeader>
        <form onSubmit={(event) => void submit(event)} noValidate className="grid gap-4">
          <FormField label="Title" required error={errors.title?.message}>
            <Input maxLength={maxLengthOf(editTaskBodySchema.shape.title)} {...form.register("title")} />
          </FormField>
          <FormField label="Description" required error={errors.description?.message}>
            <Textarea rows={4} maxLength={maxLengthOf(editTaskBodySchema.shape.description)} {...form.register("description")} />
          </FormField>
          <FormField
            label="Budget ($)"
            required
            error={errors.budget?.message}
            description={total ? `You will pay ${total} in total, fees included.` : `Enter the budget in dollars, at least ${MONEY_WORDS.minimumBudget}.`}
          >
            <Input type="number" inputMode="decimal" step="0.01" min="0" {...form.register("budget")} />
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField label="Date needed" error={errors.date?.message}>
              <Input type="date" {...form.register("date")} />
            </FormField>
            <FormField label="Time" error={errors.time?.message}>
              <Input type="time" {...form.register("time")} />
            </FormField>
          </div>
          {task.isRoute ? (
            <p className="text-sm text-muted-foreground">A route's places cannot be changed here; cancel the task and post it again to change them.</p>
          ) : (
            <>
              <FormField label="Address" required error={errors.location?.message}>
                <Input autoComplete="street-address" {...form.register("location")} />
              </FormField>
              <div className="grid gap-4 sm:grid-cols-2">
                <FormField label="City" error={errors.city?.message}>
                  <Input autoComplete="address-level2" {...form.register("city")} />
                </FormField>
                <FormField label="State" error={errors.state?.message}>
                  <Input autoComplete="address-level1" maxLength={2} {...form.register("state")} />
                </FormField>
              </div>
            </>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={mutation.isPending}>
              {mutation.isPending ? "Saving..." : "Save Changes"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
