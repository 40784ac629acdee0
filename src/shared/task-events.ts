import type { NoticeDeclaration } from "./task-lifecycle.js";

// What happens to a task without a transition of its lifecycle table (docs/decisions/083-every-consequence-in-its-row.md):
// an offer made or withdrawn, a public question asked, answered or hidden, a review, its photos, its
// text edited or its typed address placed, a message in its dispute. Each is a row of this table with
// its ordered, named actions, as the transition tables' rows have (decision 045): the server runs them
// by the one handler each name has, in the change's transaction, and refuses to start without one.
// The live frame ("announce") and the notices go out only through these rows.

/** The names of the events' consequences; every notify.* is declared in TASK_EVENT_NOTICES. */
export const TASK_EVENT_ACTIONS = [
  "announce",
  "notify.poster_offer_received",
  "notify.poster_question_asked",
  "notify.asker_question_answered",
  "notify.dispute_message",
  "notify.task_reminder",
  "notify.poster_provider_late",
] as const;
export type TaskEventAction = (typeof TASK_EVENT_ACTIONS)[number];

/** The live frame's event word each row announces (the web and older instances know these words). */
export type TaskEventWire = "review" | "photos" | "placed" | "edited" | "offer" | "questions" | "dispute";

export interface TaskEventDefinition {
  name: string;
  /** The frame's `event`; null for a row that announces nothing (a reminder changes no page). */
  wire: TaskEventWire | null;
  /** How the change moves the job board, for the other instances' caches (task-updates.ts). */
  board: "added" | "changed" | null;
  /** In the order they run. */
  actions: readonly TaskEventAction[];
}

export const TASK_EVENTS = [
  // Offers (docs/decisions/061-offers.md): the poster's open page lists them, so its frame refreshes them.
  { name: "offer_made", wire: "offer", board: null, actions: ["notify.poster_offer_received", "announce"] },
  { name: "offer_withdrawn", wire: "offer", board: null, actions: ["announce"] },
  // Public questions (docs/decisions/063-public-questions.md).
  { name: "question_asked", wire: "questions", board: null, actions: ["notify.poster_question_asked", "announce"] },
  { name: "question_answered", wire: "questions", board: null, actions: ["notify.asker_question_answered", "announce"] },
  { name: "question_moderated", wire: "questions", board: null, actions: ["announce"] },
  // Reviews written, and revealed by the scheduler (docs/product.md, Reviews).
  { name: "reviewed", wire: "review", board: null, actions: ["announce"] },
  // Photos added or removed (decision 030); the board shows the first one.
  { name: "photos_changed", wire: "photos", board: "changed", actions: ["announce"] },
  // An open task's text edited (decision 058), or its typed address placed on the map: it changed on the board.
  { name: "edited", wire: "edited", board: "added", actions: ["announce"] },
  { name: "placed", wire: "placed", board: "added", actions: ["announce"] },
  // A message in a reported problem's thread (decision 057): the other side and the admin hear it.
  { name: "dispute_message", wire: "dispute", board: null, actions: ["notify.dispute_message", "announce"] },
  // A booked task's reminders, sent by the scheduler (docs/decisions/074-time-and-turning-up.md): both
  // people the day before and the hour before; the poster when the provider has not started 30
  // minutes after the start. Nothing on the task changed, so nothing is announced.
  { name: "reminder_due", wire: null, board: null, actions: ["notify.task_reminder"] },
  { name: "provider_late", wire: null, board: null, actions: ["notify.poster_provider_late"] },
] as const satisfies readonly TaskEventDefinition[];

export type TaskEvent = (typeof TASK_EVENTS)[number];
export type TaskEventName = TaskEvent["name"];

export function findTaskEvent(name: TaskEventName): TaskEvent {
  const row = TASK_EVENTS.find((e) => e.name === name);
  if (!row) throw new Error(`Unknown task event: ${name}`);
  return row;
}

/** The events' notices: to whom and which template (decision 083). */
export const TASK_EVENT_NOTICES = {
  "notify.poster_offer_received": [{ to: "poster", template: "offer_received" }],
  "notify.poster_question_asked": [{ to: "poster", template: "question_asked" }],
  "notify.asker_question_answered": [{ to: "asker", template: "question_answered" }],
  "notify.dispute_message": [{ to: "poster", template: "dispute" }, { to: "provider", template: "dispute" }],
  "notify.task_reminder": [{ to: "poster", template: "task_reminder" }, { to: "provider", template: "task_reminder" }],
  "notify.poster_provider_late": [{ to: "poster", template: "provider_late" }],
} as const satisfies Record<Extract<TaskEventAction, `notify.${string}`>, NoticeDeclaration>;
