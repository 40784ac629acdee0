import { categoryLabel } from "./constants.js";
import { middle, readWork, type Stated, type WorkReading } from "./felix-reading.js";
import { NATIONAL, type PriceRegion } from "./felix-region.js";

// How much work a task is and what it pays: the kind of job (from the category and the words),
// its quantity (hours, nights or visits) and its rate (docs/product.md#felix-rates, with the
// published source of every default; docs/decisions/054-felix-prices-the-works-own-hours.md).

export type WorkUnit = "hour" | "night" | "visit";

/** A low, middle and high figure: the middle is suggested, low and high make the range. */
export interface Band {
  low: number;
  mid: number;
  high: number;
}

/**
 * The question Felix asks when it cannot read or infer the size of the work, or "confirm" when what
 * it read would make a figure far outside what such work usually costs (src/shared/felix-bounds.ts).
 */
export type WorkQuestion = "hours" | "rooms" | "nights" | "confirm";

export const WORK_QUESTIONS: Record<WorkQuestion, string> = {
  hours: "About how long will it take?",
  rooms: "How many rooms (bedrooms) is it?",
  nights: "How many nights is it?",
  confirm: "Is that right?",
};

/** The spec's $20 an hour: the floor of every hourly rate. */
export const FLOOR_RATE = 20;
/** The spec's rate for the driving of work priced by the night or visit (felix-pricing.ts LABOR_RATE_PER_HOUR). */
const DRIVE_RATE = 20;

/** Rates in dollars per unit per helper; each row of docs/product.md#felix-rates gives its source. */
export const RATES = {
  // The middle is the $30 both errand sources support (docs/decisions/080-felix-regional-labour-and-shown-bounds.md, Errand rate).
  errand: { low: 20, mid: 30, high: 35 },
  cleaning: { low: 30, mid: 45, high: 60 },
  organizing: { low: 40, mid: 55, high: 80 },
  moving: { low: 30, mid: 45, high: 60 },
  dogWalk: { low: 30, mid: 40, high: 50 },
  dropIn: { low: 15, mid: 20, high: 25 },
  overnight: { low: 50, mid: 75, high: 100 },
  yard: { low: 30, mid: 45, high: 60 },
  handyman: { low: 50, mid: 75, high: 100 },
  courier: { low: 35, mid: 45, high: 55 },
  shopper: { low: 16, mid: 20, high: 27 },
} as const satisfies Record<string, Band>;

/** A shopping run's per-trip fee, before the shopper's time (docs/product.md#felix-rates). */
export const SHOPPING_TRIP_FEE: Band = { low: 4, mid: 6, high: 8 };
/** Time in the store: parking and checkout, then about a minute an item (docs/product.md#felix-rates). */
export const SHOPPING_BASE_MINUTES = 5;
export const SHOPPING_MINUTES_PER_ITEM = 1;
/** A list stated only in dollars is read as about one item for every $3. */
export const SHOPPING_DOLLARS_PER_ITEM = 3;
/** A courier's handling at the pickup and at the drop-off, in hours, before driving and waiting. */
export const COURIER_HANDLING: Band = { low: 0.4, mid: 0.5, high: 0.6 };
/** A pet taxi's fee for the two legs of a trip to the vet or the groomer, $15 each way (docs/product.md#felix-rates). */
export const PET_TRIP_FEE: Band = { low: 30, mid: 30, high: 30 };
/** Mowing or shoveling: about 4 hours an acre, so a quarter-acre lot is about an hour. */
export const QUICK_YARD_HOURS_PER_ACRE: Band = { low: 3, mid: 4, high: 5 };
const NO_FEE: Band = { low: 0, mid: 0, high: 0 };
export type RateName = keyof typeof RATES;

/** Standard cleaning: an hour per 400 sq ft; move-out and deep cleans take half as long again. */
export const SQFT_PER_CLEANING_HOUR = 400;
export const DEEP_CLEAN_FACTOR = 1.5;
/** A quarter of an hour a window, inside and out. */
export const HOURS_PER_WINDOW = 0.25;
/** Leaves, mowing and weeding: about 10 hours an acre (6 to 14). */
export const YARD_HOURS_PER_ACRE: Band = { low: 6, mid: 10, high: 14 };
/** Flat-pack assembly: 1.5 hours a piece (1 to 2.5). */
export const ASSEMBLY_HOURS_PER_ITEM: Band = { low: 1, mid: 1.5, high: 2.5 };
/** Work quantities are shown to the quarter hour. */
const QUARTER = 0.25;

interface Quantity {
  band: Band;
  /** Where the quantity came from, for the answer: "you said about 2 hours". */
  from: string;
}

interface JobKind {
  id: string;
  /** What Felix calls the job: "a standard clean". */
  label: string;
  unit: WorkUnit;
  rate: RateName;
  /** The typical job when nothing is read; `from` says so. */
  usual: Band;
  /** Asked when nothing is read and the market has no median (null: the usual job is a fair guess). */
  ask: WorkQuestion | null;
  helpers?: (r: WorkReading) => Band;
  /** The quantity the text gives for this kind of job, beyond a plainly stated duration. */
  size?: (r: WorkReading) => Quantity | null;
  /** A fee per job on top of the hours (a shopping run's trip fee). */
  fee?: Band;
  /**
   * How a plainly stated duration counts: the work itself (the default), or the whole trip door to
   * door, driving included, as couriers quote it.
   */
  statedIsTrip?: boolean;
}

const band = (low: number, mid: number, high: number): Band => ({ low, mid, high });
const fromStated = (s: Stated, scale = 1, spread = 0): Band => {
  const mid = middle(s) * scale;
  return { low: s.low * scale * (1 - spread), mid, high: s.high * scale * (1 + spread) };
};
const scaleBand = (b: Band, k: number): Band => ({ low: b.low * k, mid: b.mid * k, high: b.high * k });

/** Hours of a standard clean from the rooms: an hour, plus an hour a bedroom, plus half an hour for each bathroom after the first. */
function cleaningHours(r: WorkReading, factor: number): Quantity | null {
  if (r.sqft) return { band: fromStated(r.sqft, factor / SQFT_PER_CLEANING_HOUR, 0.25), from: `${r.sqft.said}` };
  if (r.bedrooms) {
    const baths = r.bathrooms ? Math.max(0, middle(r.bathrooms) - 1) * 0.5 : 0;
    const hours = (b: number) => (1 + b + baths) * factor;
    return { band: { low: hours(r.bedrooms.low) * 0.75, mid: hours(middle(r.bedrooms)), high: hours(r.bedrooms.high) * 1.25 }, from: r.bedrooms.said };
  }
  if (r.windows) return { band: fromStated(r.windows, HOURS_PER_WINDOW, 0.25), from: r.windows.said };
  return null;
}

/** A home move: 2.5 hours plus 2 a bedroom; two movers up to one bedroom, three for two, four beyond. */
const homeMoveHours = (r: WorkReading): Quantity | null =>
  r.bedrooms ? { band: { low: (2.5 + 2 * r.bedrooms.low) * 0.75, mid: 2.5 + 2 * middle(r.bedrooms), high: (2.5 + 2 * r.bedrooms.high) * 1.25 }, from: r.bedrooms.said } : null;
const moversFor = (r: WorkReading): Band => {
  if (r.helpers) return fromStated(r.helpers);
  const bedrooms = r.bedrooms ? middle(r.bedrooms) : 1;
  const n = bedrooms <= 1 ? 2 : bedrooms <= 2 ? 3 : 4;
  return band(n, n, n);
};
const statedHelpers = (r: WorkReading): Band => (r.helpers ? fromStated(r.helpers) : band(1, 1, 1));

/** Loading, carrying and unloading: half an hour, plus half an hour a piece. */
const itemMoveHours = (r: WorkReading): Quantity | null =>
  r.items ? { band: { low: 0.5 + 0.35 * r.items.low, mid: 0.5 + 0.5 * middle(r.items), high: 1 + 0.75 * r.items.high }, from: r.items.said } : null;

const nightsOf = (r: WorkReading): Quantity | null => {
  if (r.nights) return { band: fromStated(r.nights), from: r.nights.said };
  // Away three days is two nights; a weekend (Saturday to Sunday) is one night at least.
  if (r.days) return { band: { low: Math.max(1, r.days.low - 1), mid: Math.max(1, middle(r.days) - 1), high: Math.max(1, r.days.high) }, from: r.days.said };
  return null;
};
const visitsOf = (r: WorkReading): Quantity | null => {
  if (r.visits) return { band: fromStated(r.visits), from: r.visits.said };
  if (r.visitsPerDay || r.days) {
    const perDay = r.visitsPerDay ?? { low: 1, high: 1, said: "" };
    const days = r.days ?? { low: 1, high: 1, said: "" };
    const from = [perDay.said, days.said].filter(Boolean).join(", ");
    return { band: { low: perDay.low * days.low, mid: middle(perDay) * middle(days), high: perDay.high * days.high }, from };
  }
  return null;
};

/** A courier's time: handling at both ends and the waiting the task mentions; driving is priced from the route. */
const courierTime = (r: WorkReading): Quantity | null => {
  if (!r.wait) return null;
  const wait = r.wait;
  const band = { low: COURIER_HANDLING.low + wait.low, mid: COURIER_HANDLING.mid + middle(wait), high: COURIER_HANDLING.high + wait.high };
  return { band, from: `"${wait.said}" (with the pickup and the drop-off)` };
};

/** Time in the store from the list: its items, or its value at about $3 an item. */
const shoppingTime = (r: WorkReading): Quantity | null => {
  const items = r.goods ?? (r.orderValue && { low: r.orderValue.low / SHOPPING_DOLLARS_PER_ITEM, high: r.orderValue.high / SHOPPING_DOLLARS_PER_ITEM, said: r.orderValue.said });
  if (!items) return null;
  const hours = (n: number) => (SHOPPING_BASE_MINUTES + SHOPPING_MINUTES_PER_ITEM * n) / 60;
  return { band: { low: hours(items.low) * 0.8, mid: hours(middle(items)), high: hours(items.high) * 1.25 }, from: items.said };
};

const KINDS: Record<string, JobKind> = {
  deepClean: { id: "deep-clean", label: "a move-out or deep clean", unit: "hour", rate: "cleaning", usual: band(3, 4.5, 6), ask: "rooms", size: (r) => cleaningHours(r, DEEP_CLEAN_FACTOR) },
  clean: { id: "clean", label: "a standard clean", unit: "hour", rate: "cleaning", usual: band(2, 3, 4), ask: "rooms", size: (r) => cleaningHours(r, 1) },
  organize: { id: "organize", label: "organizing", unit: "hour", rate: "organizing", usual: band(2, 3, 4), ask: "hours" },
  homeMove: { id: "home-move", label: "a home move", unit: "hour", rate: "moving", usual: band(3, 4.5, 6), ask: "rooms", helpers: moversFor, size: homeMoveHours },
  itemMove: { id: "item-move", label: "moving a few items", unit: "hour", rate: "moving", usual: band(1, 1.5, 3), ask: "hours", helpers: (r) => (r.helpers ? fromStated(r.helpers) : band(2, 2, 2)), size: itemMoveHours },
  overnight: { id: "overnight", label: "overnight pet care", unit: "night", rate: "overnight", usual: band(1, 1, 1), ask: "nights", size: nightsOf },
  dropIn: { id: "drop-in", label: "pet drop-in visits", unit: "visit", rate: "dropIn", usual: band(1, 1, 2), ask: null, size: visitsOf },
  petTrip: { id: "pet-trip", label: "taking a pet to an appointment", unit: "hour", rate: "dogWalk", usual: band(1.5, 2, 2.5), ask: null, fee: PET_TRIP_FEE },
  dogWalk: { id: "dog-walk", label: "a dog walk", unit: "hour", rate: "dogWalk", usual: band(0.5, 0.5, 1), ask: null },
  yard: { id: "yard", label: "yard work", unit: "hour", rate: "yard", usual: band(2, 3, 4), ask: "hours", helpers: statedHelpers, size: (r) => (r.acres ? { band: scaleBand(YARD_HOURS_PER_ACRE, middle(r.acres)), from: r.acres.said } : null) },
  assembly: { id: "assembly", label: "furniture assembly", unit: "hour", rate: "handyman", usual: band(1, 2, 3), ask: "hours", size: (r) => (r.items ? { band: scaleBand(ASSEMBLY_HOURS_PER_ITEM, middle(r.items)), from: r.items.said } : null) },
  skilled: { id: "skilled", label: "skilled help", unit: "hour", rate: "handyman", usual: band(1.5, 2, 3), ask: "hours" },
  yardQuick: { id: "yard-quick", label: "mowing or shoveling", unit: "hour", rate: "yard", usual: band(0.75, 1, 1.5), ask: null, helpers: statedHelpers, size: (r) => (r.acres ? { band: scaleBand(QUICK_YARD_HOURS_PER_ACRE, middle(r.acres)), from: r.acres.said } : null) },
  courier: { id: "courier", label: "a courier run", unit: "hour", rate: "courier", usual: band(0.4, 0.5, 0.6), ask: null, size: courierTime, statedIsTrip: true },
  shopping: { id: "shopping", label: "a shopping run", unit: "hour", rate: "shopper", usual: band(0.5, 0.75, 1), ask: null, size: shoppingTime, fee: SHOPPING_TRIP_FEE },
  errand: { id: "errand", label: "an errand", unit: "hour", rate: "errand", usual: band(0.5, 1, 2), ask: null },
  business: { id: "business", label: "business support", unit: "hour", rate: "errand", usual: band(1, 2, 4), ask: "hours", helpers: statedHelpers },
  general: { id: "general", label: "general help", unit: "hour", rate: "errand", usual: band(1, 2, 4), ask: "hours", helpers: statedHelpers },
};

// The words that name a kind of job, checked in order; the first that matches wins. Leaves and
// gutters are a yard job by the hour; mowing a lawn or shoveling snow is an hour or so a visit.
const YARD = /\b(?:leaf|leaves|rak(?:e|ing)|weed|hedges?|gutters?|mulch)/;
const YARD_QUICK = /\b(?:mow|mowing|lawn|snow|shovel|plow)/;
const ASSEMBLY = /\bassembl/;
const SKILLED = /\b(?:mount|install|repair|fix|paint|plumb|electric|patch|drywall|caulk|handyman|tv)/;

/** The kind of job a task is, from its category and words (docs/product.md#felix-rates). */
function kindOf(category: string, t: string, r: WorkReading): JobKind {
  switch (category) {
    case "cleaning":
      if (/\borganiz|\bdeclutter|\bsort(?:ing)? through/.test(t)) return KINDS.organize as JobKind;
      // "Not a deep clean, just a good regular cleaning" is a standard clean.
      return (/\bmove[- ]?(?:out|in)\b|(?<!not an? )\bdeep[- ]clean|\bpost[- ]construction|\bspring[- ]clean/.test(t) ? KINDS.deepClean : KINDS.clean) as JobKind;
    case "moving":
      // Named pieces are a few items, even when they go to a new apartment; rooms are a home.
      if (r.bedrooms) return KINDS.homeMove as JobKind;
      return (!r.items && /\b(?:apartment|house|studio|condo|townhouse|home|flat)\b/.test(t) ? KINDS.homeMove : KINDS.itemMove) as JobKind;
    case "pet":
      if (/\b(?:vet|veterinar|groom|pet taxi|appointment)/.test(t) && /\b(?:drive|take|bring|transport|ride|taxi|pick (?:him|her|them|it) up)/.test(t)) return KINDS.petTrip as JobKind;
      if (r.nights || /\b(?:overnight|house[- ]?sit|boarding|stay (?:over|the night))/.test(t)) return KINDS.overnight as JobKind;
      if (/\bdrop[- ]?ins?\b|\bvisits?\b|\bstop by\b|\bcheck (?:in )?on\b|\bfeed/.test(t)) return KINDS.dropIn as JobKind;
      if (/\bwalk/.test(t)) return KINDS.dogWalk as JobKind;
      return KINDS.general as JobKind;
    case "delivery":
      return KINDS.courier as JobKind;
    case "shopping":
      return KINDS.shopping as JobKind;
    case "errands":
      return KINDS.errand as JobKind;
    case "business":
      return KINDS.business as JobKind;
    default:
      // Hauling a piece of furniture away is carrying it out and off: two people and a vehicle.
      if (r.items && /\b(?:haul|junk|dispos|get rid of|take away|remov)/.test(t)) return KINDS.itemMove as JobKind;
      if (YARD.test(t)) return KINDS.yard as JobKind;
      if (YARD_QUICK.test(t)) return KINDS.yardQuick as JobKind;
      if (/\b(?:yard|garden)\b/.test(t)) return KINDS.yard as JobKind;
      if (ASSEMBLY.test(t)) return KINDS.assembly as JobKind;
      if (SKILLED.test(t)) return KINDS.skilled as JobKind;
      return KINDS.general as JobKind;
  }
}

/**
 * A direct run: the courier goes from the pickup straight to the drop-off with no other job on the
 * way ("direct run", "no other stops", "within the hour", "ASAP"), so the vehicle is the sender's
 * alone and its way back is priced too (docs/decisions/080-felix-regional-labour-and-shown-bounds.md).
 * "Within 2 hours" is a rush, priced by the urgency multiplier alone.
 */
const DIRECT_RUN =
  /\b(?:direct (?:run|delivery|drive|trip)|non-?stop|no other stops|dedicated (?:driver|vehicle|run)|(?:with)?in (?:the|an|one|1) hour|(?:with)?in the next hour|within (?:30|45|60) min(?:ute)?s?\b|asap|as soon as possible|right away|immediately)/;

/**
 * A published rate at the place's price level (felix-region.ts), to the cent: rounding to the
 * dollar would move a $20 rate 5% for a place 2.6% above the average. An hourly rate at or above
 * the spec's $20 stays there: the spec's floor holds in every state.
 */
export function regionalRate(published: Band, region: PriceRegion, unit: WorkUnit): Band {
  if (region.factor === 1) return published;
  const scale = (rate: number) => {
    const scaled = Math.round(rate * region.factor * 100) / 100;
    return unit === "hour" && rate >= FLOOR_RATE ? Math.max(FLOOR_RATE, scaled) : scaled;
  };
  return { low: scale(published.low), mid: scale(published.mid), high: scale(published.high) };
}

/** What completed tasks of the category nearby say about the work (read from their own text). */
export interface MarketWork {
  /** Median quantity of the completed tasks whose size could be read, with their count. */
  quantity: { median: number; count: number } | null;
  /** Median budget per unit per helper, with their count. */
  rate: { median: number; count: number } | null;
}

export interface WorkEstimate {
  kind: string;
  /** "a standard clean". */
  label: string;
  unit: WorkUnit;
  quantity: Band;
  helpers: number;
  rate: Band;
  /** "you said about 2 hours", "completed tasks nearby took a median 3 hours", "a standard clean usually takes about 3 hours". */
  quantityFrom: string;
  /** "the usual rate for cleaning (docs: house-cleaning cost guides)" or "completed tasks nearby paid a median $40 an hour". */
  rateFrom: string;
  /** Where the quantity came from. */
  source: "stated" | "answer" | "model" | "market" | "usual";
  /** The question to ask, when the quantity is only the usual guess. */
  question: WorkQuestion | null;
  /** A fee per job on top of the hours (a shopping run's trip fee); zero for other work. */
  fee: Band;
  /** The poster confirmed what Felix read, so it stands even outside the usual range (felix-bounds.ts). */
  confirmed: boolean;
  /** The quantity is a stated door-to-door time, which already covers the stops on the way. */
  coversStops: boolean;
  /** Dollars an hour for the driving of work by the night or visit: the spec's $20 at the place's price level. */
  driveRate: number;
  /** A direct courier run: its way back is priced too. */
  roundTrip: boolean;
  /** Where the labour is priced: the published rates and the usual range are scaled to it. */
  region: PriceRegion;
}

export interface WorkQuery {
  category: string;
  title?: string | null;
  description?: string | null;
  /** The poster's answer to Felix's question, with the question it answers. */
  answer?: { question: WorkQuestion; text: string } | null;
  market?: MarketWork | null;
  /**
   * Hours a language model read from the text when the built-in reader found none (optional,
   * decision 054); used for hourly work only, after the poster's answer and the stated hours.
   */
  modelHours?: ModelHours | null;
  /** Hours of driving the route takes: a courier's stated door-to-door time includes them. */
  driveHours?: number;
  /** Price the usual job whatever the text says: what Felix falls back on when a reading is implausible. */
  usualOnly?: boolean;
  /** Where the task is (felix-region.ts priceRegion): the US average when not known. */
  region?: PriceRegion | null;
}

/** A language model's reading of the work's hours: a figure, its range and the words it read. */
export interface ModelHours {
  hours: number;
  low: number;
  high: number;
  /** The words it read them from: "clean out a two-car garage". */
  what: string;
}

const roundQuarter = (hours: number) => Math.max(QUARTER, Math.round(hours / QUARTER) * QUARTER);
const roundUnit = (unit: WorkUnit, value: number) => (unit === "hour" ? roundQuarter(value) : Math.max(1, Math.round(value)));
const normalize = (unit: WorkUnit, b: Band): Band => {
  const mid = roundUnit(unit, b.mid);
  return { low: Math.min(mid, roundUnit(unit, b.low)), mid, high: Math.max(mid, roundUnit(unit, b.high)) };
};

export const UNIT_WORDS: Record<WorkUnit, [string, string]> = { hour: ["hour", "hours"], night: ["night", "nights"], visit: ["visit", "visits"] };
export const unitCount = (unit: WorkUnit, n: number) => `${n} ${UNIT_WORDS[unit][n === 1 ? 0 : 1]}`;

/** Reads a bare answer ("4", "about 3") as the thing the question asked. */
function answerText(answer: NonNullable<WorkQuery["answer"]>): string {
  const bare = /^\s*(?:no,?\s*)?(?:about|around|maybe|~)?\s*(\d+(?:\.\d+)?(?:\s*(?:-|to|or)\s*\d+(?:\.\d+)?)?)\s*\.?\s*$/i.exec(answer.text);
  if (!bare) return answer.text;
  const word = { hours: "hours", rooms: "bedrooms", nights: "nights", confirm: "hours" }[answer.question];
  return `${bare[1]} ${word}`;
}

/** "Yes", "that's right": the poster confirms what Felix read. */
const AFFIRMATIVE = /^\s*(?:yes|yep|yeah|yup|right|correct|that'?s (?:right|correct)|it is|exactly|sure|confirmed?)\b/i;

function quantityFromReading(kind: JobKind, r: WorkReading, driveHours: number): Quantity | null {
  // A courier's waiting is not the trip: "wait 20 minutes" is read as waiting only.
  const stated = r.hours && !(kind.statedIsTrip && r.wait && r.wait.low === r.hours.low && r.wait.high === r.hours.high) ? r.hours : undefined;
  if (kind.unit === "hour" && stated) {
    // A plainly stated duration is the work's own hours, whatever the kind of job; a courier's is
    // the whole trip, so the drive priced from the route comes out of it.
    if (!kind.statedIsTrip) return { band: fromStated(stated), from: stated.said };
    const less = (h: number) => Math.max(QUARTER, h - driveHours);
    return { band: { low: less(stated.low), mid: less(middle(stated)), high: less(stated.high) }, from: `${stated.said} door to door` };
  }
  return kind.size?.(r) ?? null;
}

/**
 * The work a task is: its kind, how much of it (stated, answered, the market's median, or the
 * usual job) and at what rate (the market's, or the documented default). Pure: the server passes
 * what completed tasks nearby say.
 */
export function estimateWork({ category, title, description, answer, market, modelHours, driveHours = 0, usualOnly = false, region = NATIONAL }: WorkQuery): WorkEstimate {
  const place = region ?? NATIONAL;
  const text = [title, description].filter(Boolean).join(". ");
  const reading = readWork(text);
  // "Yes" to "I read 40 hours; is that right?" keeps the reading; a figure in the answer replaces
  // it; a plain "no" drops it for the usual job.
  const confirmed = answer?.question === "confirm" && AFFIRMATIVE.test(answer.text);
  const answered = answer && !confirmed ? readWork(answerText(answer)) : null;
  const kind = kindOf(category, `${text} ${answer?.text ?? ""}`.toLowerCase(), { ...reading, ...answered });
  const helpersBand = kind.helpers?.({ ...reading, ...answered }) ?? band(1, 1, 1);
  const helpers = Math.max(1, Math.round(helpersBand.mid));

  const fromAnswer = answered && !usualOnly ? quantityFromReading(kind, answered, driveHours) : null;
  const rejected = answer?.question === "confirm" && !confirmed && !fromAnswer;
  const fromText = usualOnly || rejected ? null : quantityFromReading(kind, reading, driveHours);
  let quantity: Band;
  let quantityFrom: string;
  let source: WorkEstimate["source"];
  if (fromAnswer) {
    quantity = fromAnswer.band;
    quantityFrom = `you told me ${fromAnswer.from}`;
    source = "answer";
  } else if (fromText) {
    quantity = fromText.band;
    quantityFrom = `you said ${fromText.from}`;
    source = "stated";
  } else if (modelHours && kind.unit === "hour" && !usualOnly && !rejected) {
    quantity = { low: modelHours.low, mid: modelHours.hours, high: modelHours.high };
    quantityFrom = `I read "${modelHours.what}" as about ${unitCount("hour", roundQuarter(modelHours.hours))}`;
    source = "model";
  } else if (market?.quantity && !usualOnly && !rejected) {
    const m = market.quantity.median;
    quantity = { low: m * 0.75, mid: m, high: m * 1.25 };
    quantityFrom = `${market.quantity.count} completed ${categoryLabel(category)} tasks nearby took a median ${unitCount(kind.unit, roundUnit(kind.unit, m))}`;
    source = "market";
  } else {
    quantity = kind.usual;
    quantityFrom = `${kind.label} usually takes about ${unitCount(kind.unit, kind.usual.mid)}`;
    source = "usual";
  }

  // A market rate is the place's own; the published rates are national and are scaled to the place.
  const published = regionalRate(RATES[kind.rate], place, kind.unit);
  const rate: Band = market?.rate
    ? { low: Math.max(FLOOR_RATE, Math.min(published.low, market.rate.median)), mid: Math.max(FLOOR_RATE, market.rate.median), high: Math.max(published.high, market.rate.median) }
    : published;
  const perUnit = kind.unit === "hour" ? "an hour" : `a ${kind.unit}`;
  const perHelper = helpers > 1 ? " per helper" : "";
  const rateFrom = market?.rate
    ? `${market.rate.count} completed ${categoryLabel(category)} tasks nearby paid a median $${Math.round(rate.mid)} ${perUnit}${perHelper}`
    : `the usual rate for ${kind.label} is ${dollars(rate.mid)} ${perUnit}${perHelper} (published cost guides${regionWords(place)})`;
  const roundTrip = kind.id === "courier" && DIRECT_RUN.test(`${text} ${answer?.text ?? ""}`.toLowerCase());

  return {
    kind: kind.id,
    label: roundTrip ? "a direct courier run" : kind.label,
    unit: kind.unit,
    quantity: normalize(kind.unit, quantity),
    helpers,
    rate,
    quantityFrom,
    rateFrom,
    source,
    question: source === "usual" ? kind.ask : null,
    fee: kind.fee ?? NO_FEE,
    confirmed,
    coversStops: Boolean(kind.statedIsTrip) && (source === "stated" || source === "answer") && quantityFrom.endsWith("door to door"),
    driveRate: regionalRate({ low: DRIVE_RATE, mid: DRIVE_RATE, high: DRIVE_RATE }, place, "hour").mid,
    roundTrip,
    region: place,
  };
}

/** "$25", "$28.13": whole dollars without cents. */
const dollars = (amount: number) => (Number.isInteger(amount) ? `$${amount}` : `$${amount.toFixed(2)}`);

/** ", at prices in the New York area, 13% above the US average"; nothing at the US average. */
function regionWords(region: PriceRegion): string {
  if (region.factor === 1 || region.name === null) return "";
  const percent = Math.round(Math.abs(region.factor - 1) * 100);
  if (percent === 0) return `, at prices in ${region.name}, about the US average`;
  return `, at prices in ${region.name}, ${percent}% ${region.factor > 1 ? "above" : "below"} the US average`;
}

/** The median of values, or null below `min` of them. */
function medianOf(values: readonly number[], min: number): { median: number; count: number } | null {
  const sorted = values.filter((v) => Number.isFinite(v) && v > 0).sort((a, b) => a - b);
  if (sorted.length < min) return null;
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
  return { median: Math.round(median * 100) / 100, count: sorted.length };
}

/**
 * What completed tasks say about the work: each is read as a new task would be, and only those
 * whose size is stated count (a guess about a past task says nothing about the market).
 */
export function marketWork(category: string, completed: readonly { budget: number; title: string; description: string }[], minSample: number): MarketWork {
  const quantities: number[] = [];
  const rates: number[] = [];
  for (const task of completed) {
    const work = estimateWork({ category, title: task.title, description: task.description });
    if (work.source !== "stated") continue;
    quantities.push(work.quantity.mid);
    rates.push(task.budget / (work.quantity.mid * work.helpers));
  }
  return { quantity: medianOf(quantities, minSample), rate: medianOf(rates, minSample) };
}

/**
 * The trip a single-place task states in words ("about 15 miles", "3 stops"): used only when the
 * task has no route of its own to measure (docs/product.md#felix).
 */
export function statedTrip(title?: string | null, description?: string | null): { miles: number | null; stops: number | null } {
  const reading = readWork([title, description].filter(Boolean).join(". "));
  return {
    miles: reading.miles ? middle(reading.miles) : null,
    stops: reading.stops ? Math.round(middle(reading.stops)) : null,
  };
}
