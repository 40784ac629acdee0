import { formatDate } from "@/lib/dates";
import { MIN_BUDGET_CENTS, type Category, type HiringMode, type Urgency } from "@shared/constants";
import type { RequestFallback } from "@shared/task-requests";
import { felixContextOfTask, type FelixContext } from "@shared/felix";
import { dollarsToCents, priceTask, type TaskPrice } from "@shared/money";
import { budgetDollarsSchema } from "@shared/money-schemas";
import { createTaskBodySchema, scheduleProblem, SCHEDULE_MESSAGES, type GeocodeResult } from "@shared/tasks";
import type { PostTaskBody, ValidTaskBody } from "../api/create-task";

// The Post a Task wizard's model, kept pure so its rules are unit-tested without a browser. The
// wizard validates with the server's own createTaskBodySchema: the form is turned into the request
// body, and each refusal is mapped back to the field the person typed it in.

export interface AddressValue {
  address: string;
  city: string;
  state: string;
  /** Kept from a picked suggestion so the server can place the task without geocoding again. */
  lat: number | null;
  lon: number | null;
}

export type LocationMode = "single" | "route";

/** The provider the task is requested from (docs/product.md, Requesting a provider), and the poster's two choices. */
export interface RequestChoice {
  providerId: string;
  providerName: string;
  windowHours: number;
  fallback: RequestFallback;
  /**
   * One of the provider's free slots the poster chose (docs/decisions/074-time-and-turning-up.md):
   * with instant booking on, posting books it at once; else the request carries the time. It is
   * then the task's date, in place of the date and time fields.
   */
  time?: RequestTime | null;
}

export interface RequestTime {
  startsAt: string;
  endsAt: string;
  instant: boolean;
}

export interface PostTaskForm {
  title: string;
  description: string;
  category: Category | "";
  mode: LocationMode;
  location: AddressValue;
  start: AddressValue;
  stops: AddressValue[];
  end: AddressValue;
  budget: string;
  urgency: Urgency;
  hiringMode: HiringMode;
  date: string;
  time: string;
  /** Null for a task posted for everyone. */
  request: RequestChoice | null;
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
    hiringMode: "first_to_claim",
    date: "",
    time: "",
    request: null,
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

export type BudgetState =
  | { kind: "empty" }
  | { kind: "below_min" }
  | { kind: "invalid"; message: string }
  | { kind: "valid"; dollars: number; price: TaskPrice };

/** Below the $20 minimum (docs/product.md#fees) the field turns red; Next (step 2) and Post stay disabled until valid. */
export function budgetState(budget: string, urgency: Urgency): BudgetState {
  if (budget.trim() === "") return { kind: "empty" };
  const dollars = Number(budget);
  if (!Number.isFinite(dollars)) return { kind: "invalid", message: "Enter the budget as a number of dollars" };
  const parsed = budgetDollarsSchema.safeParse(dollars);
  if (parsed.success) return { kind: "valid", dollars, price: priceTask(dollarsToCents(dollars), urgency) };
  if (dollars >= 0 && dollarsToCents(dollars) < MIN_BUDGET_CENTS) return { kind: "below_min" };
  return { kind: "invalid", message: parsed.error.issues[0]?.message ?? "Enter a valid budget" };
}

/**
 * scheduledDate is built when both date and time are given, in local time with the browser's
 * offset ("2026-12-01T10:00:00-05:00"), so the server judges the hours on the poster's clock
 * (docs/product.md#dates-and-hours). A date without a time is refused by the form, never dropped.
 */
export function scheduledDateIso(date: string, time: string): string | null {
  if (!date || !time) return null;
  const when = new Date(`${date}T${time}`);
  return Number.isNaN(when.getTime()) ? null : formatDate(when, "yyyy-MM-dd'T'HH:mm:ssxxx");
}

/** The date-needed refusal and the field it belongs under, judged with the browser's clock. */
export function scheduleIssue(date: string, time: string, now: Date): FieldIssue | null {
  if (!date && !time) return null;
  if (!time) return { field: "time", message: SCHEDULE_MESSAGES.needsTime };
  if (!date) return { field: "date", message: SCHEDULE_MESSAGES.needsDate };
  const iso = scheduledDateIso(date, time);
  const problem = iso === null ? SCHEDULE_MESSAGES.invalid : scheduleProblem(iso, now);
  if (problem === null) return null;
  return { field: problem === SCHEDULE_MESSAGES.past || problem === SCHEDULE_MESSAGES.invalid ? "date" : "time", message: problem };
}

export function todayInputValue(now: Date): string {
  return formatDate(now, "yyyy-MM-dd");
}

const orNull = (value: string) => (value.trim() ? value.trim() : null);

/** The budget field as the number the API takes; an empty field is not a number (NaN) and is refused. */
function budgetNumber(budget: string): number {
  return budget.trim() === "" ? Number.NaN : Number(budget);
}

/** The stops that are sent: those with an address. */
function keptStops(form: PostTaskForm): { stop: AddressValue; index: number }[] {
  return form.stops.map((stop, index) => ({ stop, index })).filter(({ stop }) => stop.address.trim() !== "");
}

export function buildCreateTaskBody(form: PostTaskForm): PostTaskBody {
  const common = {
    title: form.title,
    description: form.description,
    category: form.category,
    budget: budgetNumber(form.budget),
    urgency: form.urgency,
    hiringMode: form.hiringMode,
    scheduledDate: form.request?.time ? null : scheduledDateIso(form.date, form.time),
    ...(form.request
      ? {
          request: {
            providerId: form.request.providerId,
            windowHours: form.request.windowHours,
            fallback: form.request.fallback,
            ...(form.request.time ? { startsAt: form.request.time.startsAt } : {}),
          },
        }
      : {}),
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
  const stops = keptStops(form).map(({ stop }) => ({
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
    // stops is null when empty (docs/product.md#tasks).
    stops: stops.length > 0 ? stops : null,
  };
}

/** The wizard's steps before the review, and the form fields each one asks for. */
export const STEP_FIELDS = {
  1: ["title", "description", "category"],
  2: ["mode", "location", "start", "stops", "end", "budget", "urgency", "hiringMode", "date", "time", "request"],
} as const satisfies Record<1 | 2, readonly (keyof PostTaskForm)[]>;

/** Which form field a path of the request body was typed in. */
const FIELD_OF_BODY: Record<string, string> = {
  title: "title",
  description: "description",
  category: "category",
  budget: "budget",
  urgency: "urgency",
  hiringMode: "hiringMode",
  request: "request",
  scheduledDate: "date",
  location: "location.address",
  city: "location.city",
  state: "location.state",
  lat: "location.address",
  lon: "location.address",
  startLocation: "start.address",
  startCity: "start.city",
  startState: "start.state",
  startLat: "start.address",
  startLon: "start.address",
  endLocation: "end.address",
  endCity: "end.city",
  endState: "end.state",
  endLat: "end.address",
  endLon: "end.address",
};

export interface FieldIssue {
  /** A form path: "title", "start.address", "stops.2.state". */
  field: string;
  message: string;
}

export type PostTaskValidation = { ok: true; body: ValidTaskBody } | { ok: false; issues: FieldIssue[] };

/**
 * The form field a path of the request body was typed in: "stops.1.state" of the body is the form's
 * stop that was second among those with an address. "root" when no field of the form holds it.
 */
export function formFieldOfBodyPath(form: PostTaskForm, path: readonly PropertyKey[]): string {
  const [head, index, part] = path;
  if (head === "stops") {
    const original = typeof index === "number" || (typeof index === "string" && /^\d+$/.test(index)) ? keptStops(form)[Number(index)]?.index : undefined;
    if (original === undefined) return "stops";
    return `stops.${original}.${part === "city" || part === "state" ? part : "address"}`;
  }
  return FIELD_OF_BODY[String(head)] ?? "root";
}

/** Validates the form with createTaskBodySchema and the date rule, and names each refusal by its form field. */
export function validatePostTaskForm(form: PostTaskForm, now: Date = new Date()): PostTaskValidation {
  const parsed = createTaskBodySchema.safeParse(buildCreateTaskBody(form));
  // A chosen free slot is the date (the fields are hidden then); the server checks it is still free.
  const schedule = form.request?.time ? null : scheduleIssue(form.date, form.time, now);
  if (parsed.success) return schedule ? { ok: false, issues: [schedule] } : { ok: true, body: parsed.data };
  const issues = parsed.error.issues.map((issue): FieldIssue => {
    // A refusal of no particular field (none today) is shown beside the buttons.
    const field = formFieldOfBodyPath(form, issue.path);
    if (field === "budget" && form.budget.trim() === "") return { field, message: "Enter a budget" };
    return { field, message: issue.message };
  });
  return { ok: false, issues: schedule ? [...issues.filter((i) => i.field !== "date"), schedule] : issues };
}

/** The step whose fields hold the first refusal, to show the person where to fix it. */
export function stepOf(field: string): 1 | 2 {
  const top = field.split(".")[0];
  return (STEP_FIELDS[1] as readonly string[]).includes(top ?? "") ? 1 : 2;
}

/**
 * What Felix reads of the half-filled form (docs/product.md#felix): the body about to be posted, through
 * the same felixContextOfTask the server uses on the posted task, so the poster's suggestion is the
 * one a provider gets for that task.
 */
export function felixContextOf(form: PostTaskForm): FelixContext {
  const budget = budgetState(form.budget, form.urgency);
  return {
    ...felixContextOfTask(buildCreateTaskBody(form)),
    offeredBudget: budget.kind === "valid" ? budget.dollars : null,
  };
}
