// Felix's reader: the durations and sizes a task states in its own words ("about 2 hours",
// "3-bedroom", "1,100 sq ft", "2 dogs", "3 nights"), read offline with no model, so the same text
// always gives the same figure (docs/product.md#felix; docs/decisions/054-felix-prices-the-works-own-hours.md).
// It reads quantities only; which of them sets the hours depends on the kind of job (felix-work.ts).

/** A quantity as stated: one figure (low = high) or a range, and the words it was read from. */
export interface Stated {
  low: number;
  high: number;
  /** The words as read, numbers in digits: "about 2 hours", "3-4 hour", "1,100 sq ft". */
  said: string;
}

export interface WorkReading {
  /** A stated duration, in hours (minutes and days converted). */
  hours?: Stated;
  sqft?: Stated;
  bedrooms?: Stated;
  bathrooms?: Stated;
  pets?: Stated;
  nights?: Stated;
  days?: Stated;
  visitsPerDay?: Stated;
  visits?: Stated;
  windows?: Stated;
  helpers?: Stated;
  stops?: Stated;
  miles?: Stated;
  acres?: Stated;
  /** Pieces of furniture or appliances named ("a bed frame and a dresser" is 2). */
  items?: Stated;
  /** Things on a shopping list ("about 30 items", "a list of 12 things"). */
  goods?: Stated;
  /** What a shopping order is worth, in dollars ("a $100 order", "$250-300 of stuff"). */
  orderValue?: Stated;
  /** Waiting a courier is told to expect, in hours ("might have to wait a bit", "wait about 20 minutes"). */
  wait?: Stated;
}

export type ReadingField = keyof WorkReading;

/** "A working day" and "half a day" as hours: the 8-hour day of the BLS American Time Use Survey. */
export const HOURS_PER_DAY_OF_WORK = 8;

const NUMBER_WORDS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17,
  eighteen: 18, nineteen: 19, twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, ninety: 90,
  hundred: 100, dozen: 12, couple: 2, few: 3, single: 1, both: 2, pair: 2,
};

const NUMBER = String.raw`\d+(?:\.\d+)?`;
/** "2", "2-3", "2 to 3", "2 or 3", "2–3". */
const RANGE = String.raw`(${NUMBER})(?:\s*(?:-|–|to|or)\s*(${NUMBER}))?`;
const APPROX = String.raw`(?:(?:about|around|roughly|approximately|approx\.?|maybe|probably|up to|under|~)\s*)?`;

/**
 * Lower case, digits for number words ("two" -> "2", "a couple of" -> "2"), "and a half" as .5,
 * thousands separators dropped, and the fixed phrases of time ("an hour and a half", "half a day",
 * "half an hour", "all day") spelled as hours.
 */
export function normalizeForReading(text: string): string {
  let t = ` ${text.toLowerCase().replace(/[’']/g, "'")} `;
  // A deadline is not a duration: "in the next hour", "within 2 hours", "flight in 2 hours".
  t = t.replace(/\b(?:within|next|(?<!(?:done|finished|completed|do it|do this) )in)\s+(?:the\s+)?(?:next\s+)?(?:\d+(?:\.\d+)?|an?|one|two|three)?\s*(?:hours?|hrs?|minutes?|mins?)\b/g, " ");
  t = t.replace(/(\d),(\d{3})\b/g, "$1$2");
  t = t.replace(/\ba (couple|few|dozen|pair)(?: of)?\b/g, "$1");
  t = t.replace(/\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|ninety|hundred|dozen|couple|few|single|pair)\b/g, (w) => String(NUMBER_WORDS[w] ?? w));
  t = t.replace(/\b(\d+) and an? half\b/g, (_, n: string) => `${Number(n) + 0.5}`);
  t = t.replace(/\ban hour and an? half\b/g, "1.5 hours");
  t = t.replace(/\b(?:a |one )?half (?:an |a )?hour\b/g, "0.5 hours");
  t = t.replace(/\b(?:a |one )?half[- ]a[- ]day\b|\bhalf[- ]day\b/g, `${HOURS_PER_DAY_OF_WORK / 2} hours`);
  t = t.replace(/\b(?:a |one )?(?:full|whole|entire) day\b|\ball day\b/g, `${HOURS_PER_DAY_OF_WORK} hours`);
  t = t.replace(/\b(?:an|1) hour\b/g, "1 hour");
  // "1 hour or 1.5 hours", "2 hours to 3 hours": one range.
  t = t.replace(/\b(\d+(?:\.\d+)?) hours? (?:or|to|-) (\d+(?:\.\d+)?) hours\b/g, "$1-$2 hours");
  t = t.replace(/\b(?:a )?quarter[- ]acre\b/g, "0.25 acre").replace(/\b(?:a )?half[- ](?:an[- ])?acre\b/g, "0.5 acre");
  t = t.replace(/\bovernight\b/g, " overnight ");
  return t.replace(/\s+/g, " ");
}

function stated(match: RegExpExecArray, scale = 1): Stated {
  const a = Number(match[1]) * scale;
  const b = match[2] === undefined ? a : Number(match[2]) * scale;
  return { low: Math.min(a, b), high: Math.max(a, b), said: match[0].trim() };
}

/** The first match of each pattern, in pattern order; null when none matches. */
function first(text: string, patterns: readonly (readonly [RegExp, number])[]): Stated | undefined {
  for (const [pattern, scale] of patterns) {
    const match = pattern.exec(text);
    if (match) return stated(match, scale);
  }
  return undefined;
}

const re = (source: string) => new RegExp(source, "i");

const HOURS: [RegExp, number][] = [
  [re(String.raw`${APPROX}${RANGE}\s*-?\s*(?:hours?|hrs?|h)\b`), 1],
  [re(String.raw`${APPROX}${RANGE}\s*-?\s*(?:minutes?|mins?)\b`), 1 / 60],
  [re(String.raw`${APPROX}${RANGE}\s*-?\s*(?:working |work )?days? of work\b`), HOURS_PER_DAY_OF_WORK],
];

const FURNITURE = /\b(bed(?: ?frame)?s?|couch(?:es)?|sofas?|dressers?|desks?|tables?|chairs?|bookcases?|bookshel(?:f|ves)|shel(?:f|ves)|wardrobes?|cribs?|cabinets?|armoires?|nightstands?|tvs?|televisions?|fridges?|refrigerators?|washers?|dryers?|pianos?|mattress(?:es)?|recliners?)\b/g;

/** Counts furniture named: "2 chairs" is 2, "a bed frame and a dresser" is 2; a piece named twice (title and description) counts once. */
function readItems(text: string): Stated | undefined {
  const pieces = new Map<string, number>();
  for (const match of text.matchAll(FURNITURE)) {
    const before = text.slice(Math.max(0, (match.index ?? 0) - 12), match.index ?? 0);
    const n = /(\d+)\s*(?:\w+\s)?$/.exec(before);
    const quantity = n ? Math.min(Number(n[1]), 50) : 1;
    const piece = (match[1] ?? match[0]).replace(/(?:es|s)$/, "").replace(/ ?frame$/, "").replace(/^sofa$/, "couch");
    pieces.set(piece, Math.max(pieces.get(piece) ?? 0, quantity));
  }
  const count = [...pieces.values()].reduce((a, b) => a + b, 0);
  if (count === 0) return undefined;
  return { low: count, high: count, said: [...pieces.keys()].join(", ") };
}

/** What a shopping order is worth: "$100 order", "$250-300 of stuff", "about $50 of groceries". */
function readOrderValue(text: string): Stated | undefined {
  const worth = /\$\s?(\d+(?:\.\d+)?)(?:\s*(?:-|–|to)\s*\$?(\d+(?:\.\d+)?))?\s*(?:[a-z]+\s){0,2}?(?:order|of (?:groceries|stuff|items|food|household|shopping|things)|worth|in groceries|grocery)/.exec(text);
  if (worth) return stated(worth);
  const named = /\b(?:order|groceries|list|cart)\b[^.$]{0,40}\$\s?(\d+(?:\.\d+)?)(?:\s*(?:-|–|to)\s*\$?(\d+(?:\.\d+)?))?/.exec(text);
  return named ? stated(named) : undefined;
}

/**
 * Waiting time a courier should expect: a duration tied to "wait" ("wait about 20 minutes",
 * "30 minutes of waiting"), or a short unspecified wait ("might have to wait a bit") as up to half an hour.
 */
function readWait(text: string): Stated | undefined {
  const unit = (u: string) => (u.startsWith("h") ? 1 : 1 / 60);
  const after = new RegExp(String.raw`\bwait(?:ing)?(?: time)?(?: (?:of|for))?\s*${APPROX}${RANGE}\s*(hours?|hrs?|minutes?|mins?)\b`).exec(text);
  if (after?.[3]) return stated(after, unit(after[3]));
  const before = new RegExp(String.raw`${APPROX}${RANGE}\s*(hours?|hrs?|minutes?|mins?)\s*(?:of )?wait`).exec(text);
  if (before?.[3]) return stated(before, unit(before[3]));
  const vague = /\bwait (?:a (?:bit|little|while|few minutes)|around)\b|\b(?:some|a bit of|a little) waiting\b/.exec(text);
  return vague ? { low: 0, high: 0.5, said: vague[0] } : undefined;
}

/** Days named by a span of weekdays ("Saturday-Sunday", "the weekend", "Friday to Monday"). */
const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
function readDays(text: string): Stated | undefined {
  const numbered = re(String.raw`${APPROX}${RANGE}\s*-?\s*days?\b`).exec(text);
  if (numbered) return stated(numbered);
  const span = /\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\s*(?:-|–|to|through|thru|until)\s*(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/.exec(text);
  if (span?.[1] && span[2]) {
    const days = ((WEEKDAYS.indexOf(span[2]) - WEEKDAYS.indexOf(span[1]) + 7) % 7) + 1;
    return { low: days, high: days, said: span[0] };
  }
  const weekend = /\b(?:long )?weekend\b/.exec(text);
  if (weekend) return { low: 2, high: weekend[0].startsWith("long") ? 3 : 2, said: weekend[0] };
  const week = /\b(?:a|1) week\b/.exec(text);
  if (week) return { low: 7, high: 7, said: week[0] };
  return undefined;
}

function readVisitsPerDay(text: string): Stated | undefined {
  const words = /\b(once|twice|(\d+) times) (?:a|per|each) day\b/.exec(text);
  if (words) {
    const n = words[1] === "once" ? 1 : words[1] === "twice" ? 2 : Number(words[2]);
    return { low: n, high: n, said: words[0] };
  }
  const perDay = re(String.raw`${RANGE}\s*(?:visits?|drop[- ]?ins?|walks?)\s*(?:a|per|each)\s*day\b`).exec(text);
  if (perDay) return stated(perDay);
  const both = /\bmorning and (?:evening|night)\b/.exec(text);
  return both ? { low: 2, high: 2, said: both[0] } : undefined;
}

/**
 * Everything the text states about the size or length of the work. A field is absent when the
 * text does not state it; an empty object means there is nothing to read.
 */
export function readWork(text: string): WorkReading {
  const t = normalizeForReading(text);
  const reading: WorkReading = {};
  const set = <K extends ReadingField>(key: K, value: Stated | undefined) => {
    if (value && Number.isFinite(value.high) && value.high > 0) reading[key] = value;
  };
  set("hours", first(t, HOURS));
  set("sqft", first(t, [[re(String.raw`${APPROX}${RANGE}\s*-?\s*(?:sq\.?\s*ft\.?|square[- ]f(?:ee|oo)t|sqft|sf)\b`), 1]]));
  set("bedrooms", first(t, [[re(String.raw`${RANGE}\s*-?\s*(?:bed(?:room)?s?|br|bd|bdrm)\b`), 1]]) ?? (/\bstudio\b/.test(t) ? { low: 0, high: 0.5, said: "studio" } : undefined));
  set("bathrooms", first(t, [[re(String.raw`${RANGE}\s*-?\s*(?:full |half )?(?:bath(?:room)?s?|ba)\b`), 1]]));
  set("pets", first(t, [[re(String.raw`${RANGE}\s*(?:[\w-]+\s)?(?:dogs?|cats?|pets?|puppies|puppy|kittens?)\b`), 1]]));
  set("nights", first(t, [[re(String.raw`${APPROX}${RANGE}\s*-?\s*nights?\b`), 1]]) ?? (/ overnight /.test(t) ? { low: 1, high: 1, said: "overnight" } : undefined));
  set("days", readDays(t));
  set("visitsPerDay", readVisitsPerDay(t));
  set("visits", first(t, [[re(String.raw`${RANGE}\s*(?:visits?|drop[- ]?ins?|walks?)\b(?!\s*(?:a|per|each)\s*day)`), 1]]));
  set("windows", first(t, [[re(String.raw`${APPROX}${RANGE}\s*(?:[\w-]+\s)?windows?\b`), 1]]));
  set("helpers", first(t, [[re(String.raw`${RANGE}\s*(?:people|persons|helpers|movers|guys|workers|cleaners|pairs of hands)\b`), 1]]));
  set("stops", first(t, [[re(String.raw`${RANGE}\s*(?:\w+\s)?(?:stops|drop[- ]?offs|deliveries|locations)\b`), 1]]));
  set("miles", first(t, [[re(String.raw`${APPROX}${RANGE}\s*(?:miles?|mi)\b`), 1]]));
  set("acres", first(t, [[re(String.raw`${RANGE}\s*-?\s*acres?\b`), 1]]));
  set("items", readItems(t));
  set("goods", first(t, [[re(String.raw`${APPROX}${RANGE}\s*(?:grocery |shopping )?(?:items|things|products)\b`), 1]]));
  set("orderValue", readOrderValue(t));
  set("wait", readWait(t));
  return reading;
}

/** Midpoint of a stated quantity. */
export const middle = (s: Stated) => (s.low + s.high) / 2;
