import { AVERAGE_SPEED_MPH, computePricing, type FelixUrgency, type MarketStats, type PricingBreakdown } from "./felix-pricing.js";
import { NATIONAL, type PriceRegion } from "./felix-region.js";
import { estimateWork, unitCount, type WorkEstimate, type WorkQuery } from "./felix-work.js";

// Felix's sanity bounds (docs/decisions/072-felix-sanity-bounds-couriers-and-offers.md): a figure
// far outside what the kind of job usually costs is not shown as it is. Felix says what it read
// and asks ("I read 40 hours of work; is that right?"), pricing the usual job of its kind until the
// poster confirms. The usual range comes from completed tasks of the category nearby (their middle
// half, at least 5 tasks, decision 012) or else from the table below.

/** Beyond twice the top of the usual range, or under half its bottom, Felix asks first. */
export const BOUND_FACTOR = 2;

export interface UsualRange {
  low: number;
  high: number;
}

/**
 * What one job of each kind usually costs in all, in dollars, from published guides (each page read
 * in our reference library on 2026-12-07; docs/product.md#felix-rates lists them too). A guide's
 * hourly rate times the usual length of the job where it gives no total.
 */
export const USUAL_RANGES: Record<string, UsualRange> = {
  // Senior Errand Service, errand-service rates: "between $20 and $35 per hour"
  // (https://seniorerrandservice.com/category/errand-service-business-2/page/3), for 1 to 3 hours.
  errand: { low: 20, high: 105 },
  // Profits on Wheels, "How Much Should You Charge For Courier Services?": "$15 for a cross-town pickup
  // and delivery" and "$1.60 a mile if they use a car" (http://www.profitsonwheels.com/how-much-should-you-charge-for-courier-services/,
  // https://www.profitsonwheels.com/checklist-for-bidding-courier-jobs/): $15 across town to about
  // $15 + 70 miles x $1.60 = $127 for a long regional run.
  courier: { low: 15, high: 130 },
  // Instacart's fees on a small order (a $3.99 delivery fee and a 5% service fee, $2 at least; https://craftydollar.com/instacart-service-fee/)
  // to two hours of a personal shopper at Shipt's top earnings standard, $27 an hour (https://corporate.shipt.com/news/a-refresher-on-shopper-pay), plus the trip fee.
  shopping: { low: 8, high: 60 },
  // Divine Maids, House Cleaning Pricing Guide: "around $90 for a home less than 1,000 square feet
  // and $250 or more for a house 3,000 square feet" (https://www.divinemaids.com/new-blog).
  clean: { low: 90, high: 350 },
  // HireAHelper on Home Decor Expert: "$40-$75 per hour per cleaner", jobs of "4 and 8 hours" (https://www.homedecorexpert.com/?p=22834).
  "deep-clean": { low: 160, high: 600 },
  // Haxi, professional organizers: "$50-$150 per hour" (https://www.haxi.org/should-you-hire-a-professional-organizer/), 2 to 4 hours.
  organize: { low: 100, high: 600 },
  // Gentle Giant Moving: "between $25 to $60 per worker per hour" (https://www.gentlegiant.com/blog/how-much-do-local-movers-cost/),
  // from a studio (2 movers x 3 hours at $25) to four bedrooms (4 movers x 10.5 hours at $60, felix-work.ts sizes).
  "home-move": { low: 150, high: 2520 },
  // Wines Bee Yard, movers per hour: "a two person crew is usually between one hundred and one hundred
  // fifty dollars per hour" (https://www.winesbeeyard.com/how-much-do-movers-cost-per-hour-a-complete-guide-for-planning-your-move), 1 to 2.5 hours.
  "item-move": { low: 100, high: 375 },
  // Walkers Pet HoTail's pet taxi: "$15 each way" (https://walkerspethotail.com/walkers-home-page/about-walkers-pet-hotail/pet-taxi/),
  // with 1.5 to 3 hours of a handler's time at the dog-walking rate below.
  "pet-trip": { low: 75, high: 180 },
  // Explain That: a 60-minute walk "between $30 and $60" (https://explainthat.org/how-much-is-dog-walking-per-hour); half an hour to an hour.
  "dog-walk": { low: 15, high: 60 },
  // Meowa: "between $15 and $30 per visit" (https://meowa.com/how-much-to-pay-a-cat-sitter), 1 to 12 visits.
  "drop-in": { low: 15, high: 360 },
  // Doggie Guides: "$50 to $100 per night" (https://doggieguides.com/how-much-to-pay-a-dog-sitter-overnight), 1 to 7 nights.
  overnight: { low: 50, high: 700 },
  // The Pricer, leaf removal and yard clean-up: "$30 to $50 per man hour" (https://www.thepricer.org/leaf-removal-yard-clean-up-cost/), 3 to 8 hours.
  yard: { low: 90, high: 400 },
  // Fixr, lawn maintenance: per hour "$25 - $60", per acre "$150 - $200" (https://no-fix-no-charge-pc-services.fixr.com/costs/lawn-maintenance): a visit to a quarter- to half-acre lot.
  "yard-quick": { low: 25, high: 100 },
  // Engineer Fix, handyman: "between $60 and $85 per hour" (https://engineerfix.com/how-much-do-you-pay-a-handyman-per-hour), 1 to 4 hours.
  assembly: { low: 60, high: 340 },
  skilled: { low: 60, high: 340 },
  // Smart Life Blog: "Most American virtual assistants charge closer to $35" an hour (http://smartlifeblog.com/personal-outsourcing-essentials-structuring-payments/), 1 to 8 hours.
  business: { low: 35, high: 280 },
  // The errand rate ($20 to $35 an hour, above) for 2 to 8 hours of general help.
  general: { low: 40, high: 280 },
};

/** What Felix found implausible and what it did about it. */
export interface BoundsCheck {
  /** The figure was above twice the top, or under half the bottom, of the usual range. */
  direction: "high" | "low";
  /** What Felix read, in words: "40 hours of work", "a route of about 310 miles". */
  read: string;
  range: UsualRange;
  /** Where the usual range came from. */
  rangeFrom: "market" | "guides";
  /** Felix priced the usual job instead of what it read (a reading it can drop; a measured route it cannot). */
  fellBack: boolean;
  /**
   * The figure priced may be shown beside the question: only when it is itself inside the bounds
   * (the usual job Felix fell back on). Otherwise Felix asks and shows no figure until the poster
   * answers (docs/decisions/080-felix-regional-labour-and-shown-bounds.md).
   */
  shown: boolean;
}

export interface FelixEstimate {
  work: WorkEstimate;
  pricing: PricingBreakdown;
  check: BoundsCheck | null;
}

export interface EstimateInput {
  query: WorkQuery;
  miles: number;
  stops: number;
  urgency: FelixUrgency;
  /** Completed tasks of the category nearby: their middle half is the usual range when there are enough. */
  market?: MarketStats | null;
}

/**
 * The usual range of a kind of job: the market's middle half nearby (already the place's prices),
 * else the guides' national table at the place's price level (felix-region.ts), to the dollar, so
 * a New York figure is not taken for a wild one because of the place alone.
 */
export function usualRange(kind: string, market?: MarketStats | null, region: PriceRegion = NATIONAL): { range: UsualRange; from: BoundsCheck["rangeFrom"] } {
  if (market) return { range: { low: market.p25, high: market.p75 }, from: "market" };
  const national = USUAL_RANGES[kind] ?? (USUAL_RANGES.general as UsualRange);
  return { range: { low: Math.round(national.low * region.factor), high: Math.round(national.high * region.factor) }, from: "guides" };
}

/** Outside [low / 2, high × 2]: "high", "low", or null inside. */
export function outOfBounds(figure: number, range: UsualRange): "high" | "low" | null {
  if (figure > range.high * BOUND_FACTOR) return "high";
  if (figure < range.low / BOUND_FACTOR) return "low";
  return null;
}

/** Both figures a poster may read, what the work costs and the suggested budget (the $20 minimum apart), checked. */
const pricedOutOfBounds = (p: PricingBreakdown, range: UsualRange) => outOfBounds(p.estimate, range) ?? outOfBounds(p.suggestedBudget, range);

/**
 * Whether a figure may be shown as it is: with no question, or beside a question whose figure is
 * inside the bounds. The one test the server and the benchmark apply before showing a figure.
 */
export const figureShown = ({ check }: FelixEstimate): boolean => check === null || check.shown;

const readWords = (w: WorkEstimate) => `${unitCount(w.unit, w.quantity.mid)} of work${w.helpers > 1 ? ` for each of ${w.helpers} helpers` : ""}`;

/**
 * The one estimate both the server and the benchmark use: the work, its price, and the bounds
 * check. A figure from something read (the text, an answer, a model, the market's median size)
 * that falls outside the bounds is replaced by the usual job of its kind, with the question
 * "confirm"; one the poster confirmed stands. A measured route cannot be dropped, so a figure
 * driven by distance keeps its price and the check says so. Either way a figure still outside the
 * bounds is not shown (`shown: false`): the poster reads the question, never a multiple of the
 * usual price (decision 080).
 */
export function felixEstimate({ query, miles, stops, urgency, market }: EstimateInput): FelixEstimate {
  const driveHours = miles / AVERAGE_SPEED_MPH;
  // A stated door-to-door time already covers the stops on the way.
  const price = (work: WorkEstimate) => computePricing({ miles, stops: work.coversStops ? 0 : stops, urgency, work });
  const work = estimateWork({ ...query, driveHours });
  const pricing = price(work);
  if (work.confirmed) return { work, pricing, check: null };
  const { range, from } = usualRange(work.kind, market, work.region);
  const direction = pricedOutOfBounds(pricing, range);
  if (!direction) return { work, pricing, check: null };
  if (work.source === "usual") {
    const read = miles > 0 ? `a route of about ${Math.round(miles)} miles` : readWords(work);
    return { work: { ...work, question: "confirm" }, pricing, check: { direction, read, range, rangeFrom: from, fellBack: false, shown: false } };
  }
  const usual = estimateWork({ ...query, driveHours, usualOnly: true });
  const usualPricing = price(usual);
  return {
    work: { ...usual, question: "confirm" },
    pricing: usualPricing,
    check: { direction, read: readWords(work), range, rangeFrom: from, fellBack: true, shown: pricedOutOfBounds(usualPricing, range) === null },
  };
}
