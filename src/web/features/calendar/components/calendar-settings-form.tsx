import { zodResolver } from "@hookform/resolvers/zod";
import { Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { Controller, useFieldArray, type FieldError } from "react-hook-form";
import {
  calendarSettingsSchema,
  MAX_MIN_NOTICE_HOURS,
  MAX_TASKS_PER_DAY,
  MAX_WINDOWS_PER_DAY,
  type CalendarAnswer,
  type CalendarSettings,
  type CalendarSettingsBody,
} from "@shared/calendar";
import { WEEKDAYS, type Weekday } from "@shared/constants";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";
import { toast } from "@/components/ui/use-toast";
import { useSchemaForm, type SchemaForm } from "@/lib/schema-form";
import { useSaveCalendarSettings } from "../api/calendar-settings";

// The provider's calendar (docs/product.md, "Time and turning up"): weekly hours per weekday on
// their own clock, days off, the notice they need, tasks a day at most, and instant booking. The
// form is judged by the schema the server enforces (calendarSettingsSchema); the server's
// refusals land under the field they name.

type CalendarForm = SchemaForm<CalendarSettingsBody, CalendarSettings>;

const DAY_LABELS: Record<Weekday, string> = {
  monday: "Monday",
  tuesday: "Tuesday",
  wednesday: "Wednesday",
  thursday: "Thursday",
  friday: "Friday",
  saturday: "Saturday",
  sunday: "Sunday",
};

/** The zones the browser knows, with the one saved first should the list lack it. */
function timeZones(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return known.includes(current) ? known : [current, ...known];
}

const selectClass =
  "flex h-10 w-full min-w-0 rounded-md border border-input bg-background px-3 py-2 text-base text-foreground focus-visible:outline-hidden focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background aria-invalid:border-destructive md:text-sm";

function toForm(saved: CalendarAnswer): CalendarSettingsBody {
  return {
    timeZone: saved.timeZone,
    weeklyHours: saved.weeklyHours,
    daysOff: saved.daysOff,
    minNoticeHours: saved.minNoticeHours,
    maxTasksPerDay: saved.maxTasksPerDay,
    instantBooking: saved.instantBooking,
  };
}

export function CalendarSettingsForm({ saved }: { saved: CalendarAnswer }) {
  const save = useSaveCalendarSettings();
  const form = useSchemaForm<CalendarSettingsBody, CalendarSettings>({
    resolver: zodResolver(calendarSettingsSchema),
    defaultValues: toForm(saved),
    mode: "onTouched",
  });
  const { errors } = form.formState;

  const submit = form.handleSubmit((body) =>
    save.mutate(body, {
      onSuccess: (answer) => {
        form.reset(toForm(answer));
        toast({ title: "Calendar saved", description: "Posters now see your free times from these hours." });
      },
      onError: (error) => {
        const rest = form.showServerErrors(error, "Your calendar could not be saved. Please try again.");
        if (rest) toast({ title: "Calendar not saved", description: rest, variant: "destructive" });
      },
    }),
  );

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-6">
      <FormField label="Your time zone" required description="Your hours are kept on this clock." error={errors.timeZone?.message}>
        <select className={selectClass} {...form.register("timeZone")}>
          {timeZones(saved.timeZone).map((zone) => (
            <option key={zone} value={zone}>
              {zone.replaceAll("_", " ")}
            </option>
          ))}
        </select>
      </FormField>

      <fieldset className="grid min-w-0 gap-4">
        <legend className="mb-1 text-base font-semibold">Weekly hours</legend>
        <p className="text-sm text-muted-foreground">A day without hours is a day you do not work. Times are on the quarter hour.</p>
        {WEEKDAYS.map((day) => (
          <DayHours key={day} form={form} day={day} />
        ))}
      </fieldset>

      <DaysOff form={form} />

      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Notice you need (hours)" description={`0 to ${MAX_MIN_NOTICE_HOURS}: how soon a poster may book you.`} error={errors.minNoticeHours?.message}>
          <Input type="number" inputMode="numeric" min={0} max={MAX_MIN_NOTICE_HOURS} step={1} {...form.register("minNoticeHours", { valueAsNumber: true })} />
        </FormField>
        <FormField label="Tasks a day at most" description={`1 to ${MAX_TASKS_PER_DAY}.`} error={errors.maxTasksPerDay?.message}>
          <Input type="number" inputMode="numeric" min={1} max={MAX_TASKS_PER_DAY} step={1} {...form.register("maxTasksPerDay", { valueAsNumber: true })} />
        </FormField>
      </div>

      <Controller
        control={form.control}
        name="instantBooking"
        render={({ field }) => (
          <div className="flex items-start justify-between gap-4">
            <div className="grid gap-1">
              <Label htmlFor="instant-booking">Instant booking</Label>
              <p id="instant-booking-hint" className="text-sm text-muted-foreground">
                On: a poster who picks one of your free times books you at once, and has 30 minutes to pay. Off: they send you a request with that time to accept or decline.
              </p>
            </div>
            <Switch id="instant-booking" aria-describedby="instant-booking-hint" checked={field.value ?? false} onCheckedChange={field.onChange} onBlur={field.onBlur} />
          </div>
        )}
      />

      <div>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving..." : "Save calendar"}
        </Button>
      </div>
    </form>
  );
}

/** One weekday's working windows: add, change and remove them. */
function DayHours({ form, day }: { form: CalendarForm; day: Weekday }) {
  const windows = useFieldArray({ control: form.control, name: `weeklyHours.${day}` });
  const dayErrors = form.formState.errors.weeklyHours?.[day] as (FieldError & Record<number, { from?: FieldError; to?: FieldError }>) | undefined;
  const label = DAY_LABELS[day];
  return (
    <fieldset className="grid min-w-0 gap-2 rounded-md border p-3" aria-describedby={dayErrors?.message ? `${day}-error` : undefined}>
      <legend className="px-1 text-sm font-medium">{label}</legend>
      {windows.fields.length === 0 ? <p className="text-sm text-muted-foreground">Not working</p> : null}
      {windows.fields.map((window, index) => (
        <div key={window.id} className="grid grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto] items-start gap-2">
          <FormField label={<>From <span className="sr-only">({label}, window {index + 1})</span></>} error={dayErrors?.[index]?.from?.message}>
            <Input type="time" step={900} {...form.register(`weeklyHours.${day}.${index}.from`)} />
          </FormField>
          <FormField label={<>To <span className="sr-only">({label}, window {index + 1})</span></>} error={dayErrors?.[index]?.to?.message}>
            <Input type="time" step={900} {...form.register(`weeklyHours.${day}.${index}.to`)} />
          </FormField>
          <Button type="button" variant="ghost" size="icon" className="mt-7" onClick={() => windows.remove(index)}>
            <Trash2 aria-hidden="true" />
            <span className="sr-only">
              Remove {label} window {index + 1}
            </span>
          </Button>
        </div>
      ))}
      {dayErrors?.message ? (
        <p id={`${day}-error`} className="text-sm font-medium text-destructive">
          {dayErrors.message}
        </p>
      ) : null}
      {windows.fields.length < MAX_WINDOWS_PER_DAY ? (
        <div>
          <Button type="button" variant="outline" size="sm" onClick={() => windows.append(windows.fields.length === 0 ? { from: "09:00", to: "17:00" } : { from: "18:00", to: "20:00" })}>
            <Plus aria-hidden="true" /> Add hours <span className="sr-only">on {label}</span>
          </Button>
        </div>
      ) : null}
    </fieldset>
  );
}

/** Dates the provider does not work, whatever the weekday. */
function DaysOff({ form }: { form: CalendarForm }) {
  const [picked, setPicked] = useState("");
  const errors = form.formState.errors.daysOff as (FieldError & Record<number, FieldError | undefined>) | undefined;
  const itemError = errors ? Object.values(errors).find((e): e is FieldError => typeof e === "object" && e !== null && "message" in e && typeof e.message === "string") : undefined;
  const message = errors?.message ?? itemError?.message;
  return (
    <Controller
      control={form.control}
      name="daysOff"
      render={({ field }) => {
        const days = field.value ?? [];
        const add = () => {
          if (!picked || days.includes(picked)) return;
          field.onChange([...days, picked].sort());
          setPicked("");
        };
        return (
          <fieldset className="grid min-w-0 gap-2">
            <legend className="mb-1 text-base font-semibold">Days off</legend>
            <div className="flex flex-wrap items-end gap-2">
              <FormField label="Day off" error={message} className="min-w-0 flex-1">
                <Input type="date" value={picked} onChange={(event) => setPicked(event.target.value)} />
              </FormField>
              <Button type="button" variant="outline" onClick={add} disabled={!picked} className={message ? "mb-7" : undefined}>
                <Plus aria-hidden="true" /> Add day off
              </Button>
            </div>
            {days.length > 0 ? (
              <ul className="flex flex-wrap gap-2" aria-label="Your days off">
                {days.map((day) => (
                  <li key={day} className="flex items-center gap-1 rounded-full border py-0.5 pr-1 pl-3 text-sm">
                    <time dateTime={day}>{day}</time>
                    <Button type="button" variant="ghost" size="icon" className="size-7" onClick={() => field.onChange(days.filter((d) => d !== day))}>
                      <Trash2 aria-hidden="true" />
                      <span className="sr-only">Remove day off {day}</span>
                    </Button>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-sm text-muted-foreground">No days off planned.</p>
            )}
          </fieldset>
        );
      }}
    />
  );
}
