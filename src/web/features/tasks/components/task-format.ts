import { formatDate, timeAgo } from "@/lib/dates";
import type { TaskStatus, UserRole } from "@shared/constants";
import type { FelixContext } from "@shared/felix";
import type { TaskDetail, TaskPublic, TaskSettlement } from "@shared/tasks";

// Display rules shared by the job board, the task page and the dashboard (docs/product.md#web-app).

export type BadgeVariant = "default" | "secondary" | "destructive";

/** Status badges (docs/product.md#web-app): open and requested secondary; claimed, in_progress, completed default; cancelled, payment_expired destructive. */
export function statusBadgeVariant(status: TaskStatus, settlement: TaskSettlement | null = null): BadgeVariant {
  if (settlement) return "secondary";
  switch (status) {
    case "open":
    case "requested":
      return "secondary";
    case "claimed":
    case "in_progress":
    case "completed":
      return "default";
    case "cancelled":
    case "payment_expired":
      return "destructive";
  }
}

const STATUS_LABELS: Record<TaskStatus, string> = {
  open: "Open",
  claimed: "Claimed",
  in_progress: "In Progress",
  completed: "Completed",
  cancelled: "Cancelled",
  payment_expired: "Payment Expired",
  requested: "Requested",
};

/** A task an admin's resolution ended reads how its money was settled, not just "Cancelled" (docs/product.md, Money: disputes). */
const SETTLEMENT_LABELS: Record<TaskSettlement, string> = {
  refunded: "Resolved: refunded",
  partly_refunded: "Resolved: partly refunded",
  provider_paid: "Resolved: provider paid",
};

export function statusLabel(status: TaskStatus, settlement: TaskSettlement | null = null): string {
  return settlement ? SETTLEMENT_LABELS[settlement] : STATUS_LABELS[status];
}

function place(city: string | null, state: string | null): string | null {
  const parts = [city, state].filter((part): part is string => Boolean(part));
  return parts.length > 0 ? parts.join(", ") : null;
}

/** Where a task happens without its street addresses: "Annapolis, MD" or "Bowie → Annapolis (+1 stop)". */
export function publicPlace(task: Pick<TaskPublic, "isRoute" | "city" | "state" | "startCity" | "startState" | "endCity" | "endState" | "stopCount">): string {
  if (!task.isRoute) return place(task.city, task.state) ?? "Location shared after claim";
  const start = task.startCity ?? place(null, task.startState) ?? "Start";
  const end = task.endCity ?? place(null, task.endState) ?? "End";
  const stops = task.stopCount > 0 ? ` (+${task.stopCount} ${task.stopCount === 1 ? "stop" : "stops"})` : "";
  return `${start} → ${end}${stops}`;
}

/** A card's time is relative ('x ago'), or 'Recently' without a createdAt (docs/product.md#web-app). */
export function relativeTime(createdAt: string | null | undefined, now: Date = new Date()): string {
  if (!createdAt) return "Recently";
  const when = new Date(createdAt);
  if (Number.isNaN(when.getTime())) return "Recently";
  // A clock a few seconds behind the server's must not print "in less than a minute".
  return when.getTime() > now.getTime() ? "less than a minute ago" : timeAgo(when, now);
}

/** Dashboard dates 'MMM d, h:mm a' (docs/product.md#web-app). */
export function dashboardDate(iso: string): string {
  return formatDate(new Date(iso), "MMM d, h:mm a");
}

/** Scheduled dates 'MMM d, yyyy at h:mm a' (docs/product.md#web-app). */
export function scheduledDateLabel(iso: string): string {
  return formatDate(new Date(iso), "MMM d, yyyy 'at' h:mm a");
}

/**
 * The same label on another clock, with that zone's name: "Dec 1, 2026 at 10:00 AM EST". The HTML
 * the server renders cannot know the reader's zone, so it names the office's (docs/product.md#web-app).
 */
export function scheduledDateLabelIn(iso: string, timeZone: string): string {
  const options: Intl.DateTimeFormatOptions = { timeZone, month: "short", day: "numeric", year: "numeric", hour: "numeric", minute: "2-digit", timeZoneName: "short" };
  const part = Object.fromEntries(new Intl.DateTimeFormat("en-US", options).formatToParts(new Date(iso)).map((p) => [p.type, p.value]));
  return `${part.month} ${part.day}, ${part.year} at ${part.hour}:${part.minute} ${part.dayPeriod} ${part.timeZoneName}`;
}

/** Minutes and seconds remaining, or 'Expired' (docs/product.md#web-app). */
export function countdownLabel(deadline: string, now: Date): string {
  const left = Math.floor((new Date(deadline).getTime() - now.getTime()) / 1000);
  if (!(left > 0)) return "Expired";
  const minutes = Math.floor(left / 60);
  const seconds = left % 60;
  return `${minutes}m ${String(seconds).padStart(2, "0")}s`;
}

export function dollars(amount: number): string {
  return amount.toLocaleString("en-US", { style: "currency", currency: "USD" });
}

export type DashboardView = "user" | "provider";

export const VIEW_MODE_STORAGE_KEY = "dashboardViewMode";

/** Dashboard view mode (docs/product.md#roles): both starts from the stored choice (default provider). */
export function initialDashboardView(role: UserRole, stored: string | null): DashboardView {
  if (role === "both" || role === "provider") return stored === "user" ? "user" : "provider";
  return "user";
}

/** Anyone may post a task, a provider included, so everyone has "My Tasks"; "My Jobs" is for providers. */
export function canUseView(role: UserRole, view: DashboardView): boolean {
  return view === "user" ? true : role === "provider" || role === "both";
}

/**
 * What Felix's evaluator reads of a task: street addresses only when the viewer may see them, and
 * the task's id, from which the server takes the engine inputs (route, stops, urgency) of the task
 * itself, so the provider's answer matches the poster's (docs/decisions/026-one-felix-budget-for-both-sides.md).
 */
export function taskFelixContext(task: TaskPublic | TaskDetail): FelixContext {
  const addresses =
    "visibility" in task && task.visibility === "private"
      ? {
          location: task.location,
          startLocation: task.startLocation,
          endLocation: task.endLocation,
          stops: (task.stops ?? []).flatMap((s) => (s.address ? [{ address: s.address, city: s.city, state: s.state }] : [])),
        }
      : { stops: [] };
  return {
    title: task.title,
    description: task.description,
    category: task.category,
    city: task.city,
    state: task.state,
    startCity: task.startCity,
    startState: task.startState,
    endCity: task.endCity,
    endState: task.endState,
    urgency: task.urgency,
    offeredBudget: task.budget,
    taskId: task.id,
    ...addresses,
  };
}
