import { formatTimeRange, localDate, type Slot } from "@shared/calendar";

// The free slots as the slot picker lists them: grouped by the day they start on in the viewer's
// own zone (a poster in another zone reads their own clock; docs/product.md, "Time and turning up").

export interface SlotDay {
  /** "2026-12-09" on the viewer's clock. */
  date: string;
  /** "Wednesday, December 9". */
  label: string;
  slots: { slot: Slot; label: string }[];
}

/** The zone this browser reads times in. */
export function viewerTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

const clock = (at: Date, timeZone: string) => new Intl.DateTimeFormat("en-US", { timeZone, hour: "numeric", minute: "2-digit" }).format(at);

export function groupSlotsByDay(slots: readonly Slot[], timeZone: string): SlotDay[] {
  const days = new Map<string, SlotDay>();
  for (const slot of slots) {
    const start = new Date(slot.startsAt);
    const { date } = localDate(start, timeZone);
    let day = days.get(date);
    if (!day) {
      day = { date, label: new Intl.DateTimeFormat("en-US", { timeZone, weekday: "long", month: "long", day: "numeric" }).format(start), slots: [] };
      days.set(date, day);
    }
    day.slots.push({ slot, label: clock(start, timeZone) });
  }
  return [...days.values()].sort((a, b) => a.date.localeCompare(b.date));
}

/** A chosen slot in words, on the viewer's clock with its zone: "Wed 9 Dec, 2:00–3:00 PM EST". */
export function slotWords(slot: Slot, timeZone: string): string {
  return formatTimeRange(new Date(slot.startsAt), new Date(slot.endsAt), timeZone, { withZone: true });
}
