import { format } from "date-fns";
import { MIN_BUDGET_CENTS, type Category, type Urgency } from "@shared/constants";
import type { FelixContext } from "@shared/felix";
import { budgetDollarsSchema, dollarsToCents, priceTask, type TaskPrice } from "@shared/money";
import type { GeocodeResult } from "@shared/tasks";
import type { PostTaskBody } from "../api/create-task";

// The Post a Task wizard's model, kept pure so its rules are unit-tested without a browser.

export interface AddressValue {
  address: string;
  city: string;
  state: string;
  /** Kept from a picked suggestion so the server can place the task without geocoding again. */
  lat: number | null;
  lon: number | null;
}

export interface StopValue extends AddressValue {
  /** Stable React key: stops are reordered and removed. */
  key: string;
}

export type LocationMode = "single" | "route";

export interface PostTaskForm {
  title: string;
  description: string;
  category: Category | "";
  mode: LocationMode;
  location: AddressValue;
  start: AddressValue;
  stops: StopValue[];
  end: AddressValue;
  budget: string;
  urgency: Urgency;
  date: string;
  time: string;
}

export const emptyAddress: AddressValue = { address: "", city: "", state: "", lat: null, lon: null };

export function emptyPostTaskForm(): PostTaskForm {
  return {
    title: "",
    description: "",
    category: "",
    mode: "single",
    location: emptyAddress,
    start: emptyAddress,
    stops: [],
    end: emptyAddress,
    budget: "",
    urgency: "standard",
    date: "",
    time: "",
  };
}

/** A picked suggestion: street, town and two-letter state, plus its position. */
export function addressFromSuggestion(result: GeocodeResult): AddressValue {
  return { address: result.fullAddress, city: result.city, state: result.state, lat: result.lat, lon: result.lon };
}

/** Typing in an address field drops the position of an earlier pick: it no longer matches. */
export function addressFromTyping(previous: AddressValue, text: string): AddressValue {
  return { ...previous, address: text, lat: null, lon: null };
}

export function moveStop(stops: StopValue[], index: number, offset: -1 | 1): StopValue[] {
  const target = index + offset;
  if (target < 0 || target >= stops.length) return stops;
  const next = [...stops];
  const [moved] = next.splice(index, 1);
  if (moved) next.splice(target, 0, moved);
  return next;
}

export type BudgetState =
  | { kind: "empty" }
  | { kind: "below_min" }
  | { kind: "invalid"; message: string }
  | { kind: "valid"; dollars: number; price: TaskPrice };

/** Spec §5: below $20 the field turns red; Next (step 2) and Post stay disabled until valid. */
export function budgetState(budget: string, urgency: Urgency): BudgetState {
  if (budget.trim() === "") return { kind: "empty" };
  const dollars = Number(budget);
  if (!Number.isFinite(dollars)) return { kind: "invalid", message: "Enter the budget as a number of dollars" };
  const parsed = budgetDollarsSchema.safeParse(dollars);
  if (parsed.success) return { kind: "valid", dollars, price: priceTask(dollarsToCents(dollars), urgency) };
  if (dollars >= 0 && dollarsToCents(dollars) < MIN_BUDGET_CENTS) return { kind: "below_min" };
  return { kind: "invalid", message: parsed.error.issues[0]?.message ?? "Enter a valid budget" };
}

/** Spec §3: scheduledDate is built only when both date and time are given (local time). */
export function scheduledDateIso(date: string, time: string): string | null {
  if (!date || !time) return null;
  const when = new Date(`${date}T${time}`);
  return Number.isNaN(when.getTime()) ? null : when.toISOString();
}

export function todayInputValue(now: Date): string {
  return format(now, "yyyy-MM-dd");
}

const orNull = (value: string) => (value.trim() ? value.trim() : null);

export function buildCreateTaskBody(form: PostTaskForm, budgetDollars: number): PostTaskBody {
  const common = {
    title: form.title,
    description: form.description,
    category: form.category,
    budget: budgetDollars,
    urgency: form.urgency,
    scheduledDate: scheduledDateIso(form.date, form.time),
  };
  if (form.mode === "single") {
    return {
      ...common,
      location: orNull(form.location.address),
      city: orNull(form.location.city),
      state: orNull(form.location.state),
      lat: form.location.lat,
      lon: form.location.lon,
    };
  }
  const stops = form.stops
    .filter((stop) => stop.address.trim() !== "")
    .map((stop) => ({
      address: stop.address.trim(),
      city: orNull(stop.city),
      state: orNull(stop.state),
      lat: stop.lat,
      lon: stop.lon,
    }));
  return {
    ...common,
    startLocation: orNull(form.start.address),
    startCity: orNull(form.start.city),
    startState: orNull(form.start.state),
    startLat: form.start.lat,
    startLon: form.start.lon,
    endLocation: orNull(form.end.address),
    endCity: orNull(form.end.city),
    endState: orNull(form.end.state),
    endLat: form.end.lat,
    endLon: form.end.lon,
    // Spec §3: stops is null when empty.
    stops: stops.length > 0 ? stops : null,
  };
}

/** What Felix reads of the half-filled form (spec §3 Felix request context). */
export function felixContextOf(form: PostTaskForm): FelixContext {
  const budget = budgetState(form.budget, form.urgency);
  const base = {
    title: orNull(form.title),
    description: orNull(form.description),
    category: form.category || null,
    urgency: form.urgency,
    offeredBudget: budget.kind === "valid" ? budget.dollars : null,
  };
  if (form.mode === "single") {
    return {
      ...base,
      location: orNull(form.location.address),
      city: orNull(form.location.city),
      state: orNull(form.location.state),
      stops: [],
    };
  }
  return {
    ...base,
    startLocation: orNull(form.start.address),
    startCity: orNull(form.start.city),
    startState: orNull(form.start.state),
    endLocation: orNull(form.end.address),
    endCity: orNull(form.end.city),
    endState: orNull(form.end.state),
    stops: form.stops
      .filter((stop) => stop.address.trim() !== "")
      .map((stop) => ({ address: stop.address.trim(), city: orNull(stop.city), state: orNull(stop.state) })),
  };
}
