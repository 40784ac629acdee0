import { z } from "zod";
import { CATEGORY_VALUES, HIRING_MODES, MAX_STOPS, TASK_STATUSES, URGENCIES } from "./constants.js";
import { estimatedHoursSchema } from "./calendar.js";
import { isoDateTimeSchema, latSchema, lonSchema, text } from "./common.js";
import { budgetDollarsSchema } from "./money-schemas.js";
import { boardFilterFields, checkFilterRules } from "./task-filter-schemas.js";
import { RADIUS_MILES } from "./task-filters.js";
import { taskPhotoSchema, taskPhotoThumbSchema } from "./task-photos.js";
import { REQUEST_FALLBACKS, REQUEST_MESSAGES, REQUEST_OUTCOMES, taskRequestInputSchema } from "./task-requests.js";

// API contracts of the tasks feature (docs/product.md, Tasks). Money fields are dollars as
// JSON numbers (docs/decisions/004-money-in-the-api.md).

const optionalText = (max: number, field: string) =>
  z
    .string()
    .trim()
    .max(max, { error: `${field} must be at most ${max} characters` })
    .optional()
    .nullable()
    .transform((v) => (v ? v : null));

const optionalState = z
  .string()
  .trim()
  .toUpperCase()
  .refine((v) => v === "" || /^[A-Z]{2}$/.test(v), { error: "State must be two letters" })
  .optional()
  .nullable()
  .transform((v) => (v ? v : null));

export const SCHEDULE_MESSAGES = {
  past: "The date needed can't be in the past. Pick today or a later date.",
  timePassed: "That time has already passed today. Pick a later time.",
  needsTime: "Pick a time for this date.",
  needsDate: "Pick a date for this time, or clear the time.",
  invalid: "Enter the date and time needed",
} as const;

const LOCAL_ISO = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** Offset of an ISO suffix ("Z", "-05:00", "+0530") in minutes east of UTC. */
function offsetMinutes(suffix: string): number {
  if (suffix === "Z") return 0;
  const sign = suffix.startsWith("-") ? -1 : 1;
  const digits = suffix.slice(1).replace(":", "");
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4)));
}

/**
 * The rule of a task's date needed (docs/product.md#dates-and-hours): not before today and not a time
 * already passed; any time of day, since errands happen early and late (office hours are for
 * appointments only). The value is read in the poster's own time zone, the offset it carries
 * ("2026-12-01T10:00:00-05:00"); "today" is `now` (the app clock on the server, the browser's on
 * the web) seen at that offset. Null when allowed.
 */
export function scheduleProblem(iso: string, now: Date): string | null {
  const match = LOCAL_ISO.exec(iso);
  const when = new Date(iso);
  if (!match || Number.isNaN(when.getTime())) return SCHEDULE_MESSAGES.invalid;
  const [, date = "", suffix = "Z"] = match;
  const today = new Date(now.getTime() + offsetMinutes(suffix) * 60_000).toISOString().slice(0, 10);
  if (date < today) return SCHEDULE_MESSAGES.past;
  if (when.getTime() < now.getTime()) return SCHEDULE_MESSAGES.timePassed;
  return null;
}

export const stopInputSchema = z.object({
  address: text(1, 300, "Stop address"),
  city: optionalText(100, "Stop city"),
  state: optionalState,
  notes: optionalText(500, "Stop notes"),
  lat: latSchema.optional().nullable(),
  lon: lonSchema.optional().nullable(),
});

export const createTaskBodySchema = z
  .object({
    title: text(3, 120, "Title"),
    description: text(1, 5000, "Description"),
    category: z.enum(CATEGORY_VALUES, { error: "Category must be one of the listed categories" }),
    budget: budgetDollarsSchema,
    urgency: z.enum(URGENCIES, { error: "Urgency must be standard or urgent" }).default("standard"),
    /** docs/product.md, Offers: first to claim (the default) or review offers. */
    hiringMode: z.enum(HIRING_MODES, { error: "Choose first to claim or review offers" }).default("first_to_claim"),
    scheduledDate: isoDateTimeSchema.nullable().optional(),
    location: optionalText(300, "Location"),
    city: optionalText(100, "City"),
    state: optionalState,
    lat: latSchema.optional().nullable(),
    lon: lonSchema.optional().nullable(),
    startLocation: optionalText(300, "Start location"),
    startCity: optionalText(100, "Start city"),
    startState: optionalState,
    startLat: latSchema.optional().nullable(),
    startLon: lonSchema.optional().nullable(),
    endLocation: optionalText(300, "End location"),
    endCity: optionalText(100, "End city"),
    endState: optionalState,
    endLat: latSchema.optional().nullable(),
    endLon: lonSchema.optional().nullable(),
    stops: z
      .array(stopInputSchema)
      .max(MAX_STOPS, { error: `At most ${MAX_STOPS} stops` })
      .nullable()
      .optional(),
    /** Offered to one provider first (docs/product.md, Requesting a provider); absent for a task for everyone. */
    request: taskRequestInputSchema.optional(),
    /** How long the poster expects it to take, in hours; Felix's reading of the work otherwise (docs/decisions/074). */
    estimatedHours: estimatedHoursSchema.nullable().optional(),
  })
  .superRefine((body, ctx) => {
    if (body.request && body.hiringMode === "offers") ctx.addIssue({ code: "custom", path: ["hiringMode"], message: REQUEST_MESSAGES.withOffers });
    const chosen = body.request?.startsAt;
    if (chosen && body.scheduledDate && Date.parse(chosen) !== Date.parse(body.scheduledDate)) {
      ctx.addIssue({ code: "custom", path: ["scheduledDate"], message: "The date needed is the provider's time you chose. Choose one of them only." });
    }
    const hasRoute = Boolean(body.startLocation || body.endLocation || (body.stops && body.stops.length > 0));
    if (!hasRoute && !body.location) {
      ctx.addIssue({ code: "custom", path: ["location"], message: "Location is required" });
    }
    if (hasRoute && (!body.startLocation || !body.endLocation)) {
      ctx.addIssue({
        code: "custom",
        path: [body.startLocation ? "endLocation" : "startLocation"],
        message: "A route needs a start and an end location",
      });
    }
  });
export type CreateTaskBody = z.input<typeof createTaskBodySchema>;

/**
 * PATCH /api/tasks/{id}: what the poster may change while the task is open (docs/decisions/058).
 * The form sends every field; a route task keeps its places (the place fields apply to a task with
 * one place). The budget is priced again by the one fee function on the server.
 */
export const editTaskBodySchema = z.object({
  title: text(3, 120, "Title"),
  description: text(1, 5000, "Description"),
  budget: budgetDollarsSchema,
  scheduledDate: isoDateTimeSchema.nullable().optional(),
  /** Absent: the estimate stays as it was; null: none (Felix's reading of the work then). */
  estimatedHours: estimatedHoursSchema.nullable().optional(),
  location: optionalText(300, "Location"),
  city: optionalText(100, "City"),
  state: optionalState,
  lat: latSchema.optional().nullable(),
  lon: lonSchema.optional().nullable(),
});

export const stopSchema = z.object({
  address: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  notes: z.string().nullable(),
});

/**
 * A task's poster or provider as anyone may see them: the display name ("Maria G."), the public
 * photo and the profile's id, with their rating from revealed reviews. Never the full last name
 * (docs/product.md, "People you can see").
 */
export const taskPartySchema = z.object({
  id: z.uuid(),
  displayName: z.string(),
  photoUrl: z.string().nullable(),
  rating: z.number().nullable(),
  reviewCount: z.number().int(),
});
export type TaskParty = z.infer<typeof taskPartySchema>;

/** The same person for the task's insiders (its poster, its assigned provider, admins): with the full name. */
export const taskInsiderPartySchema = taskPartySchema.extend({
  firstName: z.string(),
  lastName: z.string(),
});
export type TaskInsiderParty = z.infer<typeof taskInsiderPartySchema>;

/**
 * The provider who claimed, as the poster (and admins) see them before paying: a display name
 * ("Maria G."), never the full last name, and the record that helps decide whether to pay or to
 * decline (docs/product.md, "The poster sees who claimed"). Strangers see the same card (a display name is public, decision 023).
 */
export const taskProviderCardSchema = z.object({
  id: z.uuid(),
  displayName: z.string(),
  profilePhotoUrl: z.string().nullable(),
  /** Average of revealed reviews, one decimal; null without any. */
  rating: z.number().nullable(),
  reviewCount: z.number().int(),
  /** Tasks they completed as provider. */
  completedTasks: z.number().int(),
});
export type TaskProviderCard = z.infer<typeof taskProviderCardSchema>;

/** The same provider for the task's insiders: with the full name. */
export const taskInsiderProviderCardSchema = taskProviderCardSchema.extend({
  firstName: z.string(),
  lastName: z.string(),
});

/**
 * What anyone may see of a task. Street addresses are absent by construction: lists use this
 * schema, so a field not named here can never leave the server.
 */
export const taskPublicSchema = z.object({
  id: z.uuid(),
  title: z.string(),
  description: z.string(),
  category: z.enum(CATEGORY_VALUES),
  urgency: z.enum(URGENCIES),
  budget: z.number(),
  urgentFee: z.number(),
  serviceFee: z.number(),
  totalAmount: z.number(),
  /**
   * What the provider takes home and what the platform keeps of budget + surcharge, fixed when the
   * task was priced ("You'll earn" reads it; docs/decisions/073-one-account-of-each-tasks-money.md).
   */
  providerShare: z.number(),
  platformCommission: z.number(),
  scheduledDate: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  startCity: z.string().nullable(),
  startState: z.string().nullable(),
  endCity: z.string().nullable(),
  endState: z.string().nullable(),
  stopCount: z.number().int(),
  isRoute: z.boolean(),
  /** Rounded to 0.01 degree (about a kilometre): enough for distance, not for a doorstep. */
  approxLat: z.number().nullable(),
  approxLon: z.number().nullable(),
  /** Miles from the point given in the query, when one was given and the task has a position. */
  distanceMiles: z.number().nullable(),
  status: z.enum(TASK_STATUSES),
  hiringMode: z.enum(HIRING_MODES),
  createdAt: z.string(),
  userId: z.uuid(),
  providerId: z.uuid().nullable(),
  paymentDeadline: z.string().nullable(),
  paymentCapturedAt: z.string().nullable(),
  /** When the poster last edited it while open; null if never (docs/decisions/058-withdrawing-and-editing.md). */
  editedAt: z.string().nullable(),
  poster: taskPartySchema,
  provider: taskProviderCardSchema.nullable(),
  /**
   * The provider the task was requested from, until when they may answer and what happens then,
   * while their answer is awaited; null otherwise, and for everyone but the task's insiders
   * (docs/product.md, Requesting a provider).
   */
  requestedProviderId: z.uuid().nullable(),
  requestedProviderName: z.string().nullable(),
  requestExpiresAt: z.string().nullable(),
  requestFallback: z.enum(REQUEST_FALLBACKS).nullable(),
  /**
   * Once the request was answered or ran out: how (decision 082), with requestedProviderId and
   * requestedProviderName still naming that provider; while the provider it names is the task's
   * provider, or the task has none, and only for the task's insiders. Null otherwise.
   */
  requestOutcome: z.enum(REQUEST_OUTCOMES).nullable(),
  /**
   * Time and turning up (docs/decisions/074-time-and-turning-up.md): the IANA zone of the task's place
   * (its time is told on that clock) and how long it takes on the provider's calendar, in minutes.
   */
  timeZone: z.string(),
  durationMinutes: z.number().int(),
  /** A new start one side proposed and the other has not answered, and who proposed it; insiders only, null otherwise. */
  proposedStartAt: z.string().nullable(),
  proposedById: z.uuid().nullable(),
  /** When the provider said they were on the way, and the arrival they were estimated at; insiders only. */
  onMyWayAt: z.string().nullable(),
  arrivalEstimateAt: z.string().nullable(),
});
export type TaskPublic = z.infer<typeof taskPublicSchema>;

/**
 * How an admin's resolution of a reported problem settled a task it ended (claimed or in progress →
 * cancelled): all refunded to the poster, partly refunded (the rest paid to the provider), or all
 * paid to the provider (docs/product.md, Money: disputes).
 */
export const TASK_SETTLEMENTS = ["refunded", "partly_refunded", "provider_paid"] as const;
export type TaskSettlement = (typeof TASK_SETTLEMENTS)[number];

/** The poster, the assigned provider and admins see the addresses and each other's full names too. */
export const taskPrivateSchema = taskPublicSchema.extend({
  poster: taskInsiderPartySchema,
  provider: taskInsiderProviderCardSchema.nullable(),
  location: z.string().nullable(),
  startLocation: z.string().nullable(),
  endLocation: z.string().nullable(),
  stops: z.array(stopSchema).nullable(),
  lat: z.number().nullable(),
  lon: z.number().nullable(),
  startLat: z.number().nullable(),
  startLon: z.number().nullable(),
  endLat: z.number().nullable(),
  endLon: z.number().nullable(),
  /** A cancelled task's settlement by an admin's resolution; null for every other task. */
  settlement: z.enum(TASK_SETTLEMENTS).nullable(),
});
export type TaskPrivate = z.infer<typeof taskPrivateSchema>;

/** Detail answer: `visibility` tells the client which of the two shapes it got. */
export const taskDetailSchema = z.discriminatedUnion("visibility", [
  taskPrivateSchema.extend({ visibility: z.literal("private"), photos: z.array(taskPhotoSchema) }),
  taskPublicSchema.extend({ visibility: z.literal("public"), photos: z.array(taskPhotoSchema) }),
]);
export type TaskDetail = z.infer<typeof taskDetailSchema>;

export const TASK_SORTS = ["newest", "budget_desc", "budget_asc", "distance"] as const;

export const openTasksQuerySchema = z
  .object({
    search: z.string().trim().max(200, { error: "search must be at most 200 characters" }).optional(),
    category: z.enum(CATEGORY_VALUES, { error: "category must be one of the listed categories" }).optional(),
    sort: z.enum(TASK_SORTS, { error: "sort must be newest, budget_desc, budget_asc or distance" }).default("newest"),
    ...boardFilterFields,
    lat: z.coerce.number().min(-90).max(90).optional(),
    lon: z.coerce.number().min(-180).max(180).optional(),
    page: z.coerce.number().int().min(1).max(10_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(100).default(30),
  })
  .superRefine((q, ctx) => {
    checkFilterRules(q, ctx);
    if (q.near !== undefined && (q.lat !== undefined || q.lon !== undefined)) {
      ctx.addIssue({ code: "custom", path: ["near"], message: "Give near, or lat and lon, not both. Remove one of them." });
    }
    if (q.sort === "distance" && q.near === undefined && (q.lat === undefined || q.lon === undefined)) {
      ctx.addIssue({ code: "custom", path: ["lat"], message: "Sorting by distance needs a place. Give near, or lat and lon." });
    }
  });

/** A job-board card: the public view and its first photo's small image (docs/product.md#task-photos). */
export const boardTaskSchema = taskPublicSchema.extend({ photo: taskPhotoThumbSchema.nullable() });
export type BoardTask = z.infer<typeof boardTaskSchema>;
export const taskListSchema = z.array(boardTaskSchema);

/** GET /api/tasks/open/radius-counts: the board's filters with `near`, without sort or paging. */
export const radiusCountsQuerySchema = openTasksQuerySchema.refine((q) => q.near !== undefined, {
  path: ["near"],
  error: "Give near: a ZIP code or lat,lon to count tasks around.",
});

/** How many open tasks match at each radius (docs/product.md#job-board-filters: "what to loosen"). */
export const radiusCountsSchema = z.object({
  counts: z.array(z.object({ radiusMiles: z.literal(RADIUS_MILES), count: z.number().int() })),
});
export type RadiusCounts = z.infer<typeof radiusCountsSchema>;
export const myTaskListSchema = z.array(taskPrivateSchema);

/** GET /api/tasks/declined: the open tasks whose poster declined the signed-in provider. */
export const declinedTasksSchema = z.object({ taskIds: z.array(z.uuid()) });
export type DeclinedTasks = z.infer<typeof declinedTasksSchema>;

export const geocodeQuerySchema = z.object({
  q: z.string().trim().min(3, { error: "q must be at least 3 characters" }).max(200, { error: "q must be at most 200 characters" }),
});

/** An address suggestion as the form fills it in (docs/product.md, Tasks), plus the raw display name. */
export const geocodeResultSchema = z.object({
  displayName: z.string(),
  fullAddress: z.string(),
  city: z.string(),
  state: z.string(),
  lat: z.number(),
  lon: z.number(),
});
export type GeocodeResult = z.infer<typeof geocodeResultSchema>;
export const geocodeResultsSchema = z.array(geocodeResultSchema);
