import { categoryLabel, PROVIDER_SHARE_PERCENT, SERVICE_FEE_PERCENT, URGENT_SURCHARGE_PERCENT } from "../../../shared/constants.js";
import {
  AVERAGE_SPEED_MPH,
  LABOR_RATE_PER_HOUR,
  MILEAGE_RATE,
  MIN_SUGGESTED_TOTAL,
  STOP_COST,
  fairRange,
  type BudgetEvaluation,
  type FelixUrgency,
  type MarketStats,
  type PricingBreakdown,
} from "../../../shared/felix-pricing.js";
import type { BoundsCheck } from "../../../shared/felix-bounds.js";
import { WORK_QUESTIONS, unitCount, type WorkEstimate } from "../../../shared/felix-work.js";
import { dollarsToCents, formatDollars, formatDollarsExact, type TaskPrice } from "../../../shared/money.js";
import { MARKET_RADIUS_MILES } from "./repository.js";

// The built-in composer: Felix's words around the engine's figures, with no network. Every
// amount it writes comes from the engine or the money module, so the language model's answer
// can be checked against the same figures.

export const usd = (dollars: number) => formatDollars(dollarsToCents(dollars));
const usdExact = (cents: number) => formatDollarsExact(cents);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
const hours = (h: number) => plural(h, "hour");
const URGENCY_WORDS: Record<FelixUrgency, string> = { standard: "standard", urgent: "urgent", flexible: "flexible" };

function miles(p: PricingBreakdown): string {
  return p.distance === 0 ? "a single location" : `about ${p.distance} miles`;
}

export function askForMissing(missing: readonly string[], notFound: readonly string[]): string {
  const parts: string[] = [];
  if (missing.length > 0) parts.push(`To work out a fair budget I still need ${joinAnd(missing)}. Could you add ${missing.length === 1 ? "it" : "them"}?`);
  if (notFound.length > 0) {
    parts.push(
      `I couldn't find ${joinAnd(notFound.map((p) => `"${p}"`))} on the map. Could you add the city and state or a ZIP code, or pick the address from the suggestions?`,
    );
  }
  return parts.join(" ");
}

export function askForCategory(): string {
  return "What kind of task is it? Please choose a category (for example Delivery Services or Personal Errands) so I can compare it with similar tasks.";
}

export function marketSentence(market: MarketStats | null, category: string): string {
  if (!market) return "";
  return ` Nearby, ${market.count} completed ${categoryLabel(category)} tasks within ${MARKET_RADIUS_MILES} miles had a median budget of ${usd(market.median)}, and the middle half paid between ${usd(market.p25)} and ${usd(market.p75)}.`;
}

/** "3 hours", "2 nights", "4 hours for each of 3 helpers". */
function workSize(p: PricingBreakdown): string {
  return `${unitCount(p.workUnit, p.workQuantity)}${p.helpers > 1 ? ` for each of ${p.helpers} helpers` : ""}`;
}

const rangeWords = (p: PricingBreakdown) => {
  const range = fairRange(p);
  return range.low < range.high ? `, within a range of ${usd(range.low)} to ${usd(range.high)}` : "";
};

/**
 * What Felix read that would have made a figure far outside the usual range, and the question it
 * asks about it instead of showing that figure (src/shared/felix-bounds.ts, decision 072).
 */
function boundsQuestion(check: BoundsCheck, work: WorkEstimate): string {
  const where = check.rangeFrom === "market" ? `completed ${work.label} tasks nearby` : `${work.label} usually`;
  const side = check.direction === "high" ? "far more than" : "far less than";
  const range = `${usd(check.range.low)} to ${usd(check.range.high)}`;
  if (!check.fellBack) {
    return `I measured ${check.read}, which makes this ${side} ${where} costs (${range}); is that right? If a place is wrong, fix it and ask me again. `;
  }
  return `I read ${check.read}; is that right? It would cost ${side} ${where} costs (${range}), so I haven't used it. Say "yes" if it is, or tell me how long it will really take. Until then I've priced the usual job. `;
}

/**
 * The answer when even the figure Felix would fall back on is outside the bounds (a measured route
 * far longer than the kind of job): the question and what Felix counted, no figure until the
 * poster answers (src/shared/felix-bounds.ts, decision 080).
 */
export function withheldFigure(check: BoundsCheck, category: string, work: WorkEstimate): string {
  const question = boundsQuestion(check, work).replace(" Until then I've priced the usual job. ", " ");
  return `${question}I won't suggest a budget for this ${categoryLabel(category)} task until then: the figure would be a multiple of what it usually costs.`;
}

/** For the provider, who is not asked: what Felix set aside and what it judged against instead. */
export function boundsNote(check: BoundsCheck | null, work: WorkEstimate): string {
  if (!check) return "";
  return check.fellBack
    ? `The task reads as ${check.read}, far outside what ${work.label} usually costs, so I judged it against the usual job. `
    : `The route is ${check.read}, far outside what ${work.label} usually costs. `;
}

/** "I suggest $X", or, under the platform's minimum, what the work costs and the minimum apart. */
function figureWords(p: PricingBreakdown): string {
  if (p.minimumTopUp === 0) return `I suggest a budget of ${usd(p.suggestedBudget)}${rangeWords(p)}`;
  return `this work usually costs about ${usd(p.estimate)}. Errandly's minimum budget is ${usd(MIN_SUGGESTED_TOTAL)}, so I suggest a budget of ${usd(p.suggestedBudget)}`;
}

/** The suggestion, what it counted and where each figure came from, and the question when it could only guess. */
export function suggestion(p: PricingBreakdown, category: string, work: WorkEstimate, check: BoundsCheck | null = null): string {
  const stops = p.stops > 0 ? `, ${usd(p.stopsCost)} for ${plural(p.stops, "stop")}` : "";
  const fee = p.tripFee > 0 ? `, ${usd(p.tripFee)} for the trip` : "";
  const urgency = p.urgency === "standard" ? "" : ` at the ${URGENCY_WORDS[p.urgency]} rate (×${p.urgencyMultiplier} on labor)`;
  const question = work.question && work.question !== "confirm" ? ` ${WORK_QUESTIONS[work.question]} Tell me and I'll use your answer.` : "";
  const first = check ? boundsQuestion(check, work) : "";
  return `${first}For this ${categoryLabel(category)} task (${miles(p)}) ${figureWords(p)}. I counted ${workSize(p)} because ${work.quantityFrom}; ${work.rateFrom}. That covers ${usd(p.mileageCost)} for mileage and ${usd(p.laborCost)} for the work${urgency}${stops}${fee}.${question}`;
}

const OFFER_VERDICTS: Record<"poster" | "provider", Record<BudgetEvaluation["status"], string>> = {
  poster: {
    fair: "It's a fair price for the work.",
    high: "You'd pay more than this work usually costs; other offers may come in lower.",
    low: "It's a good price for you; make sure the provider has understood the whole job.",
  },
  provider: {
    fair: "It's a fair price for the work.",
    high: "The poster may well pick a cheaper offer.",
    low: "It may not cover your time and fuel.",
  },
};

/**
 * An offer's own price judged in the asker's words: the poster reads "This $36 offer is 10% below
 * what similar tasks cost", the provider "Your $45 offer is ..." (decision 072).
 */
export function offerVerdict(e: BudgetEvaluation, p: PricingBreakdown, side: "poster" | "provider", work: WorkEstimate, check: BoundsCheck | null): string {
  const subject = side === "poster" ? `This ${usd(e.offeredBudget)} offer` : `Your ${usd(e.offeredBudget)} offer`;
  const diff = Math.abs(Math.round(e.percentDiff));
  const relation = diff === 0 ? "about what similar tasks cost" : `${diff}% ${e.percentDiff > 0 ? "above" : "below"} what similar tasks cost`;
  return `${boundsNote(check, work)}${subject} is ${relation}: I'd expect ${usd(e.fairBudget)}${rangeWords(p)} for this task (${miles(p)}, ${workSize(p)}). ${OFFER_VERDICTS[side][e.status]}`;
}

export function explanation(p: PricingBreakdown, work: WorkEstimate): string {
  const perUnit = p.workUnit === "hour" ? "an hour" : `a ${p.workUnit}`;
  const driveRate = p.workUnit === "hour" ? p.rate : LABOR_RATE_PER_HOUR;
  const lines = [
    `Here is how I got ${usd(p.suggestedBudget)}${rangeWords(p)}.`,
    p.distance === 0
      ? "It's a single location, so there is no mileage."
      : `The route is about ${p.distance} miles; at ${usd(MILEAGE_RATE)} a mile (the IRS rate for fuel, wear and insurance) that's ${usd(p.mileageCost)}.`,
    p.driveHours > 0
      ? `Driving at ${AVERAGE_SPEED_MPH} mph takes ${hours(p.driveHours)}; at ${usd(driveRate)} an hour${p.workUnit === "hour" && p.helpers > 1 ? ` for ${p.helpers} helpers` : ""} that's ${usd(p.driveCost)}.`
      : "",
    `The work is ${workSize(p)} (${work.quantityFrom}) at ${usd(p.rate)} ${perUnit} (${work.rateFrom}): ${usd(p.workCost)}, so labor is ${usd(p.laborCost)}.`,
  ].filter(Boolean);
  if (p.urgencyMultiplier !== 1) lines.push(`Because it's ${URGENCY_WORDS[p.urgency]}, labor is multiplied by ${p.urgencyMultiplier}: ${usd(p.urgencyLaborCost)}.`);
  if (p.stops > 0) lines.push(`${plural(p.stops, "stop")} at ${usd(STOP_COST)} each add ${usd(p.stopsCost)}.`);
  if (p.tripFee > 0) lines.push(`A shopping trip's fee adds ${usd(p.tripFee)}.`);
  lines.push(
    p.minimumTopUp > 0
      ? `That comes to ${usd(p.estimate)}, less than Errandly's minimum budget of ${usd(MIN_SUGGESTED_TOTAL)}, so the total is ${usd(p.total)}, which gives ${usd(p.suggestedBudget)}.`
      : `The total is ${usd(p.total)}, rounded to the nearest $5: ${usd(p.suggestedBudget)}.`,
  );
  return lines.join(" ");
}

export function urgencyChange(before: PricingBreakdown, after: PricingBreakdown): string {
  if (before.urgency === after.urgency) return `It's already ${URGENCY_WORDS[after.urgency]}: the suggestion stays at ${usd(after.suggestedBudget)}.`;
  const fee = after.urgency === "urgent" ? ` Posting it as Urgent also adds the ${URGENT_SURCHARGE_PERCENT}% urgent fee at checkout.` : "";
  const how =
    after.urgency === "standard" ? "at the standard rate" : `with labor ×${after.urgencyMultiplier} for ${URGENCY_WORDS[after.urgency]} timing`;
  return `If it's ${URGENCY_WORDS[after.urgency]}, ${how} the suggestion goes from ${usd(before.suggestedBudget)} to ${usd(after.suggestedBudget)}.${fee}`;
}

export function stopAdded(before: PricingBreakdown, after: PricingBreakdown): string {
  return `With one more stop (${plural(after.stops, "stop")} in all) the suggestion goes from ${usd(before.suggestedBudget)} to ${usd(after.suggestedBudget)}: each stop adds ${usd(STOP_COST)}. Add the stop's address to the route and I'll count the extra driving too.`;
}

export function stopRemoved(before: PricingBreakdown, after: PricingBreakdown | null): string {
  if (!after) return `There are no stops to remove: the route goes straight from start to end, and the suggestion is ${usd(before.suggestedBudget)}.`;
  return `Without the last stop (${plural(after.stops, "stop")} left, about ${after.distance} miles) the suggestion goes from ${usd(before.suggestedBudget)} to ${usd(after.suggestedBudget)}.`;
}

const STATUS_WORDS: Record<BudgetEvaluation["status"], string> = {
  high: "That's a great opportunity: it pays more than this work usually costs.",
  low: "That's below market: it may not cover the fuel and time this task takes.",
  fair: "That's a fair offer for the work involved.",
};

export function evaluationSentence(e: BudgetEvaluation, p: PricingBreakdown): string {
  const diff = e.percentDiff === 0 ? "exactly" : `${Math.abs(e.percentDiff)}% ${e.percentDiff > 0 ? "above" : "below"}`;
  const relation = e.percentDiff === 0 ? "exactly the fair budget" : `${diff} the fair budget`;
  return `${usd(e.offeredBudget)} is ${relation} of ${usd(e.fairBudget)}${rangeWords(p)} for this task (${miles(p)}). ${STATUS_WORDS[e.status]}`;
}

/**
 * A proposed amount against the fair range (the work's range, at least the fair budget ±15%), with why: the lines of the
 * breakdown that make the fair budget (docs/product.md#felix).
 */
export function proposalSentence(e: BudgetEvaluation, p: PricingBreakdown, range: { low: number; high: number }): string {
  const low = usdExact(Math.round(range.low * 100));
  const high = usdExact(Math.round(range.high * 100));
  const why = [
    p.distance > 0 ? `${usdExact(Math.round(p.mileageCost * 100))} of mileage for ${p.distance} miles` : null,
    `${usdExact(Math.round(p.urgencyLaborCost * 100))} of labor for ${workSize(p)}`,
    p.stops > 0 ? `${usdExact(Math.round(p.stopsCost * 100))} for ${plural(p.stops, "stop")}` : null,
  ].filter((part): part is string => part !== null);
  const verdict =
    e.status === "fair"
      ? `${usd(e.offeredBudget)} is inside the fair range of ${low} to ${high}, so it would work.`
      : e.status === "high"
        ? `${usd(e.offeredBudget)} is above the fair range of ${low} to ${high}: providers would jump at it, but you'd pay more than the work costs.`
        : `${usd(e.offeredBudget)} is below the fair range of ${low} to ${high}: it may not cover the provider's fuel and time.`;
  return `${verdict} The fair budget is ${usd(e.fairBudget)} because it takes ${joinAnd(why)}.`;
}

export function askForOffer(p: PricingBreakdown): string {
  return `A fair budget for this task (${miles(p)}) is ${usd(p.suggestedBudget)}. What budget does it offer? Ask me "Is $X fair?" and I'll compare.`;
}

export function takeHome(price: TaskPrice): string {
  const urgent = price.urgentFeeCents > 0 ? ` plus the ${usdExact(price.urgentFeeCents)} urgent fee` : "";
  return `On a ${usdExact(price.budgetCents)} budget${urgent}, the provider takes home ${usdExact(price.providerShareCents)} (${PROVIDER_SHARE_PERCENT}%); Errandly keeps ${usdExact(price.platformCommissionCents)} as its commission.`;
}

export function posterFee(price: TaskPrice): string {
  const urgent = price.urgentFeeCents > 0 ? ` and the ${usdExact(price.urgentFeeCents)} urgent fee` : "";
  return `On a ${usdExact(price.budgetCents)} budget${urgent}, the poster pays a service fee of ${usdExact(price.serviceFeeCents)} (${SERVICE_FEE_PERCENT}% plus $0.50, covering processing), so ${usdExact(price.totalCents)} in total. The fee does not come out of the provider's pay.`;
}

function joinAnd(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1) ?? ""}`;
}
