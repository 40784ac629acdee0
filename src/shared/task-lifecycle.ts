import type { HiringMode, TaskStatus } from "./constants.js";
import type { NotificationKind } from "./notifications.js";
import type { RequestFallback } from "./task-requests.js";

// The task state machine (docs/product.md, Task states) as one declarative table
// (docs/decisions/005-task-lifecycle-table.md).
// Every rule lives in TASK_TRANSITIONS as data: the server turns `from`, the actor and each named
// condition into the WHERE clause of one conditional UPDATE (so a race loses with 409 instead of
// double-claiming) and each named effect into a SET clause; the web asks `availableTransitions`
// which buttons to show. Both read the same rows, so a rule cannot drift between them.
//
// "pay" is a transition that keeps the status (claimed → claimed). Its actor is the payment system:
// only a confirmed capture from the card processor's webhook may set paymentCapturedAt; the poster
// starting a card payment changes nothing yet. It refuses a capture once the deadline has passed,
// because from that instant the expiry timer may release the provider, and a capture must never
// resurrect a claim the provider was told is gone; the payments feature refunds such a capture.
// The payments feature runs "pay" through the server's one transition function, and asks this table
// why a poster may not start a payment (the money records have their own table: money-lifecycle.ts).

/** Default minutes the poster has to pay after a claim; the server may configure another value. */
export const DEFAULT_PAYMENT_WINDOW_MINUTES = 30;

/**
 * A provider who has not started this long after the booked start may be reported as a no-show
 * (docs/product.md, "Time and turning up"; the `provider_late` condition).
 */
export const NO_SHOW_AFTER_MINUTES = 30;

/** Who may perform a transition. The first three are people; the last two are the server itself. */
export type TransitionActor =
  | "verified_provider"
  | "assigned_provider"
  | "poster"
  | "timer"
  | "payment_system"
  // An admin resolving a dispute (docs/decisions/057) or moderating (docs/product.md, Moderation; decision 059).
  | "admin"
  // The approved provider a task was requested from, while it waits for their answer (decision 065).
  | "requested_provider"
  // Either person of a claimed task, its poster or its assigned provider: they propose a new time (decision 074).
  | "party"
  // The person of the task who did not propose the waiting new time: they accept or decline it (decision 074).
  | "proposal_recipient";

/** The server acting on its own: the payment-deadline job or the card processor's webhook. */
export type SystemActor = Extract<TransitionActor, "timer" | "payment_system">;

/**
 * Named conditions on the task row besides its status. Each has a JS predicate here and an SQL
 * predicate on the server:
 * - paid: payment_captured_at IS NOT NULL
 * - unpaid: payment_captured_at IS NULL
 * - deadline_passed: payment_deadline IS NOT NULL AND payment_deadline <= now
 * - deadline_not_passed: payment_deadline IS NULL OR payment_deadline > now
 * - takes_claims / takes_offers: hiring_mode is first_to_claim / offers (docs/product.md, Offers).
 *   They say whether a row exists for the task at all, so the web shows no button for the other way.
 * - claimed_by_provider: the provider came by claiming, not by the poster's choice: hiring_mode is
 *   first_to_claim AND provider_id IS DISTINCT FROM requested_provider_id (an accepted offer or an
 *   accepted request is a provider the poster chose; issue 41).
 */
export type TaskCondition =
  | "paid"
  | "unpaid"
  | "deadline_passed"
  | "deadline_not_passed"
  | "takes_claims"
  | "takes_offers"
  | "claimed_by_provider"
  // A requested task (decision 065): request_expires_at still ahead of now, or not; and what the poster
  // chose for a decline or a lapse (request_fallback 'open' or 'cancel').
  | "request_window_open"
  | "request_window_passed"
  | "falls_back_open"
  | "falls_back_cancel"
  // Time and turning up (decision 074): a new time waits for an answer (proposed_start_at is not
  // null); the booked start passed NO_SHOW_AFTER_MINUTES ago (scheduled_date + 30 minutes <= now).
  | "has_proposal"
  | "provider_late";

/** The conditions that pick the way a task finds its provider, or found it: a row they refuse has no button. */
export const HIRING_MODE_CONDITIONS: readonly TaskCondition[] = ["takes_claims", "takes_offers", "claimed_by_provider"];

/** The same for a request's two outcomes (decision 065): the poster's choice picks one decline row; the other has no button. */
export const REQUEST_FALLBACK_CONDITIONS: readonly TaskCondition[] = ["falls_back_open", "falls_back_cancel"];

/** The fields of a task an effect writes, and what it writes there. */
export type EffectField = "providerId" | "paymentDeadline" | "paymentCapturedAt" | "requestExpiresAt" | "scheduledDate" | "proposedStartAt" | "proposedById" | "onMyWayAt" | "arrivalEstimateAt";
/**
 * "actor": the acting person; "now": the transition's instant; "window_end": now + the payment window;
 * "offer_provider": the provider of the open offer the transition names (accept_offer);
 * "requested_provider": the provider the task was requested from (book); "proposed_time": the new
 * start the transition carries (propose_time); "proposal": the new start waiting on the task
 * (accept_time); "arrival_estimate": the arrival the transition carries, or none (on_my_way); null: cleared.
 */
export type EffectValue = "actor" | "now" | "window_end" | "offer_provider" | "requested_provider" | "proposed_time" | "proposal" | "arrival_estimate" | null;

/** What a transition carries besides its actor (decision 074): the new start it proposes, the arrival it estimates. */
export interface TransitionInput {
  proposedStartAt?: Date | string;
  arrivalEstimateAt?: Date | string | null;
}

/**
 * Named writes a transition makes besides the status, as data: the server generates the UPDATE's
 * SET clause from this record and `applyEffects` reads the same record, so the two cannot drift
 * (docs/decisions/045-transitions-name-their-actions.md).
 */
export const TASK_EFFECTS = {
  assign_provider: { providerId: "actor" },
  start_payment_window: { paymentDeadline: "window_end" },
  record_payment: { paymentCapturedAt: "now" },
  // A new time or an arrival estimate was between the two people: it leaves with the provider.
  release_provider: { providerId: null, paymentDeadline: null, proposedStartAt: null, proposedById: null, onMyWayAt: null, arrivalEstimateAt: null },
  // A withdrawal or an admin's release refunds the payment, so the reopened task is unpaid for whoever claims it next.
  clear_payment: { paymentCapturedAt: null },
  assign_offer_provider: { providerId: "offer_provider" },
  // The requested provider answered no: the window is closed, not run out, so the poster's task page
  // can say "declined" rather than "did not answer" (docs/decisions/082-the-poster-reads-how-the-provider-came.md).
  close_request: { requestExpiresAt: null },
  // Time and turning up (docs/decisions/074-time-and-turning-up.md).
  assign_requested_provider: { providerId: "requested_provider" },
  record_proposal: { proposedStartAt: "proposed_time", proposedById: "actor" },
  adopt_proposal: { scheduledDate: "proposal", proposedStartAt: null, proposedById: null },
  clear_proposal: { proposedStartAt: null, proposedById: null },
  record_on_my_way: { onMyWayAt: "now", arrivalEstimateAt: "arrival_estimate" },
} as const satisfies Record<string, Partial<Record<EffectField, EffectValue>>>;

export type TaskEffect = keyof typeof TASK_EFFECTS;

/**
 * Named checks a transition makes besides the row's own conditions, because they read more than
 * the task row (docs/product.md, Task states). Each runs at a stated moment:
 * - unpaid_claim_limit (before the UPDATE): the provider has fewer than MAX_UNPAID_CLAIMS unpaid claims;
 *   it takes the provider's claim lock, so two claims at once cannot both pass it.
 * - not_declined (after the UPDATE): the poster has not declined this provider on this task. After,
 *   because the UPDATE holds the task row: a claim racing the poster's decline waited for it and
 *   then sees the declined record (docs/decisions/024-declining-a-provider.md). Failing rolls back.
 */
export type TaskGuard =
  | "unpaid_claim_limit"
  | "not_declined"
  // - not_blocked (before the UPDATE): neither the poster nor the provider has blocked the other (docs/product.md, Moderation).
  | "not_blocked"
  // - no_open_dispute (after the UPDATE): nobody reported a problem on the task that an admin has not resolved yet
  //   (the parties' cancel and give-backs, and the admin's remove and release: the resolution moves the money);
  //   after, as not_declined: reporting takes the task's row lock, so a report racing a cancel is seen (docs/product.md, Disputes).
  | "no_open_dispute"
  // - instant_booking (before the INSERT of book, after unpaid_claim_limit took the provider's claim
  //   lock): the provider takes instant bookings and the chosen time is one of their free slots (decision 074).
  | "instant_booking"
  // - proposed_time_free (before the UPDATE): the proposed start has not passed and the task's length
  //   from it overlaps none of the provider's other booked tasks (decision 074).
  | "proposed_time_free";

/**
 * Named consequences of a transition, run in the row's order in the transition's database
 * transaction, each by the one handler a feature registered for it (the server refuses to start
 * otherwise):
 * - notify.*: the notifications feature tells a party (docs/product.md, Chat and notifications)
 * - escrow.hold / escrow.refund: the payments feature holds or refunds the task's money
 * - declined.remember: the tasks feature records the declined provider (decision 024)
 * - job_alerts.match: the job-alerts feature queues matching providers' alerts (decision 032)
 * - announce: the live task status, one pg_notify (decision 025)
 * - board.add / board.remove: the job board's cache drops what the task joined or left (decision 035);
 *   `announce` tells the other instances the same from these names
 * - notify.poster_provider_withdrew / withdrawal.record: the poster hears of a withdrawal, and the
 *   tasks feature counts it for the provider's reliability line (decision 058)
 * - offers.accept: the offers feature marks the named offer accepted (refusing one no longer open),
 *   closes the others and prices the task at the offer with the one fee function (decision 061)
 * - notify.offers_decided: the offers feature tells the chosen provider and every other offerer
 * - offers.release: when the chosen provider leaves the task (withdrawn, taken off by an admin, or
 *   the payment window lapsed and the poster reopened it), the offers feature closes their accepted offer, so the open task shows no
 *   offer as accepted and they may make a new one like everyone else (decision 061)
 * - notify.provider_paid: the provider hears that the poster paid and may start (the "pay" row)
 * Every notify.* name, and every other action that sends a notice, is declared in TASK_NOTICES: to
 * whom, with which template (decision 083).
 */
export const TASK_ACTIONS = [
  "notify.poster_claimed",
  "notify.provider_declined",
  "notify.provider_cancelled",
  "notify.poster_work_started",
  "notify.poster_work_completed",
  "escrow.hold",
  "escrow.refund",
  "declined.remember",
  "job_alerts.match",
  "announce",
  "board.add",
  "board.remove",
  "notify.poster_provider_withdrew",
  "withdrawal.record",
  // A poster's late cancellation of a paid task pays the provider's fee from the escrow first (decision 057).
  "escrow.late_fee",
  "notify.parties_removed",
  "notify.poster_provider_released",
  "offers.accept",
  "notify.offers_decided",
  "offers.release",
  // Requesting a provider (decision 065): the requested provider hears of the request; the poster
  // hears that it was declined or lapsed, and whether the task opened to everyone or was cancelled.
  "notify.provider_requested",
  "notify.poster_request_ended",
  // The requested provider hears that the poster cancelled the request while it waited (decision 065).
  "notify.provider_request_cancelled",
  // Time and turning up (decision 074): the calendar feature books the task's time on the provider's
  // calendar (the database refuses an overlap), frees it, or moves it to an accepted new time; the
  // provider hears of an instant booking; each side hears of a proposed time and the answer; the
  // poster hears the provider is on the way; a no-show is counted and the provider told.
  "calendar.book",
  "calendar.free",
  "calendar.move",
  "notify.provider_booked",
  "notify.time_proposed",
  "notify.time_decided",
  "notify.poster_on_my_way",
  "no_show.record",
  "notify.provider_no_show",
  "notify.provider_paid",
] as const;
export type TaskAction = (typeof TASK_ACTIONS)[number];

/**
 * Who a declared notice goes to, read from the task as its transition left it (docs/decisions/083):
 * its poster, its provider, the provider a transition released, the provider it was requested from,
 * the offerers not chosen, the asker of a question, or the other party of a dispute.
 */
export type NoticeRecipient =
  | "poster"
  | "provider"
  | "released_provider"
  | "requested_provider"
  | "offerers_not_chosen"
  | "asker"
  | "other_party"
  // Providers whose saved job alert a posted task matches (decision 032).
  | "alerted_provider";

/**
 * The notices an action sends, declared as Sharetribe's processes declare theirs: a row names the
 * action (that is the transition they go out on, in its order), and each entry here says to whom and
 * with which template: the notification kind, whose e-mail and push switches the recipient set. The
 * server's one sender refuses a notice its action does not declare for that recipient
 * (src/server/declared-notices.ts; docs/decisions/083-every-consequence-in-its-row.md).
 */
export type NoticeDeclaration = readonly { to: NoticeRecipient; template: NotificationKind }[];

export type TaskNoticeAction = Extract<TaskAction, `notify.${string}`>;

/** The task table's notices (docs/product.md, Chat and notifications). */
export const TASK_NOTICES = {
  "notify.poster_claimed": [{ to: "poster", template: "task_claimed" }],
  "notify.provider_declined": [{ to: "released_provider", template: "task_declined" }],
  "notify.provider_cancelled": [{ to: "provider", template: "task_cancelled" }],
  "notify.poster_work_started": [{ to: "poster", template: "work_started" }],
  "notify.poster_work_completed": [{ to: "poster", template: "work_completed" }],
  "notify.poster_provider_withdrew": [{ to: "poster", template: "provider_withdrew" }],
  "notify.parties_removed": [{ to: "poster", template: "moderation" }, { to: "provider", template: "moderation" }, { to: "released_provider", template: "moderation" }],
  "notify.poster_provider_released": [{ to: "poster", template: "moderation" }],
  "notify.offers_decided": [{ to: "provider", template: "offer_decided" }, { to: "offerers_not_chosen", template: "offer_decided" }],
  "notify.provider_requested": [{ to: "requested_provider", template: "task_requested" }],
  "notify.poster_request_ended": [{ to: "poster", template: "request_ended" }],
  "notify.provider_request_cancelled": [{ to: "requested_provider", template: "request_cancelled" }],
  "notify.provider_paid": [{ to: "provider", template: "payment_received" }],
  // Time and turning up (decision 074): a proposed time and its answer go to the other side of the
  // one who acted, poster or provider.
  "notify.provider_booked": [{ to: "provider", template: "task_booked" }],
  "notify.time_proposed": [{ to: "poster", template: "time_proposed" }, { to: "provider", template: "time_proposed" }],
  "notify.time_decided": [{ to: "poster", template: "time_decided" }, { to: "provider", template: "time_decided" }],
  "notify.poster_on_my_way": [{ to: "poster", template: "provider_on_way" }],
  "notify.provider_no_show": [{ to: "provider", template: "provider_no_show" }],
  // Not a notify.* name: matching a posted task to saved alerts is the job-alerts feature's, and its bell notice is part of it.
  "job_alerts.match": [{ to: "alerted_provider", template: "task_alert" }],
} as const satisfies Record<TaskNoticeAction, NoticeDeclaration> & Partial<Record<TaskAction, NoticeDeclaration>>;

export interface TransitionDefinition {
  name: string;
  actor: TransitionActor;
  from: readonly TaskStatus[];
  to: TaskStatus;
  /** Each condition with the message shown when it does not hold. */
  requires: readonly { condition: TaskCondition; message: string }[];
  effects: readonly TaskEffect[];
  guards: readonly { guard: TaskGuard; at: "before_update" | "after_update" }[];
  /** In the order they run. */
  actions: readonly TaskAction[];
}

/**
 * Posting, the initial transition: no task exists yet, so it has no `from` and is not among the
 * transitions a task page offers. The e-mail check is the route's (`verifiedEmail`), before any body is read.
 */
export const TASK_POSTING = {
  name: "post",
  actor: "poster",
  from: null,
  to: "open",
  requires: [],
  effects: [],
  guards: [],
  actions: ["announce", "board.add", "job_alerts.match"],
} as const satisfies Omit<TransitionDefinition, "from"> & { from: null };

/**
 * Posting for one provider first (docs/decisions/065-requesting-a-provider.md): the task is not on
 * the board and no alerts go out until it opens to everyone.
 */
export const TASK_REQUEST_POSTING = {
  name: "post_request",
  actor: "poster",
  from: null,
  to: "requested",
  requires: [],
  effects: [],
  guards: [],
  actions: ["notify.provider_requested", "announce"],
} as const satisfies Omit<TransitionDefinition, "from"> & { from: null };

/** Why the poster may not decline a provider they chose themselves (the decline row's claimed_by_provider). */
export const DECLINE_CHOSEN_MESSAGE = "You chose this provider, so there is no claim to decline. To stop, cancel the task instead.";

/**
 * Booking a free slot of a provider who takes instant bookings (docs/decisions/074-time-and-turning-up.md):
 * the request is claimed for that provider at once and the payment window starts, as after a claim.
 * The server takes this row instead of post_request when the request carries a time and the provider
 * takes instant bookings; its guards run before the INSERT.
 */
export const TASK_BOOKING = {
  name: "book",
  actor: "poster",
  from: null,
  to: "claimed",
  requires: [],
  effects: ["assign_requested_provider", "start_payment_window"],
  guards: [
    { guard: "unpaid_claim_limit", at: "before_update" },
    { guard: "instant_booking", at: "before_update" },
  ],
  actions: ["calendar.book", "notify.provider_booked", "announce"],
} as const satisfies Omit<TransitionDefinition, "from"> & { from: null };

export const TASK_TRANSITIONS = [
  {
    name: "claim",
    actor: "verified_provider",
    from: ["open"],
    to: "claimed",
    requires: [{ condition: "takes_claims", message: "This task takes offers, not claims. Make an offer on it instead." }],
    effects: ["assign_provider", "start_payment_window"],
    guards: [
      { guard: "unpaid_claim_limit", at: "before_update" },
      { guard: "not_declined", at: "after_update" },
      { guard: "not_blocked", at: "before_update" },
    ],
    // A dated task fills the provider's calendar; an overlap refuses the claim (decision 074).
    actions: ["calendar.book", "notify.poster_claimed", "announce", "board.remove"],
  },
  {
    name: "pay",
    actor: "payment_system",
    from: ["claimed"],
    to: "claimed",
    requires: [
      { condition: "unpaid", message: "This task has already been paid" },
      { condition: "deadline_not_passed", message: "The payment window for this task has closed" },
    ],
    effects: ["record_payment"],
    guards: [],
    actions: ["announce", "notify.provider_paid"],
  },
  {
    name: "start",
    actor: "assigned_provider",
    from: ["claimed"],
    to: "in_progress",
    requires: [{ condition: "paid", message: "Waiting for customer payment to start work" }],
    effects: [],
    guards: [],
    actions: ["notify.poster_work_started", "announce"],
  },
  {
    name: "complete",
    actor: "assigned_provider",
    from: ["in_progress"],
    to: "completed",
    requires: [],
    effects: [],
    guards: [],
    actions: ["notify.poster_work_completed", "escrow.hold", "calendar.free", "announce"],
  },
  {
    // A paid claimed task may be cancelled too: the payments feature refunds the capture.
    // A requested task has its own row, cancel_request, so its provider hears of it (decision 065).
    // The notice comes after the money moved, so it tells what the statement holds (decision 073).
    name: "cancel",
    actor: "poster",
    from: ["open", "claimed"],
    to: "cancelled",
    requires: [],
    effects: [],
    guards: [{ guard: "no_open_dispute", at: "after_update" }],
    actions: ["escrow.late_fee", "escrow.refund", "notify.provider_cancelled", "calendar.free", "announce", "board.remove"],
  },
  {
    name: "expire",
    actor: "timer",
    from: ["claimed"],
    to: "payment_expired",
    requires: [
      { condition: "unpaid", message: "A paid claim does not expire" },
      { condition: "deadline_passed", message: "The payment window is still open" },
    ],
    effects: ["release_provider"],
    guards: [],
    actions: ["calendar.free", "announce"],
  },
  {
    name: "reactivate",
    actor: "poster",
    from: ["payment_expired"],
    to: "open",
    requires: [],
    effects: [],
    guards: [],
    actions: ["offers.release", "announce", "board.add"],
  },
  {
    // The poster turns down the provider who claimed, while the claim is unpaid (the payment
    // window): the task is open again and that provider may not claim it again
    // (docs/decisions/024-declining-a-provider.md; the server remembers who was declined). Only a
    // provider who claimed: one the poster chose, by accepting their offer or their answer to a
    // request, is not theirs to decline a moment later; Cancel Task is the way out (issue 41).
    name: "decline",
    actor: "poster",
    from: ["claimed"],
    to: "open",
    requires: [
      { condition: "claimed_by_provider", message: DECLINE_CHOSEN_MESSAGE },
      { condition: "unpaid", message: "A paid task's provider can no longer be declined; cancel the task for a refund instead" },
    ],
    effects: ["release_provider"],
    guards: [],
    actions: ["declined.remember", "notify.provider_declined", "calendar.free", "announce", "board.add"],
  },
  {
    // The provider gives back a paid claim before starting: the poster is refunded in full and the
    // task is open again; no job alerts go out a second time (docs/decisions/058-withdrawing-and-editing.md).
    name: "withdraw",
    actor: "assigned_provider",
    from: ["claimed"],
    to: "open",
    requires: [{ condition: "paid", message: "The poster has not paid yet; release the claim instead" }],
    effects: ["release_provider", "clear_payment"],
    guards: [{ guard: "no_open_dispute", at: "after_update" }],
    actions: ["withdrawal.record", "escrow.refund", "notify.poster_provider_withdrew", "calendar.free", "offers.release", "announce", "board.add"],
  },
  {
    // The same before the poster paid: nothing to refund (decision 058).
    name: "release_claim",
    actor: "assigned_provider",
    from: ["claimed"],
    to: "open",
    requires: [{ condition: "unpaid", message: "The poster has paid; withdraw from the task instead, and they are refunded in full" }],
    effects: ["release_provider"],
    guards: [{ guard: "no_open_dispute", at: "after_update" }],
    actions: ["withdrawal.record", "notify.poster_provider_withdrew", "calendar.free", "offers.release", "announce", "board.add"],
  },
  {
    // An admin's resolution of a dispute on an unfinished paid task ends it; the money was split by
    // the dispute's own row of the money table (src/shared/money-lifecycle.ts, "dispute.resolve").
    name: "resolve_dispute",
    actor: "admin",
    from: ["claimed", "in_progress"],
    to: "cancelled",
    requires: [{ condition: "paid", message: "Only a paid task can have a dispute" }],
    effects: [],
    guards: [],
    actions: ["calendar.free", "announce"],
  },
  {
    // An admin removes a task that breaks the rules, at any stage before it is completed: a paid
    // one is refunded in full (docs/product.md, Moderation; docs/decisions/059-moderation.md).
    name: "remove",
    actor: "admin",
    from: ["open", "claimed", "in_progress", "payment_expired", "requested"],
    to: "cancelled",
    requires: [],
    effects: [],
    // An open dispute's resolution decides where the money goes: no refund beside it.
    guards: [{ guard: "no_open_dispute", at: "after_update" }],
    actions: ["escrow.refund", "notify.parties_removed", "calendar.free", "announce", "board.remove"],
  },
  {
    // An admin takes a suspended provider off a task: it reopens for others, and a paid one is
    // refunded to the poster, who pays the next provider anew (decision 059).
    name: "release",
    actor: "admin",
    from: ["claimed", "in_progress"],
    to: "open",
    requires: [],
    effects: ["release_provider", "clear_payment"],
    guards: [{ guard: "no_open_dispute", at: "after_update" }],
    actions: ["escrow.refund", "notify.poster_provider_released", "calendar.free", "offers.release", "announce", "board.add"],
  },
  {
    // The poster of a task that takes offers picks one: the task is claimed by that provider at the
    // offered price, and the payment window starts as after a claim (docs/decisions/061-offers.md).
    name: "accept_offer",
    actor: "poster",
    from: ["open"],
    to: "claimed",
    requires: [{ condition: "takes_offers", message: "This task takes claims, not offers." }],
    effects: ["assign_offer_provider", "start_payment_window"],
    guards: [],
    actions: ["offers.accept", "calendar.book", "notify.offers_decided", "announce", "board.remove"],
  },
  {
    // The requested provider accepts within the window: claimed at the posted budget, exactly as a claim (decision 065).
    name: "accept_request",
    actor: "requested_provider",
    from: ["requested"],
    to: "claimed",
    requires: [{ condition: "request_window_open", message: "The time to answer this request has passed." }],
    effects: ["assign_provider", "start_payment_window"],
    guards: [
      { guard: "unpaid_claim_limit", at: "before_update" },
      { guard: "not_blocked", at: "before_update" },
    ],
    actions: ["calendar.book", "notify.poster_claimed", "announce"],
  },
  {
    // The requested provider declines; the poster chose to open the task to everyone: alerts go out now, once.
    name: "decline_request",
    actor: "requested_provider",
    from: ["requested"],
    to: "open",
    requires: [{ condition: "falls_back_open", message: "This request ends by cancelling the task; decline it to cancel." }],
    effects: ["close_request"],
    guards: [],
    actions: ["notify.poster_request_ended", "announce", "board.add", "job_alerts.match"],
  },
  {
    // The same when the poster chose to cancel the task instead.
    name: "decline_request_cancel",
    actor: "requested_provider",
    from: ["requested"],
    to: "cancelled",
    requires: [{ condition: "falls_back_cancel", message: "This request ends by opening the task to everyone; decline it to open it." }],
    effects: ["close_request"],
    guards: [],
    actions: ["notify.poster_request_ended", "announce"],
  },
  {
    // Nobody answered within the window (the scheduler's "tasks:lapse-requests"): as a decline.
    name: "lapse_request",
    actor: "timer",
    from: ["requested"],
    to: "open",
    requires: [
      { condition: "request_window_passed", message: "The time to answer this request has not passed yet" },
      { condition: "falls_back_open", message: "This request ends by cancelling the task" },
    ],
    effects: [],
    guards: [],
    actions: ["notify.poster_request_ended", "announce", "board.add", "job_alerts.match"],
  },
  {
    name: "lapse_request_cancel",
    actor: "timer",
    from: ["requested"],
    to: "cancelled",
    requires: [
      { condition: "request_window_passed", message: "The time to answer this request has not passed yet" },
      { condition: "falls_back_cancel", message: "This request ends by opening the task to everyone" },
    ],
    effects: [],
    guards: [],
    actions: ["notify.poster_request_ended", "announce"],
  },
  {
    // The poster cancels a request while it waits: nothing was paid, the task was on no board, and
    // the requested provider is told (decision 065). PATCH /api/tasks/{id}/cancel picks this row.
    name: "cancel_request",
    actor: "poster",
    from: ["requested"],
    to: "cancelled",
    requires: [],
    effects: [],
    guards: [],
    actions: ["notify.provider_request_cancelled", "announce"],
  },
  // Time and turning up (docs/decisions/074-time-and-turning-up.md). Either person of a claimed task
  // proposes a new start (a new proposal replaces one waiting); the other accepts it, which moves the
  // booked time on the provider's calendar under the database's no-overlap rule, or declines it, which
  // keeps the old time.
  {
    name: "propose_time",
    actor: "party",
    from: ["claimed"],
    to: "claimed",
    requires: [],
    effects: ["record_proposal"],
    guards: [{ guard: "proposed_time_free", at: "before_update" }],
    actions: ["notify.time_proposed", "announce"],
  },
  {
    name: "accept_time",
    actor: "proposal_recipient",
    from: ["claimed"],
    to: "claimed",
    requires: [{ condition: "has_proposal", message: "No new time is waiting for an answer on this task." }],
    effects: ["adopt_proposal"],
    guards: [],
    actions: ["calendar.move", "notify.time_decided", "announce"],
  },
  {
    name: "decline_time",
    actor: "proposal_recipient",
    from: ["claimed"],
    to: "claimed",
    requires: [{ condition: "has_proposal", message: "No new time is waiting for an answer on this task." }],
    effects: ["clear_proposal"],
    guards: [],
    actions: ["notify.time_decided", "announce"],
  },
  {
    // The provider taps "On my way": the poster hears at once, with an arrival estimate when the
    // provider shared their position for it (used once, never stored).
    name: "on_my_way",
    actor: "assigned_provider",
    from: ["claimed"],
    to: "claimed",
    requires: [{ condition: "paid", message: "Waiting for customer payment: you will see the address once they pay." }],
    effects: ["record_on_my_way"],
    guards: [],
    actions: ["notify.poster_on_my_way", "announce"],
  },
  {
    // The provider has not started 30 minutes after the booked start: the poster may report a
    // no-show, the dispute path's outcome for it without waiting for an admin: the task ends and is
    // refunded in full, and the no-show counts on the provider's profile (decisions 057, 074).
    name: "report_no_show",
    actor: "poster",
    from: ["claimed"],
    to: "cancelled",
    requires: [
      { condition: "paid", message: "Nothing was paid, so there is nothing to refund: cancel the task instead." },
      { condition: "provider_late", message: `You can report a no-show ${NO_SHOW_AFTER_MINUTES} minutes after the start time, if work has not started by then.` },
    ],
    effects: [],
    guards: [{ guard: "no_open_dispute", at: "after_update" }],
    actions: ["no_show.record", "escrow.refund", "calendar.free", "notify.provider_no_show", "announce"],
  },
] as const satisfies readonly TransitionDefinition[];

export type TaskTransition = (typeof TASK_TRANSITIONS)[number];
export type TaskTransitionName = TaskTransition["name"];

export const TASK_TRANSITION_NAMES = TASK_TRANSITIONS.map((t) => t.name);

/** The whole process, posting first: what the server runs and checks its action handlers against. */
export const TASK_PROCESS = [TASK_POSTING, TASK_REQUEST_POSTING, TASK_BOOKING, ...TASK_TRANSITIONS] as const;
export type TaskProcessStep = (typeof TASK_PROCESS)[number];
export type TaskProcessName = TaskProcessStep["name"];

export function findProcessStep(name: TaskProcessName): TaskProcessStep {
  const step = TASK_PROCESS.find((t) => t.name === name);
  if (!step) throw new Error(`Unknown task transition: ${name}`);
  return step;
}

/** The part of a task the lifecycle reads. Dates may be Date (server) or ISO strings (web). */
export interface TaskLifecycleState {
  status: TaskStatus;
  userId: string;
  providerId: string | null;
  paymentCapturedAt: Date | string | null;
  paymentDeadline: Date | string | null;
  hiringMode: HiringMode;
  /** Requesting a provider (decision 065); null for a task posted for everyone. */
  requestedProviderId: string | null;
  requestExpiresAt: Date | string | null;
  requestFallback: RequestFallback | null;
  /** Time and turning up (decision 074): the booked start, a new start waiting for an answer and who proposed it, "on my way". */
  scheduledDate: Date | string | null;
  proposedStartAt: Date | string | null;
  proposedById: string | null;
  onMyWayAt: Date | string | null;
  arrivalEstimateAt: Date | string | null;
}

/**
 * What a provider the poster declined is told, by the claim's refusal and on the task page; the
 * task is gone from their job board. Not a condition of the table: it is about the actor and the
 * task together (docs/decisions/024-declining-a-provider.md).
 */
/**
 * Why a party may not cancel, withdraw from or give back a task while a problem reported on it is
 * open: the admin's resolution decides where the money goes (docs/product.md, Disputes). The server's
 * `no_open_dispute` guard answers it with 409 and the task page shows it beside the hidden buttons.
 */
export const OPEN_DISPUTE_MESSAGE =
  "A problem reported on this task is still open, so it cannot be cancelled or given back until an admin resolves it. Follow the dispute and add your side on the task page.";

/** The same guard's refusal to an admin's remove or release: the money moves by the dispute's resolution, so it comes first. */
export const OPEN_DISPUTE_ADMIN_MESSAGE =
  "A problem reported on this task is still open, and its resolution decides where the money goes. Resolve the dispute on the task page first, then remove or release the task.";

/** The `no_open_dispute` guard's refusal, in the words for the row's actor. */
export const openDisputeRefusal = (actor: TaskProcessStep["actor"]): string => (actor === "admin" ? OPEN_DISPUTE_ADMIN_MESSAGE : OPEN_DISPUTE_MESSAGE);

export const DECLINED_PROVIDER_MESSAGE = "The poster declined your claim on this task. You can claim other tasks on the job board.";

/**
 * The signed-in person. No role here on purpose: claiming depends on approved verification, not on
 * the chosen role. `isAdmin` grants only the admin rows (remove, release, resolve), which the admin's
 * moderation tools perform (docs/product.md, Moderation); the server sets it from its policy, an
 * admin role on a two-factor session (src/server/policy.ts, docs/decisions/068).
 */
export interface TaskViewer {
  id: string;
  isAdmin: boolean;
  providerVerified: boolean;
}

export type TransitionResult = { ok: true } | { ok: false; status: 401 | 403 | 409; message: string };

function toTime(value: Date | string): number {
  return value instanceof Date ? value.getTime() : Date.parse(value);
}

function deadlinePassed(task: TaskLifecycleState, now: Date): boolean {
  return task.paymentDeadline !== null && toTime(task.paymentDeadline) <= now.getTime();
}

export const TASK_CONDITIONS: Record<TaskCondition, (task: TaskLifecycleState, now: Date) => boolean> = {
  paid: (task) => task.paymentCapturedAt !== null,
  unpaid: (task) => task.paymentCapturedAt === null,
  deadline_passed: deadlinePassed,
  deadline_not_passed: (task, now) => !deadlinePassed(task, now),
  takes_claims: (task) => task.hiringMode === "first_to_claim",
  takes_offers: (task) => task.hiringMode === "offers",
  claimed_by_provider: (task) => task.hiringMode === "first_to_claim" && task.providerId !== task.requestedProviderId,
  request_window_open: (task, now) => task.requestExpiresAt !== null && toTime(task.requestExpiresAt) > now.getTime(),
  request_window_passed: (task, now) => task.requestExpiresAt !== null && toTime(task.requestExpiresAt) <= now.getTime(),
  falls_back_open: (task) => task.requestFallback === "open",
  falls_back_cancel: (task) => task.requestFallback === "cancel",
  has_proposal: (task) => task.proposedStartAt !== null,
  provider_late: (task, now) => task.scheduledDate !== null && toTime(task.scheduledDate) + NO_SHOW_AFTER_MINUTES * 60_000 <= now.getTime(),
};

export function findTransition(name: TaskTransitionName): TaskTransition {
  const transition = TASK_TRANSITIONS.find((t) => t.name === name);
  if (!transition) throw new Error(`Unknown task transition: ${name}`);
  return transition;
}

function isSystem(actor: TaskViewer | SystemActor): actor is SystemActor {
  return typeof actor === "string";
}

/** The poster or the assigned provider of the task. */
function isParty(task: TaskLifecycleState, actor: TaskViewer | SystemActor): actor is TaskViewer {
  return !isSystem(actor) && (actor.id === task.userId || (task.providerId !== null && actor.id === task.providerId));
}

/** The words of a refusal ("Only the assigned provider can <verb> this task"): the name, unless it does not read as a verb. */
const verbOf = (name: TaskTransitionName): string =>
  name === "release_claim"
    ? "release the claim on"
    : name === "resolve_dispute"
      ? "resolve a dispute on"
      : name === "accept_request"
        ? "accept the request for"
        : name === "decline_request" || name === "decline_request_cancel"
          ? "decline the request for"
          : name === "cancel_request"
            ? // The same words as cancel: a stranger is not told the task is a request (its page is 404 to them).
              "cancel"
            : (TIME_VERBS[name as keyof typeof TIME_VERBS] ?? name);

const TIME_VERBS = {
  propose_time: "propose a new time for",
  accept_time: "accept the new time of",
  decline_time: "decline the new time of",
  on_my_way: "say you are on the way to",
  report_no_show: "report a no-show on",
} as const satisfies Partial<Record<TaskTransitionName, string>>;

/** Why `actor` may not act as `transition.actor` on this task, or null when it may. */
function actorRefusal(transition: TaskTransition, task: TaskLifecycleState, actor: TaskViewer | SystemActor): string | null {
  const verb = verbOf(transition.name);
  switch (transition.actor) {
    case "verified_provider":
      if (isSystem(actor)) return "Only verified providers can claim tasks";
      if (actor.id === task.userId) return "You cannot claim your own task";
      return actor.providerVerified ? null : "Only verified providers can claim tasks";
    case "assigned_provider":
      return !isSystem(actor) && task.providerId !== null && actor.id === task.providerId
        ? null
        : `Only the assigned provider can ${verb} this task`;
    case "poster":
      if (!isSystem(actor) && actor.id === task.userId) return null;
      return verb === "accept_offer" ? "Only the task's poster can accept an offer." : `Only the task owner can ${verb} this task`;
    case "timer":
      return actor === "timer" ? null : "A claim expires only when its payment window runs out";
    case "payment_system":
      return actor === "payment_system" ? null : "Payments are recorded only by the payment system";
    case "admin":
      return !isSystem(actor) && actor.isAdmin ? null : `Only an admin can ${verb} this task`;
    case "requested_provider":
      if (isSystem(actor) || task.requestedProviderId === null || actor.id !== task.requestedProviderId) {
        return "Only the provider this task was requested from can answer the request.";
      }
      return actor.providerVerified ? null : "Only verified providers can accept a request. Finish your provider verification first.";
    case "party":
      return isParty(task, actor) ? null : "Only the task's poster or its provider can propose a new time.";
    case "proposal_recipient":
      if (!isParty(task, actor)) return `Only the task's poster or its provider can ${verb} this task`;
      return task.proposedById !== null && task.proposedById === actor.id ? "You proposed this time. The other side accepts or declines it; you can propose another one." : null;
  }
}

function stateRefusal(name: TaskTransitionName, task: TaskLifecycleState): string {
  const { status } = task;
  switch (name) {
    case "claim":
      return status === "claimed" || status === "in_progress" || status === "completed"
        ? "This task has already been claimed"
        : "This task is not open for claiming";
    case "pay":
      // A task paid before it moved on (started, completed, cancelled) says so first.
      return task.paymentCapturedAt !== null ? "This task has already been paid" : "Only a claimed task can be paid";
    case "start":
      return status === "in_progress" ? "This task has already been started" : "Only a claimed task can be started";
    case "complete":
      return status === "completed" ? "This task is already completed" : "Only a task in progress can be completed";
    case "cancel":
      return status === "cancelled" ? "This task is already cancelled" : "Only an open or claimed task can be cancelled";
    case "expire":
      return "Only a claimed task can expire";
    case "reactivate":
      return "Only a task whose payment expired can be reactivated";
    case "decline":
      return "Only a claimed task's provider can be declined";
    case "withdraw":
    case "release_claim":
      return status === "in_progress"
        ? "Work on this task has already started, so you can no longer withdraw from it. Message the poster in the task's chat."
        : "Only a claimed task can be given back, before work starts.";
    case "resolve_dispute":
      return "Only a claimed or started task ends with its dispute";
    case "remove":
      return "Only a task that is not yet completed or cancelled can be removed";
    case "release":
      return "Only a claimed or started task's provider can be released";
    case "accept_offer":
      return "This task is no longer open, so its offers are closed.";
    case "accept_request":
    case "decline_request":
    case "decline_request_cancel":
      return "This request has already been answered, has lapsed or was cancelled by the poster.";
    // The poster's cancel that lost to an accept or a lapse: their page already shows which.
    case "cancel_request":
      return "Your request was answered or ran out just now. The task page shows what happened, and you can still cancel it from there.";
    case "lapse_request":
    case "lapse_request_cancel":
      return "Only a requested task can lapse";
    case "propose_time":
    case "accept_time":
    case "decline_time":
      return status === "in_progress" || status === "completed" ? "Work on this task has started, so its time can no longer change." : "Only a claimed task's time can change.";
    case "on_my_way":
      return status === "in_progress" ? "Work on this task has already started." : "Only a claimed task's provider can be on the way to it.";
    case "report_no_show":
      return status === "in_progress" || status === "completed" ? "Work on this task started, so it is not a no-show. Report a problem instead." : "Only a claimed task that has not started can be reported as a no-show.";
  }
}

/**
 * Whether `actor` may perform `name` on `task` at `now`. Checks run from the outside in: signed
 * in (401), the right actor (403), then the task's status and conditions (409), so a person never
 * learns about a task's payment state through an action that was never theirs to take.
 */
export function evaluateTransition(
  name: TaskTransitionName,
  task: TaskLifecycleState,
  actor: TaskViewer | SystemActor | null,
  now: Date,
): TransitionResult {
  const transition = findTransition(name);
  if (actor === null) return { ok: false, status: 401, message: `Sign in to ${verbOf(name)} this task` };
  const notActor = actorRefusal(transition, task, actor);
  if (notActor !== null) return { ok: false, status: 403, message: notActor };
  if (!(transition.from as readonly TaskStatus[]).includes(task.status)) {
    return { ok: false, status: 409, message: stateRefusal(name, task) };
  }
  for (const { condition, message } of transition.requires) {
    if (!TASK_CONDITIONS[condition](task, now)) return { ok: false, status: 409, message };
  }
  return { ok: true };
}

/** The transitions `actor` may perform now, in table order; the web shows a button for each. */
export function availableTransitions(
  task: TaskLifecycleState,
  actor: TaskViewer | SystemActor | null,
  now: Date,
): TaskTransitionName[] {
  return TASK_TRANSITION_NAMES.filter((name) => evaluateTransition(name, task, actor, now).ok);
}

/** Task fields after `effects`, for the server's row write and the web's optimistic update. */
export function applyEffects<T extends TaskLifecycleState>(
  task: T,
  effects: readonly TaskEffect[],
  actor: TaskViewer | SystemActor,
  now: Date,
  paymentWindowMinutes = DEFAULT_PAYMENT_WINDOW_MINUTES,
  input: TransitionInput = {},
): T {
  const next: T = { ...task };
  // One loop over the record's fields, whatever their declared types.
  const fields = next as Record<EffectField, Date | string | null>;
  for (const effect of effects) {
    // Every value of one effect is read from the task as it was before it (SQL's UPDATE reads the old row too).
    const before = { ...fields };
    for (const [field, value] of Object.entries(TASK_EFFECTS[effect]) as [EffectField, EffectValue][]) {
      if (value === "actor") {
        if (isSystem(actor)) throw new Error("Only a person can be assigned as provider");
        fields[field] = actor.id;
      } else if (value === "offer_provider") {
        // Which provider offered is a row of the offers table: only the server's UPDATE can read it.
        throw new Error("The provider of an accepted offer is set by the server");
      } else if (value === "requested_provider") fields[field] = task.requestedProviderId;
      else if (value === "proposed_time") {
        if (input.proposedStartAt === undefined) throw new Error("A proposed time needs the new start");
        fields[field] = input.proposedStartAt;
      } else if (value === "proposal") fields[field] = before.proposedStartAt;
      else if (value === "arrival_estimate") fields[field] = input.arrivalEstimateAt ?? null;
      else if (value === "now") fields[field] = now;
      else if (value === "window_end") fields[field] = new Date(now.getTime() + paymentWindowMinutes * 60_000);
      else fields[field] = null;
    }
  }
  return next;
}

/**
 * Evaluates and, when allowed, returns the task after the transition (status and effects). The
 * actor is never null here: callers authenticate first and answer 401 themselves.
 */
export function applyTransition<T extends TaskLifecycleState>(
  name: TaskTransitionName,
  task: T,
  actor: TaskViewer | SystemActor,
  now: Date,
  paymentWindowMinutes = DEFAULT_PAYMENT_WINDOW_MINUTES,
  input: TransitionInput = {},
): { ok: true; task: T } | Extract<TransitionResult, { ok: false }> {
  const result = evaluateTransition(name, task, actor, now);
  if (!result.ok) return result;
  const transition = findTransition(name);
  const moved = applyEffects(task, transition.effects, actor, now, paymentWindowMinutes, input);
  return { ok: true, task: { ...moved, status: transition.to } };
}
