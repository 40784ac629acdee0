import { z } from "zod";
import { MAX_STOPS } from "./constants.js";
import { text } from "./common.js";
import {
  FELIX_URGENCIES,
  type BudgetEvaluation,
  type MarketStats,
  type PricingBreakdown,
} from "./felix-pricing.js";
import { WORK_QUESTIONS, type WorkQuestion } from "./felix-work.js";
import { dollarsSchema } from "./money-schemas.js";
import { MAX_BUDGET_CENTS, formatDollars } from "./money.js";

// API contracts of Ask Felix (docs/product.md, Felix; POST /api/ask-felix). The context
// comes from a half-filled form or a task detail, so every field is optional and null is accepted
// for a field the task does not have.

const optionalText = (max: number, field: string) =>
  z.string().trim().max(max, { error: `${field} must be at most ${max} characters` }).nullish();

export const felixUrgencySchema = z.enum(FELIX_URGENCIES, { error: "Urgency must be standard, urgent or flexible" });

export const FELIX_MODES = ["recommend", "evaluate"] as const;
export type FelixMode = (typeof FELIX_MODES)[number];

// Coordinates are optional: the web sends them when an address was picked from the autocomplete
// (or the task has them), and the server geocodes only the places that come without.
const coordinate = (name: string, limit: number) =>
  z
    .number({ error: `${name} must be a number` })
    .min(-limit, { error: `${name} must be between -${limit} and ${limit}` })
    .max(limit, { error: `${name} must be between -${limit} and ${limit}` })
    .nullish();
const latitude = (field: string) => coordinate(`${field} latitude`, 90);
const longitude = (field: string) => coordinate(`${field} longitude`, 180);

export const felixStopSchema = z.object({
  address: text(1, 300, "Stop address"),
  city: optionalText(100, "Stop city"),
  // Felix reads states as typed or as the geocoder spells them ("Maryland"), so no two-letter rule.
  state: optionalText(100, "Stop state"),
  lat: latitude("Stop"),
  lon: longitude("Stop"),
});

export const felixContextSchema = z.object({
  title: optionalText(120, "Title"),
  description: optionalText(5000, "Description"),
  category: optionalText(100, "Category"),
  startLocation: optionalText(300, "Start location"),
  endLocation: optionalText(300, "End location"),
  location: optionalText(300, "Location"),
  city: optionalText(100, "City"),
  state: optionalText(100, "State"),
  startCity: optionalText(100, "Start city"),
  startState: optionalText(100, "Start state"),
  endCity: optionalText(100, "End city"),
  endState: optionalText(100, "End state"),
  lat: latitude("Location"),
  lon: longitude("Location"),
  startLat: latitude("Start"),
  startLon: longitude("Start"),
  endLat: latitude("End"),
  endLon: longitude("End"),
  stops: z
    .array(felixStopSchema)
    .max(MAX_STOPS, { error: `At most ${MAX_STOPS} stops` })
    .nullish()
    .transform((stops) => stops ?? []),
  urgency: felixUrgencySchema.default("standard"),
  offeredBudget: dollarsSchema
    .max(MAX_BUDGET_CENTS / 100, { error: `Offered budget must be at most ${formatDollars(MAX_BUDGET_CENTS)}` })
    .nullish(),
  /**
   * The price of one offer on a task that takes offers: an offer its poster is reading, or the
   * price a provider is about to offer. Felix judges this price, not the task's budget, in the
   * words of whoever asks (docs/decisions/072-felix-sanity-bounds-couriers-and-offers.md).
   */
  offerPrice: dollarsSchema
    .max(MAX_BUDGET_CENTS / 100, { error: `Offer price must be at most ${formatDollars(MAX_BUDGET_CENTS)}` })
    .nullish(),
  /**
   * The poster's answer to Felix's question about the size of the work ("About how long will it
   * take?"): the dialog keeps it for the rest of the conversation, so no state is stored.
   */
  workAnswer: z
    .object({
      question: z.enum(Object.keys(WORK_QUESTIONS) as [WorkQuestion, ...WorkQuestion[]], { error: "The answered question must be hours, rooms or nights" }),
      text: text(1, 200, "Answer"),
    })
    .nullish(),
  /**
   * A posted task: the server reads its places, stops and urgency from the task itself with
   * felixContextOfTask, so the provider who sees only a city gets the same engine inputs as the
   * poster (docs/decisions/026-one-felix-budget-for-both-sides.md).
   */
  taskId: z.uuid({ error: "taskId must be a UUID" }).nullish(),
});
export type FelixContext = z.infer<typeof felixContextSchema>;

type Maybe<T> = T | null | undefined;

/** A task's places as the create-task body and the tasks table both hold them. */
export interface FelixTaskPlaces {
  title?: Maybe<string>;
  description?: Maybe<string>;
  category?: Maybe<string>;
  urgency?: Maybe<"standard" | "urgent">;
  location?: Maybe<string>;
  city?: Maybe<string>;
  state?: Maybe<string>;
  lat?: Maybe<number>;
  lon?: Maybe<number>;
  startLocation?: Maybe<string>;
  startCity?: Maybe<string>;
  startState?: Maybe<string>;
  startLat?: Maybe<number>;
  startLon?: Maybe<number>;
  endLocation?: Maybe<string>;
  endCity?: Maybe<string>;
  endState?: Maybe<string>;
  endLat?: Maybe<number>;
  endLon?: Maybe<number>;
  stops?: Maybe<readonly { address?: Maybe<string>; city?: Maybe<string>; state?: Maybe<string>; lat?: Maybe<number>; lon?: Maybe<number> }[]>;
}

const nullable = <T>(value: Maybe<T>): T | null => value ?? null;
const filled = (value: Maybe<string>): string | null => (value && value.trim() !== "" ? value.trim() : null);

/**
 * The one derivation of Felix's engine inputs (route points, stops, urgency) from a task: the
 * poster's wizard calls it on the body it is about to post, the server on the stored task when a
 * provider asks about it. One task, one fair budget, whoever asks.
 */
export function felixContextOfTask(task: FelixTaskPlaces): FelixContext {
  const isRoute = Boolean(filled(task.startLocation) ?? filled(task.endLocation)) || (task.stops ?? []).some((s) => filled(s.address));
  const common = {
    title: filled(task.title),
    description: filled(task.description),
    category: filled(task.category),
    urgency: task.urgency ?? "standard",
  };
  if (!isRoute) {
    return {
      ...common,
      location: filled(task.location),
      city: filled(task.city),
      state: filled(task.state),
      lat: nullable(task.lat),
      lon: nullable(task.lon),
      stops: [],
    };
  }
  return {
    ...common,
    startLocation: filled(task.startLocation),
    startCity: filled(task.startCity),
    startState: filled(task.startState),
    startLat: nullable(task.startLat),
    startLon: nullable(task.startLon),
    endLocation: filled(task.endLocation),
    endCity: filled(task.endCity),
    endState: filled(task.endState),
    endLat: nullable(task.endLat),
    endLon: nullable(task.endLon),
    stops: (task.stops ?? []).flatMap((s) => {
      const address = filled(s.address);
      return address ? [{ address, city: filled(s.city), state: filled(s.state), lat: nullable(s.lat), lon: nullable(s.lon) }] : [];
    }),
  };
}

export const felixRequestSchema = z.object({
  message: text(1, 1000, "Message"),
  context: felixContextSchema.default({ stops: [], urgency: "standard" }),
  mode: z.enum(FELIX_MODES, { error: "Mode must be recommend or evaluate" }),
});
export type FelixRequest = z.input<typeof felixRequestSchema>;

export const pricingBreakdownSchema = z.object({
  distance: z.number(),
  mileageCost: z.number(),
  driveHours: z.number(),
  laborHours: z.number(),
  workUnit: z.enum(["hour", "night", "visit"]),
  workQuantity: z.number(),
  helpers: z.number().int(),
  rate: z.number(),
  driveCost: z.number(),
  workCost: z.number(),
  laborCost: z.number(),
  urgency: felixUrgencySchema,
  urgencyMultiplier: z.number(),
  urgencyLaborCost: z.number(),
  stopsCost: z.number(),
  stops: z.number().int(),
  tripFee: z.number(),
  minimumTopUp: z.number(),
  total: z.number(),
  estimate: z.number(),
  suggestedBudget: z.number(),
  low: z.number(),
  high: z.number(),
}) satisfies z.ZodType<PricingBreakdown>;

/** What Felix used for the work, in words, and the question it asks when it could only guess. */
export const felixWorkSchema = z.object({
  label: z.string(),
  quantityFrom: z.string(),
  rateFrom: z.string(),
  question: z.enum(Object.keys(WORK_QUESTIONS) as [WorkQuestion, ...WorkQuestion[]]).nullable(),
});

export const budgetEvaluationSchema = z.object({
  status: z.enum(["high", "low", "fair"]),
  percentDiff: z.number(),
  offeredBudget: z.number(),
  fairBudget: z.number(),
}) satisfies z.ZodType<BudgetEvaluation>;

export const marketStatsSchema = z.object({
  count: z.number().int(),
  median: z.number(),
  p25: z.number(),
  p75: z.number(),
}) satisfies z.ZodType<MarketStats>;

export const felixResponseSchema = z.object({
  reply: z.string(),
  suggestedBudget: z.number().nullable(),
  pricingBreakdown: pricingBreakdownSchema.nullable(),
  evaluation: budgetEvaluationSchema.nullable(),
  market: marketStatsSchema.nullable(),
  work: felixWorkSchema.nullable(),
});
export type FelixResponse = z.infer<typeof felixResponseSchema>;

export const felixChatMessageSchema = z.object({
  role: z.enum(["assistant", "user"]),
  content: z.string(),
});
export type FelixChatMessage = z.infer<typeof felixChatMessageSchema>;
