import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { SPEC_WORK, computePricing, type FelixUrgency } from "../src/shared/felix-pricing.js";
import { estimateWork, statedTrip } from "../src/shared/felix-work.js";
import { benchArgs } from "./args.js";

// Issue 33: how often Felix's suggestion falls inside a published price range, before (the spec's
// formula: a fixed half hour at $20) and after (the work's own hours at the category's rate,
// docs/decisions/054-felix-prices-the-works-own-hours.md). A benchmark, not a test: the cases are
// tasks with price ranges from cost guides, each with its source and the words behind the range
// (`source`, `quote`: read them before trusting a tight range).
//
//   npm run bench:felix [-- --verbose]        the 20 published cases of bench/felix-public-cases.jsonl
//   npm run bench:felix -- --cases=FILE.jsonl  another set of the same shape (one JSON object a line)
//
// Felix is improved by what it understands about tasks, never by fitting these cases: a set of the
// same kind is kept apart, outside the repository, to check against.
//
// Only the built-in reader is measured (no language model, no network); a case gives a city, not
// a route, so the miles and stops are those its words state, the same for before and after.

interface Case {
  id: string;
  category: string;
  title: string;
  description: string;
  urgency: FelixUrgency;
  low: number;
  high: number;
}

const args = benchArgs();
const file = resolve(args.get("cases") ?? resolve(import.meta.dirname, "felix-public-cases.jsonl"));
const cases = readFileSync(file, "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as Case);

/** The wider band the issue measures: [0.8 × low, 1.25 × high]. */
const inBand = (value: number, c: Case) => value >= 0.8 * c.low && value <= 1.25 * c.high;
const inRange = (value: number, c: Case) => value >= c.low && value <= c.high;

const rows = cases.map((c) => {
  const trip = statedTrip(c.title, c.description);
  const input = { miles: trip.miles ?? 0, stops: trip.stops ?? 0, urgency: c.urgency };
  const before = computePricing({ ...input, work: SPEC_WORK }).suggestedBudget;
  const work = estimateWork({ category: c.category, title: c.title, description: c.description });
  const after = computePricing({ ...input, work });
  return { c, before, after, work };
});

const count = (pick: (r: (typeof rows)[number]) => boolean) => rows.filter(pick).length;
const n = rows.length;
const pct = (k: number) => `${k}/${n} (${Math.round((k / n) * 100)}%)`;

if (args.has("verbose")) {
  for (const { c, before, after, work } of rows) {
    const mark = inRange(after.suggestedBudget, c) ? "in" : inBand(after.suggestedBudget, c) ? "band" : "out";
    console.log(
      `${c.id.padEnd(10)} ${`$${c.low}-${c.high}`.padEnd(14)} before $${before}  after $${after.suggestedBudget} ($${after.low}-${after.high}) ${mark.padEnd(4)} ${work.label}: ${work.quantityFrom}`,
    );
  }
}
console.log(`cases: ${n} (${file})`);
console.log(`before: inside range ${pct(count((r) => inRange(r.before, r.c)))}, inside [0.8×low, 1.25×high] ${pct(count((r) => inBand(r.before, r.c)))}`);
console.log(
  `after:  inside range ${pct(count((r) => inRange(r.after.suggestedBudget, r.c)))}, inside [0.8×low, 1.25×high] ${pct(count((r) => inBand(r.after.suggestedBudget, r.c)))}`,
);
console.log(`after: published range overlaps Felix's range ${pct(count((r) => r.after.low <= r.c.high && r.after.high >= r.c.low))}`);
