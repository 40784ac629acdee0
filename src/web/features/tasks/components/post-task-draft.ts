import { CATEGORY_VALUES, HIRING_MODES, URGENCIES } from "@shared/constants";
import { REQUEST_FALLBACKS, REQUEST_WINDOW_HOURS } from "@shared/task-requests";
import { emptyAddress, emptyPostTaskForm, type AddressValue, type PostTaskForm, type RequestChoice } from "./post-task-form";

// The Post a Task draft (docs/product.md#post-a-task-draft): what was typed survives a reload, a
// close, Back and a sign-in, in this browser's localStorage under one key, and is cleared after a
// successful post. The wizard holds no card data, so none is ever stored.

export const POST_TASK_DRAFT_KEY = "errandly:post-task-draft:v1";

export interface PostTaskDraft {
  step: number;
  form: PostTaskForm;
}

const text = (value: unknown): string => (typeof value === "string" ? value : "");
const coordinate = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);

function address(value: unknown): AddressValue {
  if (typeof value !== "object" || value === null) return emptyAddress;
  const v = value as Record<string, unknown>;
  return { address: text(v.address), city: text(v.city), state: text(v.state), lat: coordinate(v.lat), lon: coordinate(v.lon) };
}

function requestChoice(value: unknown): RequestChoice | null {
  if (typeof value !== "object" || value === null) return null;
  const v = value as Record<string, unknown>;
  const windowHours = REQUEST_WINDOW_HOURS.find((h) => h === v.windowHours);
  const fallback = REQUEST_FALLBACKS.find((f) => f === v.fallback);
  if (typeof v.providerId !== "string" || windowHours === undefined || fallback === undefined) return null;
  return { providerId: v.providerId, providerName: text(v.providerName), windowHours, fallback };
}

/** Reads a stored draft back field by field, so an old or tampered value can only fall back to empty. */
export function parsePostTaskDraft(raw: string | null): PostTaskDraft | null {
  if (!raw) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof parsed !== "object" || parsed === null) return null;
  const { step, form } = parsed as { step?: unknown; form?: unknown };
  if (typeof form !== "object" || form === null) return null;
  const f = form as Record<string, unknown>;
  const empty = emptyPostTaskForm();
  const category = CATEGORY_VALUES.find((c) => c === f.category) ?? "";
  const urgency = URGENCIES.find((u) => u === f.urgency) ?? empty.urgency;
  const hiringMode = HIRING_MODES.find((m) => m === f.hiringMode) ?? empty.hiringMode;
  return {
    step: step === 2 || step === 3 ? step : 1,
    form: {
      title: text(f.title),
      description: text(f.description),
      category,
      mode: f.mode === "route" ? "route" : "single",
      location: address(f.location),
      start: address(f.start),
      stops: Array.isArray(f.stops) ? f.stops.map(address) : [],
      end: address(f.end),
      budget: text(f.budget),
      urgency,
      hiringMode,
      date: text(f.date),
      time: text(f.time),
      request: requestChoice(f.request),
    },
  };
}

/** An untouched form is no draft: nothing is stored for it. */
function isEmpty(form: PostTaskForm): boolean {
  return JSON.stringify(form) === JSON.stringify(emptyPostTaskForm());
}

export function loadPostTaskDraft(): PostTaskDraft | null {
  try {
    return parsePostTaskDraft(window.localStorage.getItem(POST_TASK_DRAFT_KEY));
  } catch {
    // Storage refused (private mode, quota): the wizard starts empty.
    return null;
  }
}

export function savePostTaskDraft(draft: PostTaskDraft): void {
  try {
    if (isEmpty(draft.form)) window.localStorage.removeItem(POST_TASK_DRAFT_KEY);
    else window.localStorage.setItem(POST_TASK_DRAFT_KEY, JSON.stringify(draft));
  } catch {
    // A full or refused storage only costs the draft.
  }
}

export function clearPostTaskDraft(): void {
  try {
    window.localStorage.removeItem(POST_TASK_DRAFT_KEY);
  } catch {
    // Nothing stored.
  }
}
