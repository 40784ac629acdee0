import { useId } from "react";
import { CATEGORIES, WEEKDAYS, type Category, type Weekday } from "@shared/constants";
import type { Availability } from "@shared/providers";
import { Checkbox } from "@/components/ui/checkbox";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";

// Fields shared by the application form and the profile editor.

const DAY_LABEL: Record<Weekday, string> = {
  monday: "Monday",
  tuesday: "Tuesday",
  wednesday: "Wednesday",
  thursday: "Thursday",
  friday: "Friday",
  saturday: "Saturday",
  sunday: "Sunday",
};

export function ServiceTypeFields({
  value,
  onChange,
  error,
}: {
  value: readonly Category[];
  onChange: (next: Category[]) => void;
  /** The form's validation message, shown under the choices. */
  error?: string;
}) {
  const errorId = useId();
  return (
    <fieldset className="grid gap-3" aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined}>
      <legend className="mb-2 text-sm font-medium">
        Service Types
        <span aria-hidden="true" className="ml-0.5 text-destructive">
          *
        </span>
      </legend>
      <div className="grid gap-3 sm:grid-cols-2">
        {CATEGORIES.map((category) => (
          <div key={category.value} className="flex items-center gap-2">
            <Checkbox
              id={`service-${category.value}`}
              checked={value.includes(category.value)}
              onCheckedChange={(checked) =>
                onChange(checked === true ? [...value, category.value] : value.filter((v) => v !== category.value))
              }
            />
            <Label htmlFor={`service-${category.value}`} className="font-normal">
              {category.label}
            </Label>
          </div>
        ))}
      </div>
      {error ? (
        <p id={errorId} className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

export function AvailabilityFields({ value, onChange }: { value: Availability; onChange: (next: Availability) => void }) {
  return (
    <fieldset className="grid gap-3">
      <legend className="mb-2 text-sm font-medium">Availability</legend>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {WEEKDAYS.map((day) => (
          <div key={day} className="flex items-center gap-2">
            <Switch id={`day-${day}`} checked={value[day] === true} onCheckedChange={(checked) => onChange({ ...value, [day]: checked })} />
            <Label htmlFor={`day-${day}`} className="font-normal">
              {DAY_LABEL[day]}
            </Label>
          </div>
        ))}
      </div>
    </fieldset>
  );
}
