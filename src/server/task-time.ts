import tzlookup from "@photostructure/tz-lookup";
import ical, { ICalCalendarMethod } from "ical-generator";
import { FEED_LOOKBACK_DAYS, formatTimeRange, stateTimeZone } from "../shared/calendar.js";
import { OFFICE_TIME_ZONE } from "../shared/office-clock.js";
import { formatPlace } from "../shared/places.js";
import type { MailAttachment } from "./db/schema/site.js";
import type { TaskRow } from "./transition-actions.js";

// A task's time as the server tells it (docs/decisions/074-time-and-turning-up.md): the zone of its
// place, looked up offline from its position (@photostructure/tz-lookup, the time zone boundaries
// in 100 kB), else from its state; and its iCalendar events (ical-generator), for the feeds and the
// invitations e-mails carry. Events are written in UTC: a local time with its zone's name cannot say
// which 1:30 AM it means on the night clocks go back, an instant can; each calendar shows it on its
// reader's own clock.

interface Place {
  lat?: number | null;
  lon?: number | null;
  state?: string | null;
}

/** The IANA zone of a place: by its position, else its state, else the office's. */
export function placeTimeZone(place: Place): string {
  if (typeof place.lat === "number" && typeof place.lon === "number") {
    try {
      return tzlookup(place.lat, place.lon);
    } catch {
      // An impossible position: the state decides.
    }
  }
  return stateTimeZone(place.state) ?? OFFICE_TIME_ZONE;
}

/** The zone a task's time is told in: the one kept when it was posted, else its place's (tasks posted before it was kept). */
export function taskTimeZone(task: Pick<TaskRow, "timeZone" | "lat" | "lon" | "startLat" | "startLon" | "approxLat" | "approxLon" | "state" | "startState">): string {
  return (
    task.timeZone ??
    placeTimeZone({ lat: task.lat ?? task.startLat ?? task.approxLat, lon: task.lon ?? task.startLon ?? task.approxLon, state: task.state ?? task.startState })
  );
}

/** When a dated task starts and ends on its provider's calendar; null without a date. */
export function taskSpan(task: Pick<TaskRow, "scheduledDate" | "durationMinutes">): { startsAt: Date; endsAt: Date } | null {
  if (!task.scheduledDate) return null;
  return { startsAt: task.scheduledDate, endsAt: new Date(task.scheduledDate.getTime() + task.durationMinutes * 60_000) };
}

/** One task as a calendar event: its id is the event's, so a moved time replaces the old one in the reader's calendar. */
export interface TaskEvent {
  taskId: string;
  title: string;
  startsAt: Date;
  endsAt: Date;
  /** The street address for the people who may see it (a paid task's provider, its poster), else the town. */
  location: string | null;
  description: string;
  url: string;
  /** Counts the times the start moved, so calendars take the newest copy. */
  sequence: number;
  cancelled: boolean;
  stamp: Date;
}

/** The iCalendar text of `events` (a feed, or one task's invitation). */
export function calendarText(name: string, events: readonly TaskEvent[]): string {
  const calendar = ical({ name, prodId: { company: "Errandly", product: "tasks", language: "EN" }, method: ICalCalendarMethod.PUBLISH });
  for (const e of events) {
    calendar.createEvent({
      id: `task-${e.taskId}@errandly`,
      start: e.startsAt,
      end: e.endsAt,
      summary: e.title,
      description: e.description,
      location: e.location,
      url: e.url,
      sequence: e.sequence,
      stamp: e.stamp,
      ...(e.cancelled ? { status: "CANCELLED" as never } : {}),
    });
  }
  return calendar.toString();
}

/** The invitation an e-mail carries: one task's event as an .ics file. */
export function invitationAttachment(event: TaskEvent): MailAttachment {
  return { filename: "task.ics", contentType: "text/calendar; charset=utf-8; method=PUBLISH", content: calendarText("Errandly task", [event]) };
}

/** The street address of a task, or its town when the reader may not see the street. */
export function taskLocation(task: TaskRow, withStreet: boolean): string | null {
  const street = task.location ?? task.startLocation;
  const city = task.city ?? task.startCity;
  const state = task.state ?? task.startState;
  return formatPlace(withStreet ? street : null, city, state);
}

/** How far back a feed reaches. */
export const feedSince = (now: Date) => new Date(now.getTime() - FEED_LOOKBACK_DAYS * 86_400_000);

/**
 * A task's event as one of its people reads it: the street address for its poster, and for its
 * provider once the poster paid (docs/product.md, "People you can see"); the town otherwise.
 */
export function taskEvent(task: TaskRow, reader: "poster" | "provider", publicUrl: string, now: Date): TaskEvent | null {
  const span = taskSpan(task);
  if (!span) return null;
  const url = `${publicUrl}/task/${task.id}`;
  const street = reader === "poster" || task.paymentCapturedAt !== null;
  return {
    taskId: task.id,
    title: task.title,
    ...span,
    location: taskLocation(task, street),
    description: `${reader === "provider" ? "You do this task" : "Your task"} on Errandly.\nOpen it: ${url}`,
    url,
    // Seconds of the last change: a moved time is a newer copy, which calendars take over the old one.
    sequence: Math.floor(task.updatedAt.getTime() / 1000),
    cancelled: task.status === "cancelled",
    stamp: now,
  };
}

/** "Tue 9 Dec, 2:00–4:00 PM EST": a dated task's time on `timeZone`'s clock; null without a date. */
export function taskWhen(task: Pick<TaskRow, "scheduledDate" | "durationMinutes">, timeZone: string): string | null {
  const span = taskSpan(task);
  return span ? formatTimeRange(span.startsAt, span.endsAt, timeZone, { withZone: true }) : null;
}
