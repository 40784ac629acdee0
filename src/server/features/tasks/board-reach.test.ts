import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BoardTask } from "../../../shared/tasks.js";
import { boardReach, type BoardTaskChange } from "./board-reach.js";
import type { OpenTasksInput } from "./repository.js";

// The rule that lets a kept job-board answer survive a change (docs/decisions/038-board-answers-dropped-by-reach.md)
// is only safe if it never keeps an answer the change altered. A model of the board (the filters
// it judges, the three orders, the paging) computes the page before and after any change; whenever
// the page differs, the rule must have said the change reaches it.

interface ModelTask {
  id: string;
  category: string;
  createdAtMs: number;
  budgetCents: number;
  text: string;
}

const CATEGORIES = ["pet", "delivery", "errands"] as const;
const SORTS = ["newest", "budget_desc", "budget_asc"] as const;

/** ASCII case folding only, as PostgreSQL's ILIKE in the C locale; other letters compare as they are. */
const foldAscii = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

const newestFirst = (a: ModelTask, b: ModelTask) => b.createdAtMs - a.createdAtMs || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

function page(universe: readonly ModelTask[], q: OpenTasksInput): ModelTask[] {
  const matching = universe.filter(
    (t) =>
      (q.category === undefined || t.category === q.category) &&
      (!q.search || foldAscii(t.text).includes(foldAscii(q.search))) &&
      (q.minBudget === undefined || t.budgetCents >= Math.round(q.minBudget * 100)) &&
      (q.maxBudget === undefined || t.budgetCents <= Math.round(q.maxBudget * 100)),
  );
  const sorted = [...matching].sort((a, b) =>
    q.sort === "budget_desc" ? b.budgetCents - a.budgetCents || newestFirst(a, b) : q.sort === "budget_asc" ? a.budgetCents - b.budgetCents || newestFirst(a, b) : newestFirst(a, b),
  );
  return sorted.slice((q.page - 1) * q.pageSize, q.page * q.pageSize);
}

const card = (t: ModelTask) => ({ id: t.id, createdAt: new Date(t.createdAtMs).toISOString(), budget: t.budgetCents / 100 }) as BoardTask;

const taskArb = fc.record({
  id: fc.uuid(),
  category: fc.constantFrom(...CATEGORIES),
  // A narrow range, so equal and adjacent milliseconds happen.
  createdAtMs: fc.integer({ min: 1_700_000_000_000, max: 1_700_000_000_040 }),
  budgetCents: fc.constantFrom(2000, 2500, 4000, 10000),
  // Greek capitals: JavaScript lower-cases a final sigma to "ς", so "ΟΔΟΣ" would not contain "σ" for it
  // while ILIKE finds "Σ" in it; only ASCII is judged.
  text: fc.constantFrom("Walk the dog", "Grocery pickup", "GROCERY run", "Épicerie: grocery", "Ship packages", "dog grooming", "ΟΔΟΣ delivery"),
});

const queryArb = fc.record({
  sort: fc.constantFrom(...SORTS),
  category: fc.option(fc.constantFrom(...CATEGORIES), { nil: undefined }),
  search: fc.option(fc.constantFrom("grocery", "dog", "É", "ship", "Σ"), { nil: undefined }),
  minBudget: fc.option(fc.constantFrom(25, 40), { nil: undefined }),
  maxBudget: fc.option(fc.constantFrom(25, 40), { nil: undefined }),
  page: fc.integer({ min: 1, max: 3 }),
  pageSize: fc.integer({ min: 1, max: 4 }),
});

/** The parsed query's fields the rule reads; the rest (place, area, date) are never judged. */
const asQuery = (q: object) => q as OpenTasksInput;

const changeOf = (t: ModelTask, effect: BoardTaskChange["effect"], knownText: boolean): BoardTaskChange => ({
  effect,
  taskId: t.id,
  category: t.category,
  createdAtMs: t.createdAtMs,
  budgetCents: t.budgetCents,
  text: knownText ? t.text : null,
});

const sameCards = (a: readonly ModelTask[], b: readonly ModelTask[]) => a.length === b.length && a.every((t, i) => t.id === b[i]?.id);

describe("boardReach", () => {
  it("reaches every kept answer that a task joining the board changes", () => {
    fc.assert(
      fc.property(fc.uniqueArray(taskArb, { selector: (t) => t.id, maxLength: 14 }), taskArb, queryArb, fc.boolean(), (universe, added, rawQuery, knownText) => {
        fc.pre(!universe.some((t) => t.id === added.id));
        const q = asQuery(rawQuery);
        const before = page(universe, q);
        const after = page([...universe, added], q);
        if (!sameCards(before, after)) expect(boardReach(q, before.map(card))(changeOf(added, "added", knownText))).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it("reaches every kept answer that a task leaving the board changes", () => {
    fc.assert(
      fc.property(fc.uniqueArray(taskArb, { selector: (t) => t.id, minLength: 1, maxLength: 14 }), fc.nat(), queryArb, fc.boolean(), (universe, pick, rawQuery, knownText) => {
        const removed = universe[pick % universe.length] as ModelTask;
        const q = asQuery(rawQuery);
        const before = page(universe, q);
        const after = page(
          universe.filter((t) => t !== removed),
          q,
        );
        if (!sameCards(before, after)) expect(boardReach(q, before.map(card))(changeOf(removed, "removed", knownText))).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it("reaches an answer showing a card whose photos changed, and no other", () => {
    fc.assert(
      fc.property(fc.uniqueArray(taskArb, { selector: (t) => t.id, minLength: 1, maxLength: 14 }), fc.nat(), queryArb, (universe, pick, rawQuery) => {
        const changed = universe[pick % universe.length] as ModelTask;
        const q = asQuery(rawQuery);
        const shown = page(universe, q);
        const change = { ...changeOf(changed, "changed", false), createdAtMs: null, budgetCents: null };
        expect(boardReach(q, shown.map(card))(change)).toBe(shown.some((t) => t.id === changed.id));
      }),
    );
  });

  it("keeps what it can: the newest page survives a task posted in another category, a dearer page a cheaper post, a search a post it does not match", () => {
    const t = (id: string, createdAtMs: number, budgetCents: number, category = "pet", text = "Walk the dog"): ModelTask => ({ id, category, createdAtMs, budgetCents, text });
    const shown = [t("b", 2000, 10000), t("a", 1000, 9000)];
    const q = (over: Partial<OpenTasksInput>) => ({ sort: "newest", page: 1, pageSize: 2, ...over }) as OpenTasksInput;
    expect(boardReach(q({ category: "pet" }), shown.map(card))(changeOf(t("c", 3000, 2000, "delivery"), "added", true))).toBe(false);
    expect(boardReach(q({ sort: "budget_desc" }), shown.map(card))(changeOf(t("c", 3000, 2000), "added", true))).toBe(false);
    expect(boardReach(q({ search: "dog" }), shown.map(card))(changeOf(t("c", 3000, 2000, "pet", "Grocery pickup"), "added", true))).toBe(false);
    // Without the text (another instance's notice) a search is assumed to match.
    expect(boardReach(q({ search: "dog" }), shown.map(card))(changeOf(t("c", 3000, 2000, "pet", "Grocery pickup"), "added", false))).toBe(true);
    // A claimed task that was not on the first page leaves it as it was; a later page moves up.
    expect(boardReach(q({}), shown.map(card))(changeOf(t("z", 500, 2000), "removed", true))).toBe(false);
    expect(boardReach(q({ page: 2 }), shown.map(card))(changeOf(t("z", 2500, 2000), "removed", true))).toBe(true);
  });
});
