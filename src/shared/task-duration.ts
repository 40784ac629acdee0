import { DEFAULT_DURATION_MINUTES, DURATION_STEP_MINUTES, MAX_DURATION_MINUTES, MIN_DURATION_MINUTES } from "./calendar.js";
import { estimateWork } from "./felix-work.js";

// A task's expected length on its provider's calendar (docs/decisions/074-time-and-turning-up.md),
// apart from the calendar's contracts so that the pages that only read those do not load Felix's
// reader of the work.

/** A visit (a pet drop-in) is half an hour; a night (pet sitting) blocks twelve hours of the provider's day. */
const VISIT_MINUTES = 30;
const NIGHT_MINUTES = 12 * 60;

export interface DurationInput {
  /** The poster's own estimate, in minutes; null when they gave none. */
  estimatedMinutes?: number | null;
  category: string;
  title: string;
  description: string;
}

const toStep = (minutes: number) =>
  Math.min(MAX_DURATION_MINUTES, Math.max(MIN_DURATION_MINUTES, Math.ceil(minutes / DURATION_STEP_MINUTES) * DURATION_STEP_MINUTES));

/**
 * How long a task takes on the provider's calendar: the poster's estimate when they gave one, else
 * Felix's reading of the work (src/shared/felix-work.ts: hours per helper, as the helpers work side
 * by side; a visit is half an hour; a night blocks twelve hours), in quarter hours, 15 minutes to 12
 * hours. The server stores it when the task is posted, so a later change of Felix's rules does not
 * move a booked task's end.
 */
export function expectedDurationMinutes(task: DurationInput): number {
  if (task.estimatedMinutes != null) return toStep(task.estimatedMinutes);
  const work = estimateWork({ category: task.category, title: task.title, description: task.description });
  if (work.unit === "visit") return VISIT_MINUTES;
  if (work.unit === "night") return NIGHT_MINUTES;
  return Number.isFinite(work.quantity.mid) && work.quantity.mid > 0 ? toStep(work.quantity.mid * 60) : DEFAULT_DURATION_MINUTES;
}

