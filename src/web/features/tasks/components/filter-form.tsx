import { LocateFixed } from "lucide-react";
import { useState } from "react";
import { Controller, useWatch, type FieldErrors, type Resolver } from "react-hook-form";
import { boardFiltersSchema } from "@shared/task-filter-schemas";
import { parseNear, RADIUS_MILES, TASK_WHEN, WHEN_LABELS } from "@shared/task-filters";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { RadioGroup, RadioGroupItem } from "@/components/ui/radio-group";
import { useSchemaForm } from "@/lib/schema-form";
import { BOARD_SORTS, DEFAULT_RADIUS, type BoardFilterValues, type BoardSort } from "./board-filters";

// The job board's filter form (docs/product.md#job-board-filters): place, radius, budget, when and
// the sort, judged by the same shared schema as the API's query, applied together to the URL. One
// chunk with its panel (filter-popover.tsx), loaded when the Filter button is first reached
// (filter-panel.tsx): react-hook-form and the radio groups are no part of the board's first paint
// (issue 17, docs/decisions/041-forms-loaded-on-first-use.md).

/**
 * The place is a ZIP code typed in its box, or the position "Near me" found ("lat,lon"), kept out of
 * the box: a person reads "Using your current location", never the coordinates (issue 27).
 */
interface FilterFields {
  zip: string;
  point: string;
  radiusMiles: string;
  minBudget: string;
  maxBudget: string;
  when: string;
  sort: BoardSort;
}

const FIELDS = ["radiusMiles", "minBudget", "maxBudget", "when"] as const;

/** The place the form searches around, as the API's `near` carries it. */
const nearOf = (form: Pick<FilterFields, "zip" | "point">) => form.point || form.zip.trim();

/** The form's text as the API's query would carry it: empty fields are absent. */
function queryOf(form: FilterFields): Record<string, string> {
  const near = nearOf(form);
  const query: Record<string, string> = near ? { near } : {};
  for (const key of FIELDS) {
    const value = form[key].trim();
    if (value && value !== "any" && !(key === "radiusMiles" && !near)) query[key] = value;
  }
  return query;
}

/** react-hook-form judged by the shared schema: each message goes under the field it names. */
const filterResolver: Resolver<FilterFields> = (values) => {
  const result = boardFiltersSchema.safeParse(queryOf(values));
  if (result.success) return { values, errors: {} };
  const errors: FieldErrors<FilterFields> = {};
  for (const issue of result.error.issues) {
    const field = FIELDS.find((f) => f === issue.path[0]) ?? "zip";
    errors[field] ??= { type: "validate", message: issue.message };
  }
  return { values: {}, errors };
};

function toForm(values: BoardFilterValues, sort: BoardSort): FilterFields {
  const near = values.near ?? "";
  const place = near ? parseNear(near) : null;
  const isPoint = typeof place === "object" && place?.kind === "point";
  return {
    zip: isPoint ? "" : near,
    point: isPoint ? near : "",
    radiusMiles: String(values.radiusMiles ?? DEFAULT_RADIUS),
    minBudget: values.minBudget === undefined ? "" : String(values.minBudget),
    maxBudget: values.maxBudget === undefined ? "" : String(values.maxBudget),
    when: values.when ?? "any",
    sort,
  };
}

function fromForm(form: FilterFields): BoardFilterValues {
  const parsed = boardFiltersSchema.parse(queryOf(form));
  const near = nearOf(form);
  return {
    ...(near ? { near, radiusMiles: parsed.radiusMiles ?? DEFAULT_RADIUS } : {}),
    ...(parsed.minBudget !== undefined ? { minBudget: parsed.minBudget } : {}),
    ...(parsed.maxBudget !== undefined ? { maxBudget: parsed.maxBudget } : {}),
    ...(parsed.when ? { when: parsed.when } : {}),
  };
}

const HERE_NOTE = "Using your current location. Type a ZIP code to search somewhere else.";

/** The browser's position, rounded to 0.01° (about a kilometre): the board needs no more. */
function currentPosition(): Promise<string | null> {
  return new Promise((resolve) => {
    if (!("geolocation" in navigator)) {
      resolve(null);
      return;
    }
    navigator.geolocation.getCurrentPosition(
      (p) => resolve(`${p.coords.latitude.toFixed(2)},${p.coords.longitude.toFixed(2)}`),
      () => resolve(null),
      { timeout: 10_000, maximumAge: 600_000 },
    );
  });
}

export interface FilterFormProps {
  values: BoardFilterValues;
  sort: BoardSort;
  /** "Near me" without the browser's position: the ZIP code of the provider's profile, when they have one. */
  fallbackZip: string | null;
  /** Called with the new filters (empty for "Clear all"); the panel then closes. */
  onApply: (values: BoardFilterValues, sort: BoardSort) => void;
}

/** Mounted each time the panel opens, so it starts from what the URL holds now (Back may have changed it). */
export function FilterForm({ values, sort, fallbackZip, onApply }: FilterFormProps) {
  const [locating, setLocating] = useState(false);
  const form = useSchemaForm<FilterFields>({ resolver: filterResolver, defaultValues: toForm(values, sort) });
  const [nearNote, setNearNote] = useState<string | null>(form.getValues("point") ? HERE_NOTE : null);
  const { errors } = form.formState;
  const zip = useWatch({ control: form.control, name: "zip" });
  const point = useWatch({ control: form.control, name: "point" });
  const near = nearOf({ zip, point });
  const sorts = near ? [...BOARD_SORTS, { value: "distance" as const, label: "Distance: nearest first" }] : BOARD_SORTS;

  const nearMe = async () => {
    setLocating(true);
    const position = await currentPosition();
    setLocating(false);
    if (position || fallbackZip) {
      form.setValue("point", position ?? "", { shouldDirty: true });
      form.setValue("zip", position ? "" : (fallbackZip ?? ""), { shouldDirty: true });
      form.clearErrors("zip");
      setNearNote(position ? HERE_NOTE : "Location is off, so we used the ZIP code from your profile.");
    } else {
      form.setError("zip", { type: "validate", message: "Your location is not available. Type a ZIP code instead." }, { shouldFocus: true });
      setNearNote(null);
    }
  };

  const submit = form.handleSubmit((form) => {
    const next = fromForm(form);
    // The map's area stays unless a place replaces it (docs/decisions/031-job-board-map.md).
    if (values.bbox && !next.near) next.bbox = values.bbox;
    onApply(next, form.sort === "distance" && !next.near ? "newest" : form.sort);
  });

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="grid gap-4" aria-label="Filter tasks">
      <FormField label="Near (ZIP code)" error={errors.zip?.message} description={nearNote ?? undefined}>
        {(control) => (
          <div className="flex gap-2">
            <Input
              {...control}
              {...form.register("zip", {
                // A typed ZIP code replaces the position "Near me" found.
                onChange: () => {
                  if (!form.getValues("point")) return;
                  form.setValue("point", "");
                  setNearNote(null);
                },
              })}
              inputMode="numeric"
              autoComplete="postal-code"
              placeholder="e.g. 21401"
              className="min-w-0 flex-1"
            />
            <Button type="button" variant="outline" onClick={() => void nearMe()} disabled={locating}>
              <LocateFixed aria-hidden="true" /> {locating ? "Locating..." : "Near me"}
            </Button>
          </div>
        )}
      </FormField>

      <Controller
        control={form.control}
        name="radiusMiles"
        render={({ field }) => (
          <fieldset className="grid gap-2" disabled={!near}>
            <legend className="mb-2 text-sm font-medium">Within</legend>
            <RadioGroup value={field.value} onValueChange={field.onChange} className="flex flex-wrap gap-x-4" aria-label="Within">
              {RADIUS_MILES.map((r) => (
                <div key={r} className="flex items-center gap-1.5">
                  <RadioGroupItem id={`radius-${r}`} value={String(r)} />
                  <Label htmlFor={`radius-${r}`}>{r} mi</Label>
                </div>
              ))}
            </RadioGroup>
            {errors.radiusMiles && <p className="text-sm font-medium text-destructive">{errors.radiusMiles.message}</p>}
          </fieldset>
        )}
      />

      <div className="grid grid-cols-2 gap-3">
        <FormField label="Budget from ($)" error={errors.minBudget?.message}>
          <Input {...form.register("minBudget")} inputMode="decimal" placeholder="e.g. 20" />
        </FormField>
        <FormField label="Budget to ($)" error={errors.maxBudget?.message}>
          <Input {...form.register("maxBudget")} inputMode="decimal" placeholder="e.g. 100" />
        </FormField>
      </div>

      <Controller
        control={form.control}
        name="when"
        render={({ field }) => (
          <fieldset>
            <legend className="mb-2 text-sm font-medium">When</legend>
            <RadioGroup value={field.value} onValueChange={field.onChange} aria-label="When" className="flex flex-wrap gap-x-4 gap-y-2">
              {(["any", ...TASK_WHEN] as const).map((w) => (
                <div key={w} className="flex items-center gap-2">
                  <RadioGroupItem id={`when-${w}`} value={w} />
                  <Label htmlFor={`when-${w}`}>{w === "any" ? "Any time" : WHEN_LABELS[w]}</Label>
                </div>
              ))}
            </RadioGroup>
          </fieldset>
        )}
      />

      <Controller
        control={form.control}
        name="sort"
        render={({ field }) => (
          <fieldset>
            <legend className="mb-2 text-sm font-medium">Sort by</legend>
            <RadioGroup value={field.value} onValueChange={field.onChange} aria-label="Sort tasks by" className="flex flex-wrap gap-x-4 gap-y-2">
              {sorts.map((s) => (
                <div key={s.value} className="flex items-center gap-2">
                  <RadioGroupItem id={`sort-${s.value}`} value={s.value} />
                  <Label htmlFor={`sort-${s.value}`}>{s.label}</Label>
                </div>
              ))}
            </RadioGroup>
          </fieldset>
        )}
      />

      <div className="flex justify-between gap-2">
        <Button
          type="button"
          variant="ghost"
          onClick={() => onApply({}, "newest")}
        >
          Clear all
        </Button>
        <Button type="submit">Show tasks</Button>
      </div>
    </form>
  );
}
