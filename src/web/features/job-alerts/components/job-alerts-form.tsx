import { Plus, Trash2 } from "lucide-react";
import { useId } from "react";
import { Controller, useFieldArray, type FieldErrors, type Resolver, type UseFormReturn } from "react-hook-form";
import { CATEGORIES, type Category } from "@shared/constants";
import { MAX_JOB_ALERTS, saveJobAlertsBodySchema, type JobAlert, type SaveJobAlertsBody } from "@shared/job-alerts";
import { RADIUS_MILES } from "@shared/task-filters";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { toast } from "@/components/ui/use-toast";
import { useSchemaForm } from "@/lib/schema-form";
import { useSaveJobAlerts } from "../api/save-job-alerts";

// The provider's job alerts, edited as one list and saved together (PUT replaces the whole list,
// docs/product.md#job-alerts), judged by the API's own schema before it is sent.

interface AlertRow {
  categories: Category[];
  near: string;
  radiusMiles: string;
  minBudget: string;
}
interface AlertsForm {
  alerts: AlertRow[];
}
type AlertField = keyof AlertRow;
const ALERT_FIELDS: readonly AlertField[] = ["categories", "near", "radiusMiles", "minBudget"];

const EMPTY_ALERT: AlertRow = { categories: [], near: "", radiusMiles: "10", minBudget: "" };

/** The form's text as the API's body: an empty budget is "no minimum". */
function toBody(form: AlertsForm): SaveJobAlertsBody {
  return {
    alerts: form.alerts.map((a) => ({
      categories: a.categories,
      near: a.near,
      radiusMiles: Number(a.radiusMiles),
      minBudget: a.minBudget.trim() === "" ? null : Number(a.minBudget),
    })),
  };
}

function toRow(alert: JobAlert): AlertRow {
  return { categories: alert.categories, near: alert.near, radiusMiles: String(alert.radiusMiles), minBudget: alert.minBudget === null ? "" : String(alert.minBudget) };
}

/** Where a message goes: "alerts.2.near" → alert 2's place; "alerts" → the list as a whole. */
function placeOf(path: readonly PropertyKey[]): { index: number; field: AlertField } | null {
  const [, index, field] = path;
  const found = ALERT_FIELDS.find((f) => f === field);
  return typeof index === "number" && found ? { index, field: found } : null;
}

const alertsResolver: Resolver<AlertsForm> = (values) => {
  const result = saveJobAlertsBodySchema.safeParse(toBody(values));
  if (result.success) return { values, errors: {} };
  const perAlert: NonNullable<FieldErrors<AlertsForm>["alerts"]> = [];
  let listMessage: string | null = null;
  for (const issue of result.error.issues) {
    const place = placeOf(issue.path);
    if (!place) {
      listMessage ??= issue.message;
      continue;
    }
    const row = (perAlert[place.index] ??= {});
    row[place.field] ??= { type: "validate", message: issue.message };
  }
  const errors: FieldErrors<AlertsForm> = { alerts: perAlert };
  if (listMessage) perAlert.root = { type: "validate", message: listMessage };
  return { values: {}, errors };
};

export function JobAlertsForm({ alerts }: { alerts: JobAlert[] }) {
  const save = useSaveJobAlerts();
  const form = useSchemaForm<AlertsForm>({ resolver: alertsResolver, defaultValues: { alerts: alerts.map(toRow) } });
  const list = useFieldArray({ control: form.control, name: "alerts" });
  const { errors } = form.formState;
  const full = list.fields.length >= MAX_JOB_ALERTS;

  const submit = form.handleSubmit((values) => {
    save.mutate(toBody(values), {
      onSuccess: (saved) => {
        form.reset({ alerts: saved.alerts.map(toRow) });
        toast({ title: "Job alerts saved", description: saved.alerts.length === 0 ? "You have no job alerts now." : "We'll tell you when a matching task is posted." });
      },
      onError: (error) => {
        // The server's refusals (a ZIP code it does not know) go under their fields too.
        const rest = form.showServerErrors(error, "Please try again.", (path) => {
          const place = placeOf(path.split(".").map((p) => (/^\d+$/.test(p) ? Number(p) : p)));
          return place ? `alerts.${place.index}.${place.field}` : null;
        });
        if (rest) toast({ title: "Could not save your job alerts", description: rest, variant: "destructive" });
      },
    });
  });

  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      {list.fields.length === 0 ? (
        <p className="text-sm text-muted-foreground">You have no job alerts yet. Add one to hear about new tasks near you as soon as they are posted.</p>
      ) : null}
      {list.fields.map((field, index) => (
        <AlertFieldset key={field.id} index={index} form={form} errors={errors.alerts?.[index]} onRemove={() => list.remove(index)} />
      ))}
      {errors.alerts?.root?.message ? <p className="text-sm font-medium text-destructive">{errors.alerts.root.message}</p> : null}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="button" variant="outline" disabled={full} onClick={() => list.append(EMPTY_ALERT, { shouldFocus: false })}>
          <Plus aria-hidden="true" /> Add an alert
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving..." : "Save alerts"}
        </Button>
        {full ? <p className="text-sm text-muted-foreground">You have {MAX_JOB_ALERTS} alerts, the most you can keep. Remove one to add another.</p> : null}
      </div>
    </form>
  );
}

type RowErrors = NonNullable<FieldErrors<AlertsForm>["alerts"]>[number];

function AlertFieldset({
  index,
  form,
  errors,
  onRemove,
}: {
  index: number;
  form: UseFormReturn<AlertsForm>;
  errors: RowErrors | undefined;
  onRemove: () => void;
}) {
  const categoriesErrorId = useId();
  const categoriesError = errors?.categories?.message;
  return (
    <fieldset className="grid min-w-0 gap-4 rounded-lg border border-border p-4">
      <legend className="px-1 text-base font-semibold">Alert {index + 1}</legend>
      <Controller
        control={form.control}
        name={`alerts.${index}.categories`}
        render={({ field }) => (
          <div role="group" aria-labelledby={`${categoriesErrorId}-label`} aria-describedby={categoriesError ? categoriesErrorId : undefined} className="grid gap-3">
            <p id={`${categoriesErrorId}-label`} className="text-sm font-medium">
              Categories
              <span aria-hidden="true" className="ml-0.5 text-destructive">
                *
              </span>
            </p>
            <div className="grid gap-3 sm:grid-cols-2">
              {CATEGORIES.map((category) => {
                const id = `alert-${index}-${category.value}`;
                return (
                  <div key={category.value} className="flex items-center gap-2">
                    <Checkbox
                      id={id}
                      checked={field.value.includes(category.value)}
                      aria-invalid={categoriesError ? true : undefined}
                      onCheckedChange={(checked) =>
                        field.onChange(checked === true ? [...field.value, category.value] : field.value.filter((v) => v !== category.value))
                      }
                    />
                    <Label htmlFor={id} className="font-normal">
                      {category.label}
                    </Label>
                  </div>
                );
              })}
            </div>
            {categoriesError ? (
              <p id={categoriesErrorId} className="text-sm font-medium text-destructive">
                {categoriesError}
              </p>
            ) : null}
          </div>
        )}
      />
      <div className="grid gap-4 sm:grid-cols-3">
        <FormField label="ZIP code or lat,lon" required className="content-start" error={errors?.near?.message}>
          <Input inputMode="text" autoComplete="postal-code" maxLength={60} placeholder="e.g. 21401" {...form.register(`alerts.${index}.near`)} />
        </FormField>
        <FormField label="Within" required className="content-start" error={errors?.radiusMiles?.message}>
          {(control) => (
            <Controller
              control={form.control}
              name={`alerts.${index}.radiusMiles`}
              render={({ field }) => (
                <Select value={field.value} onValueChange={field.onChange}>
                  <SelectTrigger {...control} onBlur={field.onBlur}>
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    {RADIUS_MILES.map((miles) => (
                      <SelectItem key={miles} value={String(miles)}>
                        {miles} miles
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              )}
            />
          )}
        </FormField>
        <FormField label="Lowest budget ($)" className="content-start" description="Empty: any budget" error={errors?.minBudget?.message}>
          <Input inputMode="decimal" placeholder="e.g. 30" {...form.register(`alerts.${index}.minBudget`)} />
        </FormField>
      </div>
      <div>
        <Button type="button" variant="ghost" size="sm" onClick={onRemove} aria-label={`Remove alert ${index + 1}`}>
          <Trash2 aria-hidden="true" /> Remove
        </Button>
      </div>
    </fieldset>
  );
}
