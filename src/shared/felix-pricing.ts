import { MIN_BUDGET_CENTS } from "./constants.js";
import type { Band, WorkUnit } from "./felix-work.js";
import { haversineMiles } from "./geo.js";

// Felix, the budget assistant: the pure pricing engine (docs/product.md, Felix; decision 006). The server feeds it geocoded
// route points and the open-task market; the web shows its breakdown. Rationale for the road
// factor, the fair band and the market check: docs/decisions/006-felix-distance-and-fairness.md.

/** Felix knows a third urgency that tasks do not: a flexible date earns the poster a discount. */
export const FELIX_URGENCIES = ["standard", "urgent", "flexible"] as const;
export type FelixUrgency = (typeof FELIX_URGENCIES)[number];

export const URGENCY_MULTIPLIERS: Record<FelixUrgency, number> = { standard: 1, urgent: 1.3, flexible: 0.9 };

/** Dollars per mile: the 2019 IRS standard mileage rate, which covers fuel, wear and insurance. */
export const MILEAGE_RATE = 0.58;
export const LABOR_RATE_PER_HOUR = 20;
export const AVERAGE_SPEED_MPH = 50;
/** The spec's fixed time on every errand (parking, handover), in hours: the work when none is given. */
export const BASE_LABOR_HOURS = 0.5;
export const STOP_COST = 10;
/** The suggestion never goes below what a task may be posted for. */
export const MIN_SUGGESTED_TOTAL = MIN_BUDGET_CENTS / 100;
export const SUGGESTION_STEP = 5;

/**
 * Great-circle distance understates driving: US road networks average about 1.2 to 1.4 times the
 * straight line, and 1.25 is a middle value that needs no routing service (which would cost money
 * per request and leak addresses to a third party). With ROUTING_URL the server measures the roads
 * instead and keeps this estimate as its fallback.
 */
export const ROAD_FACTOR = 1.25;

/** Offers within ±15% of the fair budget are fair; see evaluateBudget. */
export const FAIR_BAND_PERCENT = 15;

/** Fewer comparable tasks than this in a category say more about chance than about the market. */
export const MARKET_MIN_SAMPLE = 5;

export interface GeoPoint {
  lat: number;
  lon: number;
}

/** The work priced: so many units (hours, nights, visits) per helper at a rate per unit, each a low-middle-high band. */
export interface PricedWork {
  unit: WorkUnit;
  quantity: Band;
  helpers: number;
  rate: Band;
  /** A fee per job on top of the hours (a shopping run's trip fee); none by default. */
  fee?: Band;
  /** Dollars an hour for the driving of work by the night or visit: the spec's $20 by default, scaled by the place (felix-region.ts). */
  driveRate?: number;
  /**
   * A direct run: the vehicle is the sender's alone, so the way back is priced too, the miles and
   * the driving twice over (docs/decisions/080-felix-regional-labour-and-shown-bounds.md).
   */
  roundTrip?: boolean;
}

/** The spec's formula: half an hour at $20 (docs/product.md#felix). */
export const SPEC_WORK: PricedWork = {
  unit: "hour",
  quantity: { low: BASE_LABOR_HOURS, mid: BASE_LABOR_HOURS, high: BASE_LABOR_HOURS },
  helpers: 1,
  rate: { low: LABOR_RATE_PER_HOUR, mid: LABOR_RATE_PER_HOUR, high: LABOR_RATE_PER_HOUR },
};

export interface PricingInput {
  miles: number;
  stops: number;
  urgency: FelixUrgency;
  /** The work's own size and rate (src/shared/felix-work.ts); the spec's half hour at $20 without it. */
  work?: PricedWork;
}

/**
 * The pricing breakdown Ask Felix answers (docs/product.md, Felix), plus the multiplier applied. Money in
 * dollars, whole cents. Every line is computed from the figures shown before it, so the money lines
 * add up to the total exactly: mileageCost + urgencyLaborCost + stopsCost + minimumTopUp = total.
 */
export interface PricingBreakdown {
  /** Miles to 0.1: the distance shown is the distance priced (there and back for a direct run). */
  distance: number;
  /** distance × the mileage rate. */
  mileageCost: number;
  /** To 0.01 hour: distance / speed. */
  driveHours: number;
  /** Hours of work to 0.01 (driving and, for hourly work, the work itself), per helper. */
  laborHours: number;
  workUnit: WorkUnit;
  /** Units of work per helper: hours, nights or visits. */
  workQuantity: number;
  helpers: number;
  /** Dollars per unit per helper. */
  rate: number;
  /** Driving time at the rate (hourly work) or at the drive rate, $20 by default (work by the night or visit), for every helper. */
  driveCost: number;
  /** workQuantity × rate × helpers. */
  workCost: number;
  /** driveCost + workCost, before the urgency multiplier. */
  laborCost: number;
  urgency: FelixUrgency;
  urgencyMultiplier: number;
  /** laborCost × urgencyMultiplier: the labor line that is summed. */
  urgencyLaborCost: number;
  stopsCost: number;
  stops: number;
  /** A fee per job (a shopping run's trip fee), not multiplied by urgency; 0 for other work. */
  tripFee: number;
  /** What lifts a smaller sum to the minimum budget; 0 above it. */
  minimumTopUp: number;
  total: number;
  /**
   * What the work costs before the platform's minimum: the sum of the lines without the top-up, to
   * the nearest $1 below the minimum and to the nearest $5 from it (then equal to suggestedBudget).
   * Felix states it and the minimum apart ("Errandly's minimum budget is $20").
   */
  estimate: number;
  suggestedBudget: number;
  /** The suggestion for the low and the high end of the work's quantity and rate. */
  low: number;
  high: number;
}

export type BudgetStatus = "high" | "low" | "fair";

export interface BudgetEvaluation {
  status: BudgetStatus;
  /** Percent of the fair budget, one decimal, positive when the offer is above it. */
  percentDiff: number;
  offeredBudget: number;
  fairBudget: number;
}

export interface MarketStats {
  count: number;
  median: number;
  p25: number;
  p75: number;
}

/** `+ 0` turns -0 (from rounding a small negative) into 0, which prints and compares as expected. */
function roundTo(value: number, decimals: number): number {
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale + 0;
}


/** Estimated driving miles along the points in order (start, stops, end); one point or none is 0. */
export function routeMiles(points: readonly GeoPoint[], roadFactor: number = ROAD_FACTOR): number {
  let miles = 0;
  for (let i = 1; i < points.length; i++) {
    const from = points[i - 1];
    const to = points[i];
    if (from && to) miles += haversineMiles(from, to);
  }
  return miles * roadFactor;
}

/** Cents to the nearest `step` dollars, halves up, in dollars. */
const toStep = (cents: number, step: number) => (Math.floor((cents + (step * 100) / 2) / (step * 100)) * step * 100) / 100;

/** The breakdown for one quantity and rate, in whole cents from the figures it shows. */
function priceOnce(miles: number, stops: number, urgency: FelixUrgency, work: PricedWork, quantity: number, rate: number, fee: number) {
  const { unit, helpers } = work;
  const distance = roundTo(miles * (work.roundTrip ? 2 : 1), 1);
  const driveHours = roundTo(distance / AVERAGE_SPEED_MPH, 2);
  const workQuantity = roundTo(quantity, 2);
  const hourly = unit === "hour";
  const laborHours = hourly ? roundTo(driveHours + workQuantity, 2) : driveHours;
  const multiplier = URGENCY_MULTIPLIERS[urgency];
  const mileageCents = Math.round(distance * MILEAGE_RATE * 100);
  const driveCents = hourly ? Math.round(driveHours * rate * helpers * 100) : Math.round(driveHours * (work.driveRate ?? LABOR_RATE_PER_HOUR) * 100);
  const workCents = Math.round(workQuantity * rate * helpers * 100);
  const laborCents = driveCents + workCents;
  const urgencyLaborCents = Math.round(laborCents * multiplier);
  const stopsCents = stops * STOP_COST * 100;
  const feeCents = Math.round(fee * 100);
  const sumCents = mileageCents + urgencyLaborCents + stopsCents + feeCents;
  const topUpCents = Math.max(0, Math.round(MIN_SUGGESTED_TOTAL * 100) - sumCents);
  const totalCents = sumCents + topUpCents;
  const suggestedBudget = toStep(totalCents, SUGGESTION_STEP);
  const estimate = topUpCents > 0 ? toStep(sumCents, 1) : suggestedBudget;
  return {
    distance,
    mileageCost: mileageCents / 100,
    driveHours,
    laborHours,
    workUnit: unit,
    workQuantity,
    helpers,
    rate,
    driveCost: driveCents / 100,
    workCost: workCents / 100,
    laborCost: laborCents / 100,
    urgency,
    urgencyMultiplier: multiplier,
    urgencyLaborCost: urgencyLaborCents / 100,
    stopsCost: stopsCents / 100,
    stops,
    tripFee: feeCents / 100,
    minimumTopUp: topUpCents / 100,
    total: totalCents / 100,
    estimate,
    suggestedBudget,
  };
}

/**
 * The rules of docs/product.md (Felix), worked in whole cents from the figures the breakdown shows
 * (distance to 0.1 mile, hours to 0.01), so the lines a person reads add up to the total they read
 * (docs/decisions/026-one-felix-budget-for-both-sides.md). The spec's fixed half hour is replaced
 * by the work's own quantity at its rate (docs/decisions/054-felix-prices-the-works-own-hours.md).
 * The suggestion is the total to the nearest $5, halves up: 22.50 -> 25, 22.49 -> 20; low and high
 * are the suggestions for the low and high ends of the work's quantity and rate. Below the $20
 * minimum the estimate keeps what the work costs, to the dollar, and the top-up line lifts the
 * suggestion to the minimum (docs/decisions/072-felix-sanity-bounds-couriers-and-offers.md).
 */
export function computePricing({ miles, stops, urgency, work = SPEC_WORK }: PricingInput): PricingBreakdown {
  if (!Number.isFinite(miles) || miles < 0) throw new RangeError("miles must be a finite number >= 0");
  if (!Number.isSafeInteger(stops) || stops < 0) throw new RangeError("stops must be an integer >= 0");
  if (!Number.isSafeInteger(work.helpers) || work.helpers < 1) throw new RangeError("helpers must be an integer >= 1");
  const fee = work.fee ?? { low: 0, mid: 0, high: 0 };
  for (const figure of [...Object.values(work.quantity), ...Object.values(work.rate), ...Object.values(fee), work.driveRate ?? 0]) {
    if (!Number.isFinite(figure) || figure < 0) throw new RangeError("work quantity, rate, fee and drive rate must be finite numbers >= 0");
  }
  const at = (q: number, r: number, f: number) => priceOnce(miles, stops, urgency, work, q, r, f);
  const breakdown = at(work.quantity.mid, work.rate.mid, fee.mid);
  const low = Math.min(breakdown.suggestedBudget, at(work.quantity.low, work.rate.low, fee.low).suggestedBudget);
  const high = Math.max(breakdown.suggestedBudget, at(work.quantity.high, work.rate.high, fee.high).suggestedBudget);
  return { ...breakdown, low, high };
}

/**
 * Compares an offer with the fair budget. Inside ±15% the difference is within the noise of the
 * estimate; below it the provider's fuel and time are not covered, above it the poster overpays.
 * The status follows the rounded percentage, so "+15.0%" never shows as anything but fair.
 */
export function evaluateBudget(offeredBudget: number, fairBudget: number, range?: { low: number; high: number }): BudgetEvaluation {
  if (!Number.isFinite(fairBudget) || fairBudget <= 0) throw new RangeError("fairBudget must be a positive number");
  if (!Number.isFinite(offeredBudget)) throw new RangeError("offeredBudget must be a finite number");
  const percentDiff = roundTo(((offeredBudget - fairBudget) / fairBudget) * 100, 1);
  // Inside the work's own range is fair too: a 4-hour clean at a 3-hour clean's price is not "high".
  const inRange = range !== undefined && offeredBudget >= range.low && offeredBudget <= range.high;
  const status: BudgetStatus = inRange
    ? "fair"
    : percentDiff > FAIR_BAND_PERCENT ? "high" : percentDiff < -FAIR_BAND_PERCENT ? "low" : "fair";
  return { status, percentDiff, offeredBudget, fairBudget };
}

/**
 * The range an offer is judged against and both sides are shown: the work's own range (low to
 * high), at least the fair budget ±15% (docs/decisions/026-one-felix-budget-for-both-sides.md).
 */
export function fairRange(p: Pick<PricingBreakdown, "low" | "high" | "suggestedBudget">): { low: number; high: number } {
  return {
    low: Math.min(p.low, Math.round(p.suggestedBudget * (100 - FAIR_BAND_PERCENT)) / 100),
    high: Math.max(p.high, Math.round(p.suggestedBudget * (100 + FAIR_BAND_PERCENT)) / 100),
  };
}

/** Linear interpolation between closest ranks (the spreadsheet PERCENTILE.INC method); `sorted` ascending, non-empty. */
function quantile(sorted: readonly number[], p: number): number {
  const position = (sorted.length - 1) * p;
  const lower = Math.floor(position);
  const below = sorted[lower] ?? 0;
  const above = sorted[Math.min(lower + 1, sorted.length - 1)] ?? below;
  return below + (position - lower) * (above - below);
}

/** Median and quartiles of comparable budgets in dollars, or null below MARKET_MIN_SAMPLE. */
export function marketStats(budgets: readonly number[]): MarketStats | null {
  const sorted = budgets.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length < MARKET_MIN_SAMPLE) return null;
  return {
    count: sorted.length,
    median: roundTo(quantile(sorted, 0.5), 2),
    p25: roundTo(quantile(sorted, 0.25), 2),
    p75: roundTo(quantile(sorted, 0.75), 2),
  };
}
