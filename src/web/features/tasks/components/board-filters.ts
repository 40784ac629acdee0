import { CATEGORY_VALUES, type Category } from "@shared/constants";
import {
  WHEN_LABELS,
  parseBboxFilter,
  parseNearFilter,
  readBudgetFilter,
  readRadiusFilter,
  readWhenFilter,
  type RadiusMiles,
  type TaskWhen,
} from "@shared/task-filters";

// The job board's filters as the page's URL carries them (docs/product.md#job-board-filters): the
// same names as the API's query, so a shared link, reload and Back keep them. Each value is judged
// by the API's own rule (the shared readers, without zod: issue 17); a wrong one in a hand-edited
// URL is dropped rather than shown as an error.

export interface BoardFilterValues {
  /** As typed: a ZIP code or "lat,lon". */
  near?: string;
  radiusMiles?: RadiusMiles;
  minBudget?: number;
  maxBudget?: number;
  when?: TaskWhen;
  /** The map's area as "west,south,east,north" (docs/decisions/031-job-board-map.md). */
  bbox?: string;
}

export type BoardSort = "newest" | "budget_desc" | "budget_asc" | "distance";

/** The sorts offered always; "distance" only once a place is set. */
export const BOARD_SORTS: { value: BoardSort; label: string }[] = [
  { value: "newest", label: "Newest" },
  { value: "budget_desc", label: "Budget: high to low" },
  { value: "budget_asc", label: "Budget: low to high" },
];

export const BOARD_FILTER_KEYS = ["near", "radiusMiles", "minBudget", "maxBudget", "when", "bbox"] as const;
export type BoardFilterKey = (typeof BOARD_FILTER_KEYS)[number];

/** The radius the panel offers first when someone sets a place. */
export const DEFAULT_RADIUS: RadiusMiles = 25;

export function readBoardFilters(params: URLSearchParams): BoardFilterValues {
  const values: BoardFilterValues = {};
  const near = params.get("near")?.trim();
  if (near && typeof parseNearFilter(near) !== "string") values.near = near;
  const radius = readRadiusFilter(params.get("radiusMiles") ?? "");
  if (values.near && radius !== undefined) values.radiusMiles = radius;
  for (const key of ["minBudget", "maxBudget"] as const) {
    const text = params.get(key);
    const budget = text ? readBudgetFilter(text) : undefined;
    if (budget !== undefined) values[key] = budget;
  }
  if (values.minBudget !== undefined && values.maxBudget !== undefined && values.minBudget > values.maxBudget) {
    delete values.maxBudget;
  }
  const when = readWhenFilter(params.get("when") ?? "");
  if (when) values.when = when;
  const bbox = params.get("bbox");
  if (bbox && typeof parseBboxFilter(bbox) !== "string") values.bbox = bbox;
  return values;
}

/** The URL's query with these filters in place of the old ones; other parameters are kept. */
export function writeBoardFilters(params: URLSearchParams, values: BoardFilterValues): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of BOARD_FILTER_KEYS) {
    const value = values[key];
    if (value === undefined || value === "") next.delete(key);
    else next.set(key, String(value));
  }
  if (!values.near) next.delete("radiusMiles");
  return next;
}

/** The list is the default (and the accessible one); the map is `view=map` in the address (decision 031). */
export function boardView(params: URLSearchParams): "list" | "map" {
  return params.get("view") === "map" ? "map" : "list";
}

/** The board as the page's address asks for it; a value the API would refuse is dropped, not shown as an error. */
export interface BoardPageParams extends BoardFilterValues {
  search: string;
  category: Category | undefined;
  sort: BoardSort;
}

/**
 * The board's parameters read from the page's address (docs/product.md#job-board-filters). The page
 * and the server renderer both read them here, so the first page the server looked up sits under the
 * very key the page asks with (docs/decisions/036-server-rendered-data-pages.md).
 */
export function boardPageParams(params: URLSearchParams): BoardPageParams {
  const filters = readBoardFilters(params);
  const sortText = params.get("sort");
  // "distance" needs a place to measure from.
  const sort = sortText === "distance" && filters.near ? "distance" : (BOARD_SORTS.find((s) => s.value === sortText)?.value ?? "newest");
  return { search: params.get("search") ?? "", category: CATEGORY_VALUES.find((c) => c === params.get("category")), sort, ...filters };
}

export const hasBoardFilters = (values: BoardFilterValues) => BOARD_FILTER_KEYS.some((k) => values[k] !== undefined);

const money = (dollars: number) => `$${Number.isInteger(dollars) ? dollars : dollars.toFixed(2)}`;

/** One removable chip per filter; the place and its radius are one chip. */
export function filterChips(values: BoardFilterValues): { key: BoardFilterKey; label: string }[] {
  const chips: { key: BoardFilterKey; label: string }[] = [];
  if (values.near) {
    // A position is the viewer's own ("Near me"): coordinates are for the address, not for reading (issue 27).
    const place = parseNearFilter(values.near);
    const isPoint = typeof place !== "string" && place.kind === "point";
    const label = isPoint ? (values.radiusMiles ? `Near me, within ${values.radiusMiles} mi` : "Near me") : values.radiusMiles ? `Within ${values.radiusMiles} mi of ${values.near}` : `Near ${values.near}`;
    chips.push({ key: "near", label });
  }
  if (values.minBudget !== undefined && values.maxBudget !== undefined) {
    chips.push({ key: "minBudget", label: `${money(values.minBudget)} to ${money(values.maxBudget)}` });
  } else if (values.minBudget !== undefined) chips.push({ key: "minBudget", label: `${money(values.minBudget)} or more` });
  else if (values.maxBudget !== undefined) chips.push({ key: "maxBudget", label: `Up to ${money(values.maxBudget)}` });
  if (values.when) chips.push({ key: "when", label: WHEN_LABELS[values.when] });
  if (values.bbox) chips.push({ key: "bbox", label: "In the map area" });
  return chips;
}

/** The filters without the one a chip removes (the budget chip holds both bounds). */
export function withoutChip(values: BoardFilterValues, key: BoardFilterKey): BoardFilterValues {
  const next = { ...values };
  if (key === "near" || key === "radiusMiles") {
    delete next.near;
    delete next.radiusMiles;
  } else if (key === "minBudget" || key === "maxBudget") {
    delete next.minBudget;
    delete next.maxBudget;
  } else delete next[key];
  return next;
}

/**
 * What an empty board says (docs/product.md#job-board-filters): the nearest wider radius that has
 * tasks ("No tasks within 10 miles; 14 within 25"), else which filters to remove.
 */
export function noMatchMessage(values: BoardFilterValues, counts: readonly { radiusMiles: number; count: number }[] | undefined): string {
  const radius = values.radiusMiles;
  if (values.bbox && radius === undefined) return "No tasks in this area of the map. Zoom out or move the map, then search this area.";
  if (radius !== undefined && counts) {
    const wider = counts.find((c) => c.radiusMiles > radius && c.count > 0);
    if (wider) return `No tasks within ${radius} miles; ${wider.count} within ${wider.radiusMiles}.`;
  }
  const others = [
    values.minBudget !== undefined || values.maxBudget !== undefined ? "the budget" : null,
    values.when ? "the date" : null,
  ].filter((x): x is string => x !== null);
  const within = radius !== undefined ? `No tasks within ${radius} miles` : "No tasks match these filters";
  const wider = radius !== undefined && radius < 50 ? ", or search a wider area" : "";
  if (others.length > 0) return `${within}. Try removing ${others.join(" or ")} filter${wider}.`;
  return radius !== undefined && radius < 50 ? `${within}. Try a wider radius.` : `${within}. Try another place or fewer filters.`;
}

/** "3.2 mi" on a card (the server already rounded it). */
export const milesText = (miles: number) => `${miles} mi`;

/**
 * Which cards a viewer's board (list and map) leaves out: tasks whose poster declined them
 * (decision 024) and every task of a person they blocked (docs/product.md, Moderation). The board
 * is one answer for everyone (decision 035), so the browser leaves them out.
 */
export function boardHides(declinedTaskIds: ReadonlySet<string>, blockedUserIds: readonly string[]): (task: { id: string; userId: string }) => boolean {
  const blocked = new Set(blockedUserIds);
  return (task) => declinedTaskIds.has(task.id) || blocked.has(task.userId);
}
