import { MIN_BUDGET_CENTS } from "./constants.js";
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
/** Fixed time on every errand (parking, handover), in hours. */
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

export interface PricingInput {
  miles: number;
  stops: number;
  urgency: FelixUrgency;
}

/**
 * The pricing breakdown Ask Felix answers (docs/product.md, Felix), plus the multiplier applied. Money in
 * dollars, whole cents. Every line is computed from the figures shown before it, so the money lines
 * add up to the total exactly: mileageCost + urgencyLaborCost + stopsCost + minimumTopUp = total.
 */
export interface PricingBreakdown {
  /** Miles to 0.1: the distance shown is the distance priced. */
  distance: number;
  /** distance × the mileage rate. */
  mileageCost: number;
  /** To 0.01 hour: distance / speed + the base half hour. */
  laborHours: number;
  /** laborHours × the hourly rate, before the urgency multiplier. */
  laborCost: number;
  urgency: FelixUrgency;
  urgencyMultiplier: number;
  /** laborCost × urgencyMultiplier: the labor line that is summed. */
  urgencyLaborCost: number;
  stopsCost: number;
  stops: number;
  /** What lifts a smaller sum to the minimum budget; 0 above it. */
  minimumTopUp: number;
  total: number;
  suggestedBudget: number;
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

/**
 * The rules of docs/product.md (Felix), worked in whole cents from the figures the breakdown shows
 * (distance to 0.1 mile, hours to 0.01), so the lines a person reads add up to the total they read
 * (docs/decisions/026-one-felix-budget-for-both-sides.md). The suggestion is the total to the
 * nearest $5, halves up: 22.50 -> 25, 22.49 -> 20.
 */
export function computePricing({ miles, stops, urgency }: PricingInput): PricingBreakdown {
  if (!Number.isFinite(miles) || miles < 0) throw new RangeError("miles must be a finite number >= 0");
  if (!Number.isSafeInteger(stops) || stops < 0) throw new RangeError("stops must be an integer >= 0");
  const distance = roundTo(miles, 1);
  const laborHours = roundTo(distance / AVERAGE_SPEED_MPH + BASE_LABOR_HOURS, 2);
  const multiplier = URGENCY_MULTIPLIERS[urgency];
  const mileageCents = Math.round(distance * MILEAGE_RATE * 100);
  const laborCents = Math.round(laborHours * LABOR_RATE_PER_HOUR * 100);
  const urgencyLaborCents = Math.round(laborCents * multiplier);
  const stopsCents = stops * STOP_COST * 100;
  const sumCents = mileageCents + urgencyLaborCents + stopsCents;
  const topUpCents = Math.max(0, Math.round(MIN_SUGGESTED_TOTAL * 100) - sumCents);
  const totalCents = sumCents + topUpCents;
  const stepCents = SUGGESTION_STEP * 100;
  const suggestedBudget = (Math.floor((totalCents + stepCents / 2) / stepCents) * stepCents) / 100;
  return {
    distance,
    mileageCost: mileageCents / 100,
    laborHours,
    laborCost: laborCents / 100,
    urgency,
    urgencyMultiplier: multiplier,
    urgencyLaborCost: urgencyLaborCents / 100,
    stopsCost: stopsCents / 100,
    stops,
    minimumTopUp: topUpCents / 100,
    total: totalCents / 100,
    suggestedBudget,
  };
}

/**
 * Compares an offer with the fair budget. Inside ±15% the difference is within the noise of the
 * estimate; below it the provider's fuel and time are not covered, above it the poster overpays.
 * The status follows the rounded percentage, so "+15.0%" never shows as anything but fair.
 */
export function evaluateBudget(offeredBudget: number, fairBudget: number): BudgetEvaluation {
  if (!Number.isFinite(fairBudget) || fairBudget <= 0) throw new RangeError("fairBudget must be a positive number");
  if (!Number.isFinite(offeredBudget)) throw new RangeError("offeredBudget must be a finite number");
  const percentDiff = roundTo(((offeredBudget - fairBudget) / fairBudget) * 100, 1);
  const status: BudgetStatus =
    percentDiff > FAIR_BAND_PERCENT ? "high" : percentDiff < -FAIR_BAND_PERCENT ? "low" : "fair";
  return { status, percentDiff, offeredBudget, fairBudget };
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
