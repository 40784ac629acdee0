import type { BoardTask } from "../../../shared/tasks.js";
import type { OpenTasksInput } from "./repository.js";

// Which changes a kept job-board answer may show (docs/decisions/038-board-answers-dropped-by-reach.md).
// Dropping every answer of a category on every change kept few of them under load: at bench:load's
// mix posts arrive often and each took the searches, the budget orders and every other
// category-wide page with it, so many of the board's requests ran the query (docs/benchmarks.md, "Figures once in code comments"). A change now
// drops an answer only when the changed task may be on it, or may move its cards: the task is on
// the page, or may match its filters and sorts before its last card (a task joining) or before its
// first (a task leaving a later page). Whatever is not known is assumed to match, so a doubt
// always drops.

/** A task that joined the board (posted, open again), left it (claimed, cancelled) or changed on it (photos). */
export interface BoardTaskChange {
  effect: "added" | "removed" | "changed";
  taskId: string;
  category: string;
  /** Its place in the board's orders (created_at to the millisecond, as the answers carry it); null: unknown. */
  createdAtMs: number | null;
  budgetCents: number | null;
  /**
   * Its title and description, known only on the instance that made the change (a notice cannot
   * carry a description): null elsewhere, and then a search is assumed to match.
   */
  text: string | null;
}

type Order = "before" | "after" | "unknown";

/** `a` against `b` in one direction; within `tolerance` of each other is not judged. */
const compare = (a: number, b: number, descending: boolean, tolerance = 0): Order =>
  Math.abs(a - b) <= tolerance ? "unknown" : a > b === descending ? "before" : "after";

/** Where the changed task sorts against a card of the answer, in the query's order. */
function order(sort: OpenTasksInput["sort"], change: BoardTaskChange, card: BoardTask): Order {
  if (sort === "distance" || change.createdAtMs === null) return "unknown";
  // Within a millisecond is left unjudged: the database orders by the microsecond, then the id, and
  // the three readers of a timestamp (PostgreSQL's floor, node-postgres, Date.parse) may round it 1 ms apart.
  const newest = compare(change.createdAtMs, Date.parse(card.createdAt), true, 1);
  if (sort === "newest") return newest;
  if (change.budgetCents === null) return "unknown";
  const byBudget = compare(change.budgetCents, Math.round(card.budget * 100), sort === "budget_desc");
  return byBudget === "unknown" ? newest : byBudget;
}

const ASCII = /^[\x20-\x7e\s]*$/;

/**
 * Could the task match the query's filters? The search is judged only for ASCII text (ILIKE and
 * JavaScript fold those letters alike); the place, the map area and the date are not judged.
 */
function mayMatch(query: OpenTasksInput, change: BoardTaskChange): boolean {
  if (query.category !== undefined && query.category !== change.category) return false;
  if (query.search && change.text !== null && ASCII.test(query.search) && ASCII.test(change.text)) {
    if (!change.text.toLowerCase().includes(query.search.toLowerCase())) return false;
  }
  if (change.budgetCents !== null) {
    if (query.minBudget !== undefined && change.budgetCents < Math.round(query.minBudget * 100)) return false;
    if (query.maxBudget !== undefined && change.budgetCents > Math.round(query.maxBudget * 100)) return false;
  }
  return true;
}

/** The changes that may show on the answer `cards` to `query`. */
export function boardReach(query: OpenTasksInput, cards: readonly BoardTask[]): (change: BoardTaskChange) => boolean {
  const ids = new Set(cards.map((c) => c.id));
  const first = cards[0];
  const last = cards.at(-1);
  const full = cards.length >= query.pageSize;
  return (change) => {
    if (ids.has(change.taskId)) return true;
    // A card's photo changed: only the pages showing that card change.
    if (change.effect === "changed" || !mayMatch(query, change)) return false;
    if (change.effect === "added") return !full || !last || order(query.sort, change, last) !== "after";
    // A task left the board without being on this page: a later page's cards move up when it sorted before them.
    return query.page > 1 && (!first || order(query.sort, change, first) !== "after");
  };
}
