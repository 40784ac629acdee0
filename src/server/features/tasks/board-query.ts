import { and, asc, desc, eq, isNull, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { CATEGORY_VALUES, type Category } from "../../../shared/constants.js";
import { findZip } from "../../adapters/geocoding/gazetteer-geocoder.js";
import { EARTH_RADIUS_MILES } from "../../../shared/geo.js";
import { boundingBox, RADIUS_MILES, roundMiles, unknownZipMessage, whenRange, type BoundingBox, type RadiusMiles } from "../../../shared/task-filters.js";
import type { BoardTask, RadiusCounts } from "../../../shared/tasks.js";
import type { AppContext } from "../../context.js";
import type { Db } from "../../db/client.js";
import { publicPhotoSql } from "../../db/public-photo.js";
import { preparedOnce, RowStatement } from "../../db/prepared.js";
import { defaultPhotoAlt, taskPhotoUrl } from "../../../shared/task-photos.js";
import { averageRatingSql, toRating } from "../../db/ratings.js";
import { tasks } from "../../db/schema/tasks.js";
import { users } from "../../db/schema/users.js";
import { fieldError } from "../../http-errors.js";
import type { OpenTasksInput } from "./repository.js";
import type { PartyRow } from "./party-views.js";
import { toPublicView } from "./task-views.js";


// The job board's query (docs/product.md#job-board-filters): one statement per shape of query,
// written once and then only executed (docs/decisions/039-hot-statements-written-once.md).

/** ILIKE pattern for user text: %, _ and the escape character itself match literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Great-circle miles from a point to the task's coarse position (null without one). */
function distanceSql(lat: SQLWrapper, lon: SQLWrapper): SQL<number | null> {
  // Parameters are typed: an untyped $n beside an integer would be read as an integer.
  const la = sql`${lat}::float8`;
  const lo = sql`${lon}::float8`;
  // least() skips NULLs, so a task without a position is caught before it reaches it.
  return sql<number | null>`(case when ${tasks.approxLat} is null or ${tasks.approxLon} is null then null else ${EARTH_RADIUS_MILES}::float8 * 2 * asin(least(1, sqrt(
    power(sin(radians(${tasks.approxLat} - ${la}) / 2), 2) +
    cos(radians(${la})) * cos(radians(${tasks.approxLat})) * power(sin(radians(${tasks.approxLon} - ${lo}) / 2), 2)))) end)`;
}

interface SortColumns {
  budgetCents: SQLWrapper;
  createdAt: SQLWrapper;
  id: SQLWrapper;
  distance: SQLWrapper;
}

/** The board's order, stated once and applied inside the page subquery and again outside it. */
function boardOrder(sort: OpenTasksInput["sort"], c: SortColumns): SQL[] {
  // id breaks ties so that pages never overlap or skip a task.
  const newest = [desc(c.createdAt), desc(c.id)];
  if (sort === "budget_desc") return [desc(c.budgetCents), ...newest];
  if (sort === "budget_asc") return [asc(c.budgetCents), ...newest];
  if (sort === "distance") return [sql`${c.distance} asc nulls last`, ...newest];
  return newest;
}

/** What decides the text of the board's statement; every value but the category is a placeholder. */
interface BoardShape {
  sort: OpenTasksInput["sort"];
  /**
   * The category is written into the statement's text, not passed as a value: with a value
   * PostgreSQL planned every run again (its generic plan looked dearer than one for a known
   * category), and there are only seven, each one statement planned once (docs/benchmarks.md,
   * "Profiles of issue 16").
   */
  category: Category | null;
  search: boolean;
  point: boolean;
  /** Within radiusMiles of the point: a latitude box, a longitude box unless it wraps, then the distance. */
  radius: boolean;
  lonBox: boolean;
  /** Inside the map's area (bbox): the same position index serves it (decision 031). */
  area: boolean;
  minBudget: boolean;
  maxBudget: boolean;
  when: "any" | "range" | "unscheduled";
}

/** The centre of a search: `near` (a ZIP code placed by the offline gazetteer, or a point), else lat/lon. */
function searchPoint(query: OpenTasksInput): { lat: number; lon: number } | null {
  const near = query.near;
  if (near?.kind === "zip") {
    const place = findZip(near.zip);
    // Handlers' "field: message" errors become fieldErrors (docs/product.md#validation).
    if (!place) throw fieldError("near", unknownZipMessage(near.zip));
    return { lat: place.lat, lon: place.lon };
  }
  if (near?.kind === "point") return { lat: near.lat, lon: near.lon };
  return query.lat !== undefined && query.lon !== undefined ? { lat: query.lat, lon: query.lon } : null;
}

/** The query with its search point placed and its filters read, once per request. */
interface BoardRequest {
  query: OpenTasksInput;
  point: { lat: number; lon: number } | null;
  box: BoundingBox | null;
}

function boardRequest(query: OpenTasksInput, radius: number | undefined = query.radiusMiles): BoardRequest {
  const point = searchPoint(query);
  return { query, point, box: point && radius !== undefined ? boundingBox(point.lat, point.lon, radius) : null };
}

const boardShape = ({ query, point, box }: BoardRequest): BoardShape => ({
  sort: query.sort,
  category: query.category ?? null,
  search: Boolean(query.search),
  point: point !== null,
  radius: box !== null,
  lonBox: box !== null && box.lon !== null,
  area: query.bbox !== undefined,
  minBudget: query.minBudget !== undefined,
  maxBudget: query.maxBudget !== undefined,
  when: query.when === undefined ? "any" : query.when === "flexible" ? "unscheduled" : "range",
});

const shapeName = (s: BoardShape) =>
  `${s.sort}_${s.category ?? "all"}_${[s.search, s.point, s.radius, s.lonBox, s.area, s.minBudget, s.maxBudget].map(Number).join("")}${s.when}`;

/** A category as a literal of the statement's text: only a value of the shared list gets there. */
function categoryValue(category: string): Category {
  const known = CATEGORY_VALUES.find((c) => c === category);
  if (!known) throw new Error(`not a category: ${category}`);
  return known;
}

/**
 * A search point rounded to 1e-6° (about 11 cm, finer than any stored position): a subnormal
 * latitude such as 5e-324 makes PostgreSQL's radians() raise "value out of range: underflow".
 */
const coordinate = (value: number | undefined): number | null => (value === undefined ? null : Math.round(value * 1e6) / 1e6);

/** The placeholders' values; those a shape does not use are ignored. */
const boardValues = ({ query, point, box }: BoardRequest, now: Date) => {
  const range = query.when ? whenRange(query.when, now) : null;
  return {
    pattern: query.search ? containsPattern(query.search) : null,
    lat: coordinate(point?.lat),
    lon: coordinate(point?.lon),
    radius: query.radiusMiles ?? null,
    minLat: box?.minLat ?? null,
    maxLat: box?.maxLat ?? null,
    minLon: box?.lon?.min ?? null,
    maxLon: box?.lon?.max ?? null,
    west: query.bbox?.west ?? null,
    south: query.bbox?.south ?? null,
    east: query.bbox?.east ?? null,
    north: query.bbox?.north ?? null,
    minCents: query.minBudget === undefined ? null : Math.round(query.minBudget * 100),
    maxCents: query.maxBudget === undefined ? null : Math.round(query.maxBudget * 100),
    from: range && range !== "unscheduled" ? range.from.toISOString() : null,
    to: range && range !== "unscheduled" ? range.to.toISOString() : null,
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
  };
};

/**
 * The WHERE of the board (docs/product.md#job-board-filters). The radius is a box on the coarse
 * position first, so the approx position index narrows the rows before the exact distance is
 * computed for the few left (docs/decisions/027-job-board-distance-and-dates.md).
 */
function boardConditions(shape: BoardShape, distance: SQL<number | null>): SQL[] {
  const p = sql.placeholder;
  // Literal like the category: the one status the board shows, known when the plan is made.
  const conditions: SQL[] = [sql`${tasks.status} = 'open'`];
  // A value of the shared enum (zod refused anything else), so a literal cannot carry anything but it.
  if (shape.category) conditions.push(eq(tasks.category, sql.raw(`'${categoryValue(shape.category)}'`)));
  // Same expression as tasks_search_trgm_idx, so the trigram index serves it.
  if (shape.search) conditions.push(sql`(${tasks.title} || ' ' || ${tasks.description}) ilike ${p("pattern")}`);
  if (shape.radius) {
    conditions.push(sql`${tasks.approxLat} between ${p("minLat")}::float8 and ${p("maxLat")}::float8`);
    if (shape.lonBox) conditions.push(sql`${tasks.approxLon} between ${p("minLon")}::float8 and ${p("maxLon")}::float8`);
    conditions.push(sql`${distance} <= ${p("radius")}::float8`);
  }
  if (shape.area) {
    conditions.push(sql`${tasks.approxLat} between ${p("south")}::float8 and ${p("north")}::float8`);
    conditions.push(sql`${tasks.approxLon} between ${p("west")}::float8 and ${p("east")}::float8`);
  }
  if (shape.minBudget) conditions.push(sql`${tasks.budgetCents} >= ${p("minCents")}::int`);
  if (shape.maxBudget) conditions.push(sql`${tasks.budgetCents} <= ${p("maxCents")}::int`);
  if (shape.when === "range") {
    conditions.push(sql`${tasks.scheduledDate} >= ${p("from")}::timestamptz and ${tasks.scheduledDate} < ${p("to")}::timestamptz`);
  }
  if (shape.when === "unscheduled") conditions.push(isNull(tasks.scheduledDate));
  return conditions;
}

/** The page size the web app asks for; with the first pages it gets statements planned once (boardStatement). */
const BOARD_PAGE_SIZE = 30;
const PLANNED_ONCE_PAGES = 5;

/**
 * The job board's page in ONE statement: the page of open tasks in order, each poster's name,
 * photo and rating as kept on their users row (docs/decisions/037-ratings-on-the-user-row.md) and the
 * card's first photo. Only the fields the card shows are selected, and the rows skip drizzle's
 * mapping (RowStatement): the board is the hottest read (docs/benchmarks.md, "Profiles of issue 16").
 */
function boardStatement(shape: BoardShape, paging: { pageSize: number; page: number } | null): RowStatement<ReturnType<typeof boardColumns>> {
  const p = sql.placeholder;
  const distance = shape.point ? distanceSql(p("lat"), p("lon")) : sql<number | null>`null::float8`;
  // The first pages at the web app's size are literals in the text, so PostgreSQL can keep one plan
  // for the statement: with LIMIT and OFFSET as parameters its generic plan looked dearer than any
  // custom one, and it planned every run again (docs/benchmarks.md, "Figures once in code comments").
  const limits = paging ? sql.raw(`limit ${paging.pageSize} offset ${(paging.page - 1) * paging.pageSize}`) : sql`limit ${p("limit")} offset ${p("offset")}`;
  const rest = sql`from ${tasks}
    join ${users} on ${users.id} = ${tasks.userId}
    left join lateral (select tp.id, tp.alt from task_photos tp where tp.task_id = ${tasks.id} order by tp.seq limit 1) photo on true
    where ${and(...boardConditions(shape, distance))}
    order by ${sql.join(boardOrder(shape.sort, { budgetCents: tasks.budgetCents, createdAt: tasks.createdAt, id: tasks.id, distance }), sql`, `)}
    ${limits}`;
  // A place filter's best plan depends on where the circle lies (dense: walk the newest-first
  // index; empty: range over the position index). After five runs PostgreSQL switched the named
  // statement to one generic plan and the place filter served far fewer requests than the
  // unfiltered board, and more with custom plans forced (docs/benchmarks.md, "Job board filters").
  // An unnamed statement ("") is planned for its values on every run, as are pages past the first few.
  const name = shape.point || !paging ? "" : `tasks_open_${shapeName(shape)}_${paging.page}`;
  return new RowStatement(name, boardColumns(distance), rest);
}

function boardColumns(distance: SQL<number | null>) {
  return {
    id: tasks.id,
    title: tasks.title,
    description: tasks.description,
    category: tasks.category,
    urgency: tasks.urgency,
    budgetCents: tasks.budgetCents,
    urgentFeeCents: tasks.urgentFeeCents,
    serviceFeeCents: tasks.serviceFeeCents,
    totalCents: tasks.totalCents,
    providerShareCents: tasks.providerShareCents,
    platformCommissionCents: tasks.platformCommissionCents,
    scheduledDate: tasks.scheduledDate,
    city: tasks.city,
    state: tasks.state,
    startCity: tasks.startCity,
    startState: tasks.startState,
    endCity: tasks.endCity,
    endState: tasks.endState,
    stopCount: sql<number>`coalesce(jsonb_array_length(${tasks.stops}), 0)`,
    isRoute: sql<boolean>`(${tasks.startLocation} is not null)`,
    approxLat: tasks.approxLat,
    approxLon: tasks.approxLon,
    status: tasks.status,
    hiringMode: tasks.hiringMode,
    createdAt: tasks.createdAt,
    userId: tasks.userId,
    providerId: tasks.providerId,
    paymentDeadline: tasks.paymentDeadline,
    paymentCapturedAt: tasks.paymentCapturedAt,
    editedAt: tasks.editedAt,
    timeZone: tasks.timeZone,
    durationMinutes: tasks.durationMinutes,
    distance,
    posterFirstName: users.firstName,
    posterLastName: users.lastName,
    posterPhotoUrl: publicPhotoSql(sql`${users.id}`, sql`${users.profileImageUrl}`),
    posterRating: averageRatingSql(users.ratingSum, users.ratingCount),
    posterReviewCount: users.ratingCount,
    // The card's first photo (docs/product.md#task-photos), by the (task_id, seq) index.
    photoId: sql<string | null>`photo.id`,
    photoAlt: sql<string | null>`photo.alt`,
    // Which transactions the statement saw: the job board's cache keeps the answer across the
    // notices of those (board-cache.ts). The same on every row.
    snapshot: sql<string>`pg_current_snapshot()::text`,
  };
}

/** The statement of a board query: built once per shape and page (preparedOnce), then only executed. */
function boardStatementFor(db: Db, request: BoardRequest) {
  const shape = boardShape(request);
  const { pageSize, page } = request.query;
  const paging = pageSize === BOARD_PAGE_SIZE && page <= PLANNED_ONCE_PAGES ? { pageSize, page } : null;
  return preparedOnce(db, `tasks_open_${shapeName(shape)}_${paging ? page : "any"}`, () => boardStatement(shape, paging));
}

/** A board query's statement (made once per shape and page) and the values of its placeholders. */
export function boardStatementWithValues(ctx: Pick<AppContext, "db" | "now">, query: OpenTasksInput) {
  const request = boardRequest(query);
  return { statement: boardStatementFor(ctx.db, request), values: boardValues(request, ctx.now()) };
}

/** The board's SQL with its values, as the app runs it (bench:load hands it to pgbench, with no app around it). */
export function openTasksSql(ctx: Pick<AppContext, "db" | "now">, query: OpenTasksInput): { sql: string; params: unknown[] } {
  const { statement, values } = boardStatementWithValues(ctx, query);
  return { sql: statement.sql, params: statement.values(values) };
}

/**
 * The job board: open tasks only, public view, newest first unless another sort is asked; with the
 * snapshot the statement read (null for an empty page).
 */
export async function listOpenTasks(ctx: AppContext, query: OpenTasksInput): Promise<{ cards: BoardTask[]; snapshot: string | null }> {
  const { statement, values } = boardStatementWithValues(ctx, query);
  const rows = await statement.rows(ctx.db, values);
  const cards = rows.map((r): BoardTask => {
    // Open tasks have no provider yet, and a poster's card has no completed-task count.
    const poster: PartyRow = {
      id: r.userId,
      firstName: r.posterFirstName,
      lastName: r.posterLastName,
      photoUrl: r.posterPhotoUrl,
      rating: toRating(r.posterRating),
      reviewCount: r.posterReviewCount,
      completedTasks: 0,
    };
    return {
      ...toPublicView(r, new Map([[r.userId, poster]]), r.distance === null ? null : roundMiles(r.distance)),
      photo: r.photoId === null ? null : { small: taskPhotoUrl(r.photoId, "small"), alt: r.photoAlt ?? defaultPhotoAlt(1, r.title) },
    };
  });
  return { cards, snapshot: rows[0]?.snapshot ?? null };
}

/**
 * How many open tasks match the same filters within each radius (docs/product.md#job-board-filters:
 * an empty board says what to loosen). One count over the widest radius' box answers every radius,
 * and the web asks only when a filtered page came back empty, so the usual board costs nothing more.
 */
export async function countWithinRadii(ctx: AppContext, query: OpenTasksInput): Promise<RadiusCounts> {
  const widest = Math.max(...RADIUS_MILES);
  const request = boardRequest(query, widest);
  const shape = boardShape(request);
  const distance = distanceSql(sql.placeholder("lat"), sql.placeholder("lon"));
  const counts = Object.fromEntries(
    RADIUS_MILES.map((r) => [`r${r}`, sql<number>`(count(*) filter (where ${distance} <= ${sql.raw(String(r))}))::int`]),
  );
  const statement = ctx.db.select(counts).from(tasks).where(and(...boardConditions(shape, distance))).prepare(`tasks_radius_counts_${shapeName(shape)}`);
  const [row] = await statement.execute({ ...boardValues(request, ctx.now()), radius: widest });
  return { counts: RADIUS_MILES.map((radiusMiles: RadiusMiles) => ({ radiusMiles, count: Number(row?.[`r${radiusMiles}`] ?? 0) })) };
}
