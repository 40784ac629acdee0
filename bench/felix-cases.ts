import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { felixEstimate, figureShown } from "../src/shared/felix-bounds.js";
import { priceRegion } from "../src/shared/felix-region.js";
import { SPEC_WORK, computePricing, routeMiles, type FelixUrgency, type GeoPoint } from "../src/shared/felix-pricing.js";
import { statedTrip } from "../src/shared/felix-work.js";
import { createGazetteerGeocoder } from "../src/server/adapters/geocoding/gazetteer-geocoder.js";
import { benchArgs } from "./args.js";

// Felix against published US price ranges (issues 33 and 44; docs/decisions/072-felix-sanity-bounds-couriers-and-offers.md).
// A benchmark, not a test: each case is a task with the range a cost guide or rate card gives, and its source.
//
//   npm run bench:felix [-- --cases=FILE.jsonl] [--verbose]
//
// By default the project's own set (bench/felix-cases.jsonl). Felix is run as the server runs it
// with no network and no language model: places through the offline gazetteer, routes as great
// circle x 1.25, the miles and stops a single-place task states in words, the place's price level
// from its single location or the route's start (src/shared/felix-region.ts). Reported: how many of
// Felix's figures fall inside the range and inside [0.8 x low, 1.25 x high], the worst ratio
// (max of figure / high and low / figure), and apart from those the cases where Felix asked
// instead of answering (a question is not a hit, and a question whose figure is outside the bounds
// shows none: src/shared/felix-bounds.ts figureShown, decision 080). The figure is what Felix says the work costs;
// under the $20 minimum it is stated beside "Errandly's minimum budget is $20", and the posted
// suggestion is the minimum (counted too). "Before" is the spec's formula (a fixed half hour at $20).

interface Place {
  city: string;
  state: string;
}
interface Case {
  id: string;
  category: string;
  title: string;
  description: string;
  urgency: FelixUrgency;
  location: Place | { start: Place; end: Place; stops: Place[] };
  low: number;
  high: number;
}

const args = benchArgs();
const file = resolve(args.get("cases") ?? resolve(import.meta.dirname, "felix-cases.jsonl"));
const cases = readFileSync(file, "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as Case);

const geocoder = createGazetteerGeocoder();
async function point(p: Place): Promise<GeoPoint | null> {
  const [found] = await geocoder.search(`${p.city}, ${p.state}`, 1);
  return found ? { lat: found.lat, lon: found.lon } : null;
}

/** Miles and stops as the server measures them: a route through the gazetteer, else what a single place's words state. */
async function trip(c: Case): Promise<{ miles: number; stops: number }> {
  const stated = statedTrip(c.title, c.description);
  if ("start" in c.location) {
    const points = await Promise.all([c.location.start, ...c.location.stops, c.location.end].map(point));
    if (points.every((p) => p !== null)) return { miles: routeMiles(points), stops: c.location.stops.length };
  }
  return { miles: stated.miles ?? 0, stops: stated.stops ?? 0 };
}

const inBand = (value: number, c: Case) => value >= 0.8 * c.low && value <= 1.25 * c.high;
const inRange = (value: number, c: Case) => value >= c.low && value <= c.high;
const ratio = (value: number, c: Case) => Math.max(value / c.high, c.low / value);

const rows = await Promise.all(
  cases.map(async (c) => {
    const { miles, stops } = await trip(c);
    const before = computePricing({ miles, stops, urgency: c.urgency, work: SPEC_WORK }).suggestedBudget;
    const place = "start" in c.location ? c.location.start : c.location;
    const region = priceRegion({ city: place.city, state: place.state, point: await point(place) });
    const query = { category: c.category, title: c.title, description: c.description, region };
    const estimate = felixEstimate({ query, miles, stops, urgency: c.urgency });
    const { work, pricing, check } = estimate;
    return { c, before, figure: pricing.estimate, pricing, work, asked: check !== null, shown: figureShown(estimate), region };
  }),
);

const n = rows.length;
const pct = (k: number, of = n) => `${k}/${of} (${Math.round((k / Math.max(of, 1)) * 100)}%)`;
const answered = rows.filter((r) => !r.asked);
// Every figure a poster can read: the answers, and the usual job beside a question when it is inside the bounds.
const shown = rows.filter((r) => r.shown);
const worst = answered.reduce<(typeof answered)[number] | undefined>((w, r) => (w === undefined || ratio(r.figure, r.c) > ratio(w.figure, w.c) ? r : w), undefined);

if (args.has("verbose")) {
  for (const { c, before, figure, pricing, work, asked, shown, region } of rows) {
    const mark = asked ? (shown ? "ASK" : "ASK-") : inRange(figure, c) ? "in" : inBand(figure, c) ? "band" : "out";
    console.log(
      `${c.id.padEnd(11)} ${`$${c.low}-${c.high}`.padEnd(14)} before $${String(before).padEnd(4)} figure $${String(figure).padEnd(5)} x${ratio(figure, c).toFixed(2)} ${mark.padEnd(4)} ${pricing.distance} mi; x${region.factor.toFixed(3)} ${region.name ?? "US"}; ${work.label}: ${work.quantityFrom}`,
    );
  }
}
const categories = [...new Set(cases.map((c) => c.category))].sort();
console.log(`cases: ${n} (${file})`);
console.log(`before (spec formula): inside range ${pct(rows.filter((r) => inRange(r.before, r.c)).length)}, inside [0.8×low, 1.25×high] ${pct(rows.filter((r) => inBand(r.before, r.c)).length)}`);
console.log(
  `figure: inside range ${pct(answered.filter((r) => inRange(r.figure, r.c)).length)}, inside [0.8×low, 1.25×high] ${pct(answered.filter((r) => inBand(r.figure, r.c)).length)}, asked instead ${rows.length - answered.length} (not counted as hits; ${rows.length - shown.length} of them with no figure shown)`,
);
console.log(`worst ratio: ${worst ? `${ratio(worst.figure, worst.c).toFixed(2)} (${worst.c.id}: $${worst.figure} against $${worst.c.low}-${worst.c.high})` : "none"}; beyond 2× high or under 0.5× low: ${answered.filter((r) => ratio(r.figure, r.c) > 2).length} answered, ${shown.filter((r) => ratio(r.figure, r.c) > 2).length} of all figures shown`);
console.log(`suggested budget under the $20 minimum: ${rows.filter((r) => r.pricing.minimumTopUp > 0).length} figures lifted to $20; suggestion itself inside [0.8×low, 1.25×high] ${pct(answered.filter((r) => inBand(r.pricing.suggestedBudget, r.c)).length)}`);
for (const category of categories) {
  const of = rows.filter((r) => r.c.category === category);
  const hit = of.filter((r) => !r.asked);
  console.log(`  ${category.padEnd(9)} in range ${pct(hit.filter((r) => inRange(r.figure, r.c)).length, of.length)}, in band ${pct(hit.filter((r) => inBand(r.figure, r.c)).length, of.length)}`);
}
