import { useId } from "react";
import type { Slot } from "@shared/calendar";
import { Skeleton } from "@/components/ui/skeleton";
import { errorMessage } from "@/lib/api";
import { useProviderSlots } from "../api/provider-slots";
import { groupSlotsByDay, slotWords, viewerTimeZone } from "./slot-groups";

export interface SlotChoice {
  slot: Slot;
  /** Whether choosing it books the provider at once (else it is sent as a request with this time). */
  instant: boolean;
}

export interface SlotPickerProps {
  providerId: string;
  /** How long the task takes: the slots are this long. */
  durationMinutes: number;
  /** Who the slots are of, for the words: "Sam" or "your". */
  providerName: string;
  /** The chosen start, or null. */
  value: string | null;
  onChange: (choice: SlotChoice | null) => void;
  /** A refusal to show under the list (the server's, once the time was taken meanwhile). */
  error?: string | undefined;
  /** The viewer's zone; the browser's own unless a test pins it. */
  timeZone?: string;
}

/**
 * A provider's free slots for the next two weeks, grouped by day on the viewer's clock. One radio
 * group: Tab reaches it once, the arrow keys move between times, Space chooses (docs/product.md,
 * "Time and turning up"; the page is keyboard operable as every form is).
 */
export function SlotPicker({ providerId, durationMinutes, providerName, value, onChange, error, timeZone = viewerTimeZone() }: SlotPickerProps) {
  const slots = useProviderSlots(providerId, durationMinutes);
  const name = useId();
  const errorId = `${name}-error`;
  const hintId = `${name}-hint`;
  const days = slots.data ? groupSlotsByDay(slots.data.slots, timeZone) : [];
  const instant = slots.data?.instantBooking ?? false;
  const chosen = slots.data?.slots.find((slot) => slot.startsAt === value) ?? null;

  return (
    <fieldset className="grid min-w-0 gap-2" aria-describedby={[hintId, error ? errorId : null].filter(Boolean).join(" ")} aria-invalid={error ? true : undefined}>
      <legend className="mb-1 text-sm font-medium">{providerName === "your" ? "Your free times" : `${providerName}'s free times`}</legend>
      <p id={hintId} className="text-sm text-muted-foreground">
        The next two weeks, {durationMinutes / 60} {durationMinutes === 60 ? "hour" : "hours"} each, in your time zone ({timeZone.replaceAll("_", " ")}).
        {slots.data && providerName !== "your" ? (instant ? " Choosing a time books it at once." : " Choosing a time sends it with your request.") : null}
      </p>
      {slots.isLoading ? <Skeleton className="h-24 w-full" /> : null}
      {slots.isError ? <p className="text-sm text-destructive">{errorMessage(slots.error, "Could not load the free times")}</p> : null}
      {slots.data && days.length === 0 ? (
        <p className="text-sm">{slots.data.timeZone === null ? "No calendar yet: no free times to choose from." : "No free times in the next two weeks."}</p>
      ) : null}
      {days.length > 0 ? (
        <div className="grid max-h-80 min-w-0 gap-3 overflow-y-auto rounded-md border p-3">
          {days.map((day) => (
            <div key={day.date} role="group" aria-labelledby={`${name}-${day.date}`} className="grid gap-1.5">
              <p id={`${name}-${day.date}`} className="text-sm font-semibold">
                {day.label}
              </p>
              <div className="flex flex-wrap gap-2">
                {day.slots.map(({ slot, label }) => {
                  const id = `${name}-${slot.startsAt}`;
                  return (
                    <div key={slot.startsAt}>
                      <input
                        id={id}
                        type="radio"
                        name={name}
                        value={slot.startsAt}
                        checked={value === slot.startsAt}
                        onChange={() => onChange({ slot, instant })}
                        className="peer sr-only"
                      />
                      <label
                        htmlFor={id}
                        className="inline-flex h-9 cursor-pointer items-center rounded-md border border-input px-3 text-sm peer-checked:border-primary peer-checked:bg-primary peer-checked:text-primary-foreground peer-focus-visible:ring-2 peer-focus-visible:ring-ring peer-focus-visible:ring-offset-2"
                      >
                        {label}
                        <span className="sr-only">, {day.label}</span>
                      </label>
                    </div>
                  );
                })}
              </div>
            </div>
          ))}
        </div>
      ) : null}
      {chosen ? (
        <p role="status" className="text-sm font-medium">
          Chosen: {slotWords(chosen, timeZone)}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
