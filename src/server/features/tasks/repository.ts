import type { FastifyRequest } from "fastify";
import { and, asc, desc, eq, getTableColumns, inArray, isNotNull, isNull, lte, or, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { z } from "zod";
import { toSnakeCase } from "drizzle-orm/casing";
import { alias } from "drizzle-orm/pg-core";
import { CATEGORY_VALUES, type Category } from "../../../shared/constants.js";
import { centsToDollars, dollarsToCents, priceTask } from "../../../shared/money.js";
import { findZip } from "../../adapters/geocoding/gazetteer-geocoder.js";
import {
  findTransition,
  type SystemActor,
  type TaskCondition,
  type TaskEffect,
  type TaskTransitionName,
  type TaskViewer,
  type TransitionActor,
} from "../../../shared/task-lifecycle.js";
import { EARTH_RADIUS_MILES } from "../../../shared/geo.js";
import { displayName } from "../../../shared/names.js";
import { boundingBox, RADIUS_MILES, roundMiles, unknownZipMessage, whenRange, type BoundingBox, type RadiusMiles } from "../../../shared/task-filters.js";
import { scheduleProblem, type createTaskBodySchema, type openTasksQuerySchema, type BoardTask, type RadiusCounts, type TaskDetail, type TaskInsiderParty, type TaskParty, type TaskPrivate, type TaskProviderCard, type TaskPublic } from "../../../shared/tasks.js";
import type { AppContext } from "../../context.js";
import type { Db } from "../../db/client.js";
import { publicPhotoSql } from "../../db/public-photo.js";
import { preparedOnce, RowStatement } from "../../db/prepared.js";
import { toTaskPhotos, type TaskPhotoRow } from "../../db/task-photo-list.js";
import { defaultPhotoAlt, taskPhotoUrl } from "../../../shared/task-photos.js";
import { averageRatingSql, toRating } from "../../db/ratings.js";
import { providerProfiles } from "../../db/schema/providers.js";
import { taskDeclinedProviders, tasks, type StoredStop } from "../../db/schema/tasks.js";
import { users } from "../../db/schema/users.js";
import { fieldError, notFound, namedFieldError } from "../../http-errors.js";
import { announceTaskUpdate } from "../../task-updates.js";
import type { GeoPoint } from "../../../shared/felix-pricing.js";
import { approx, locateTypedPlace, type TypedPlace } from "./positions.js";
import type { TaskRow } from "../../task-events.js";

// The tasks table: posting, the job board, the lists and the detail, each row turned into its API
// answer here and nowhere else; and the one conditional UPDATE each lifecycle transition becomes
// (docs/decisions/005-task-lifecycle-table.md). service.ts runs that UPDATE with its task events.

/** The signed-in user as the auth plugin resolved it (kept local: features do not import each other). */
export type SessionUser = NonNullable<FastifyRequest["user"]>;

/** Who performs a transition: a signed-in person, or the server itself (the timer, the payment system). */
export type TransitionActorInput = { kind: "person"; user: SessionUser } | { kind: "system"; actor: SystemActor };

export type CreateTaskInput = z.output<typeof createTaskBodySchema>;
export type OpenTasksInput = z.output<typeof openTasksQuerySchema>;

/**
 * The date needed follows the shared rule (docs/product.md#dates-and-hours), judged with the app
 * clock: a past date or a time outside 9 AM-6 PM is refused with 400, never dropped.
 */
export function assertSchedule(scheduledDate: string | null | undefined, now: Date): Date | null {
  if (!scheduledDate) return null;
  const problem = scheduleProblem(scheduledDate, now);
  if (problem) throw namedFieldError("scheduledDate", problem);
  return new Date(scheduledDate);
}

/** Every column of a task row: what posting, the task page and every transition answer. */
const TASK_COLUMNS = getTableColumns(tasks);

const TASK_PLACE_COLUMNS = [
  "location", "city", "state", "lat", "lon",
  "startLocation", "startCity", "startState", "startLat", "startLon",
  "endLocation", "endCity", "endState", "endLat", "endLon",
] as const;

/**
 * Posting in one statement, written once: the task (every value a placeholder, the place's columns
 * null when the body has none) and, for a provider who posts, their role "both". Drizzle built
 * this insert again on every post, the largest part of a post's server CPU (docs/benchmarks.md,
 * "Profiles of issue 16").
 */
const insertTaskStatement = new RowStatement("task_insert", TASK_COLUMNS, (returning) => {
  const p = (name: string) => sql.placeholder(name);
  const columns = ["userId", "title", "description", "category", "urgency", "budgetCents", "urgentFeeCents", "serviceFeeCents", "totalCents", "scheduledDate", ...TASK_PLACE_COLUMNS, "stops", "approxLat", "approxLon"] as const;
  return sql`with promoted as (
      update ${users} set role = 'both', updated_at = ${p("now")}::timestamptz where ${users.id} = ${p("userId")}::uuid and ${users.role} = 'provider'
    )
    insert into ${tasks} (${sql.join(columns.map((c) => sql.identifier(toSnakeCase(c))), sql`, `)}, created_at, updated_at)
    values (${sql.join(columns.map((c) => p(c)), sql`, `)}, ${p("now")}::timestamptz, ${p("now")}::timestamptz)
    returning ${returning}`;
});

/** Stores the task with server-computed fees; a provider who posts becomes "both". */
export async function createTask(ctx: AppContext, user: SessionUser, body: CreateTaskInput): Promise<TaskPrivate> {
  const now = ctx.now();
  const scheduledDate = assertSchedule(body.scheduledDate, now);
  // Client totals are ignored: the fee rule lives in shared/money.ts and is applied here.
  const price = priceTask(dollarsToCents(body.budget), body.urgency);
  const isRoute = Boolean(body.startLocation);
  const stops: StoredStop[] | null =
    isRoute && body.stops && body.stops.length > 0
      ? body.stops.map((s) => ({ address: s.address, city: s.city, state: s.state, notes: s.notes, lat: s.lat ?? null, lon: s.lon ?? null }))
      : null;
  const place = isRoute
    ? {
        location: null,
        city: null,
        state: null,
        lat: null,
        lon: null,
        startLocation: body.startLocation,
        startCity: body.startCity,
        startState: body.startState,
        startLat: body.startLat ?? null,
        startLon: body.startLon ?? null,
        endLocation: body.endLocation,
        endCity: body.endCity,
        endState: body.endState,
        endLat: body.endLat ?? null,
        endLon: body.endLon ?? null,
      }
    : { location: body.location, city: body.city, state: body.state, lat: body.lat ?? null, lon: body.lon ?? null };
  const position = await taskPosition(ctx, isRoute ? { lat: body.startLat, lon: body.startLon, location: body.startLocation, city: body.startCity, state: body.startState } : body);

  const row = await ctx.db.transaction(async (tx) => {
    const [inserted] = await insertTaskStatement.rows(tx, {
      userId: user.id,
      title: body.title,
      description: body.description,
      category: body.category,
      urgency: body.urgency,
      budgetCents: price.budgetCents,
      urgentFeeCents: price.urgentFeeCents,
      serviceFeeCents: price.serviceFeeCents,
      totalCents: price.totalCents,
      scheduledDate: scheduledDate?.toISOString() ?? null,
      ...Object.fromEntries(TASK_PLACE_COLUMNS.map((c) => [c, null])),
      ...place,
      stops: stops ? JSON.stringify(stops) : null,
      approxLat: approx(position?.lat),
      approxLon: approx(position?.lon),
      now: now.toISOString(),
    });
    if (!inserted) throw new Error("task insert returned no row");
    // A new task joins every provider's job board live (docs/decisions/025-live-task-status.md).
    await announceTaskUpdate(tx, inserted.id, "posted", { board: "added" });
    await ctx.taskEvents.emitPosted({ task: inserted, tx, now });
    return inserted;
  });
  return privateView(ctx, row);
}

/**
 * Where the task is on the board: the first place's picked suggestion, else that place as typed
 * through the geocoder (positions.ts). A geocoder failure posts the task without a position, and
 * the scheduled job places it later (docs/product.md#tasks, "Where a task is").
 */
async function taskPosition(ctx: AppContext, first: TypedPlace & { lat?: number | null; lon?: number | null }): Promise<GeoPoint | null> {
  if (typeof first.lat === "number" && typeof first.lon === "number") return { lat: first.lat, lon: first.lon };
  try {
    return await locateTypedPlace(ctx.geocoder, first);
  } catch (err) {
    ctx.log.warn({ err }, "geocoding a typed address failed; the task is posted without a position");
    return null;
  }
}

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

/**
 * The public view's fields of a task (toPublicView): the board selects exactly these, every other
 * reader derives them from the whole row (publicFields).
 */
type PublicTaskRow = Pick<
  TaskRow,
  | "id"
  | "title"
  | "description"
  | "category"
  | "urgency"
  | "budgetCents"
  | "urgentFeeCents"
  | "serviceFeeCents"
  | "totalCents"
  | "scheduledDate"
  | "city"
  | "state"
  | "startCity"
  | "startState"
  | "endCity"
  | "endState"
  | "approxLat"
  | "approxLon"
  | "status"
  | "createdAt"
  | "userId"
  | "providerId"
  | "paymentDeadline"
  | "paymentCapturedAt"
> & { stopCount: number; isRoute: boolean };

const publicFields = (row: TaskRow): PublicTaskRow => ({ ...row, stopCount: row.stops?.length ?? 0, isRoute: row.startLocation !== null });

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
  // custom one, and it planned every run again (0.40 ms of planning per page: bench:routes).
  const limits = paging ? sql.raw(`limit ${paging.pageSize} offset ${(paging.page - 1) * paging.pageSize}`) : sql`limit ${p("limit")} offset ${p("offset")}`;
  const rest = sql`from ${tasks}
    join ${users} on ${users.id} = ${tasks.userId}
    left join lateral (select tp.id, tp.alt from task_photos tp where tp.task_id = ${tasks.id} order by tp.seq limit 1) photo on true
    where ${and(...boardConditions(shape, distance))}
    order by ${sql.join(boardOrder(shape.sort, { budgetCents: tasks.budgetCents, createdAt: tasks.createdAt, id: tasks.id, distance }), sql`, `)}
    ${limits}`;
  // A place filter's best plan depends on where the circle lies (dense: walk the newest-first
  // index; empty: range over the position index). After five runs PostgreSQL switched the named
  // statement to one generic plan and the place filter served 0.40 of the unfiltered board's req/s
  // (1,479 against 3,706; 4,105 with custom plans forced; docs/benchmarks.md, "Job board filters").
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
    createdAt: tasks.createdAt,
    userId: tasks.userId,
    providerId: tasks.providerId,
    paymentDeadline: tasks.paymentDeadline,
    paymentCapturedAt: tasks.paymentCapturedAt,
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

/** The board's SQL with its values, as the app runs it (bench:load hands it to pgbench, with no app around it). */
export function openTasksSql(ctx: Pick<AppContext, "db" | "now">, query: OpenTasksInput): { sql: string; params: unknown[] } {
  const request = boardRequest(query);
  const statement = boardStatementFor(ctx.db, request);
  return { sql: statement.sql, params: statement.values(boardValues(request, ctx.now())) };
}

/**
 * The job board: open tasks only, public view, newest first unless another sort is asked; with the
 * snapshot the statement read (null for an empty page).
 */
export async function listOpenTasks(ctx: AppContext, query: OpenTasksInput): Promise<{ cards: BoardTask[]; snapshot: string | null }> {
  const request = boardRequest(query);
  const rows = await boardStatementFor(ctx.db, request).rows(ctx.db, boardValues(request, ctx.now()));
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

export async function listPostedBy(ctx: AppContext, userId: string): Promise<TaskPrivate[]> {
  const rows = await ctx.db.select().from(tasks).where(eq(tasks.userId, userId)).orderBy(desc(tasks.createdAt), desc(tasks.id)).limit(500);
  return privateViews(ctx.db, rows);
}

export async function listAssignedTo(ctx: AppContext, providerId: string): Promise<TaskPrivate[]> {
  const rows = await ctx.db.select().from(tasks).where(eq(tasks.providerId, providerId)).orderBy(desc(tasks.createdAt), desc(tasks.id)).limit(500);
  return privateViews(ctx.db, rows);
}

/** A provider card's record: the tasks they completed (docs/product.md, "People you can see"). */
function completedTasksSql(providerId: SQL): SQL<number> {
  return sql<number>`(select count(*)::int from tasks c where c.provider_id = ${providerId} and c.status = 'completed')`;
}

const poster = alias(users, "poster");
const provider = alias(users, "provider");

/**
 * The task page in one statement: the task, its photos' ids and descriptions in seq order, and its
 * poster's and provider's cards (docs/product.md, "People you can see"), without drizzle's row
 * mapping. It was three round trips (task, photos, parties), then two; the page is 15% of bench:load.
 */
const taskDetailStatement = new RowStatement(
  "task_detail",
  {
    ...TASK_COLUMNS,
    photos: sql<TaskPhotoRow[]>`coalesce((select json_agg(json_build_object('id', tp.id, 'alt', tp.alt) order by tp.seq)
      from task_photos tp where tp.task_id = ${tasks.id}), '[]'::json)`,
    posterFirstName: poster.firstName,
    posterLastName: poster.lastName,
    posterPhotoUrl: publicPhotoSql(sql`${poster.id}`, sql`${poster.profileImageUrl}`),
    posterRating: averageRatingSql(poster.ratingSum, poster.ratingCount),
    posterReviewCount: poster.ratingCount,
    // Null without a provider (the left join).
    providerFirstName: sql<string | null>`${provider.firstName}`,
    providerLastName: sql<string | null>`${provider.lastName}`,
    providerPhotoUrl: publicPhotoSql(sql`${provider.id}`, sql`${provider.profileImageUrl}`),
    providerRating: averageRatingSql(provider.ratingSum, provider.ratingCount),
    providerReviewCount: sql<number | null>`${provider.ratingCount}`,
    providerCompletedTasks: sql<number | null>`${completedTasksSql(sql`${provider.id}`)}`,
  },
  sql`from ${tasks}
    join ${users} ${poster} on ${poster.id} = ${tasks.userId}
    left join ${users} ${provider} on ${provider.id} = ${tasks.providerId}
    where ${tasks.id} = ${sql.placeholder("id")}
    limit 1`,
);

/** Addresses for the poster, the assigned provider and admins; city, state and 0.01° for everyone else. */
export async function getTaskDetail(ctx: AppContext, id: string, viewer: SessionUser | null): Promise<TaskDetail> {
  const [found] = await taskDetailStatement.rows(ctx.db, { id });
  if (!found) throw notFound("Task not found");
  const {
    photos: photoRows,
    posterFirstName,
    posterLastName,
    posterPhotoUrl,
    posterRating,
    posterReviewCount,
    providerFirstName,
    providerLastName,
    providerPhotoUrl,
    providerRating,
    providerReviewCount,
    providerCompletedTasks,
    ...row
  } = found;
  const parties = new Map<string, PartyRow>([
    // The poster's completed tasks are not on any card.
    [row.userId, { id: row.userId, firstName: posterFirstName, lastName: posterLastName, photoUrl: posterPhotoUrl, rating: toRating(posterRating), reviewCount: posterReviewCount, completedTasks: 0 }],
  ]);
  if (row.providerId) {
    parties.set(row.providerId, {
      id: row.providerId,
      firstName: providerFirstName ?? "",
      lastName: providerLastName ?? "",
      photoUrl: providerPhotoUrl,
      rating: toRating(providerRating),
      reviewCount: providerReviewCount ?? 0,
      completedTasks: providerCompletedTasks ?? 0,
    });
  }
  const insider = viewer !== null && (viewer.id === row.userId || viewer.id === row.providerId || viewer.role === "admin");
  // Everyone who can see the task sees its photos (docs/product.md#task-photos).
  const photos = toTaskPhotos(photoRows, row.title);
  return insider ? { ...toPrivateView(row, parties), visibility: "private", photos } : { ...toPublicView(publicFields(row), parties), visibility: "public", photos };
}

/** The task after a transition, as the actor sees it (always an insider of the task). */
export async function privateView(ctx: AppContext, row: TaskRow): Promise<TaskPrivate> {
  const [view] = await privateViews(ctx.db, [row]);
  if (!view) throw new Error("task view missing");
  return view;
}

// ---------------------------------------------------------------------------------------------
// Rows become API answers here and nowhere else: integer cents turn into dollars
// (docs/decisions/004-money-in-the-api.md) and the public view is built field by field, so a
// street address can only reach a stranger if someone adds it to this file on purpose.

/** A poster or provider as loaded: the full name stays on the server unless the viewer is an insider. */
interface PartyRow {
  id: string;
  firstName: string;
  lastName: string;
  photoUrl: string | null;
  rating: number | null;
  reviewCount: number;
  /** Tasks completed as provider: the record the poster weighs before paying. */
  completedTasks: number;
}

const partyColumns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  photoUrl: publicPhotoSql(sql`${users.id}`, sql`${users.profileImageUrl}`),
  // Two columns of the users row, kept by the trigger on reviews (docs/decisions/037-ratings-on-the-user-row.md).
  rating: averageRatingSql(users.ratingSum, users.ratingCount),
  reviewCount: users.ratingCount,
  // Written out in full: inside the subquery an unqualified "id" would be the task's own id.
  completedTasks: completedTasksSql(sql`"users"."id"`),
};

/**
 * A task's poster and provider (the same id twice when there is no provider): the task page and
 * every transition's answer. Built once per database and prepared once per connection by name, and
 * with exactly two values PostgreSQL settles on one generic plan after five runs and stops planning
 * it (0.01 ms instead of 0.15 ms a run at 100k tasks); with the array below it keeps planning each
 * run for its length.
 */
const partyPairStatement = (db: Db) =>
  preparedOnce(db, "task_party_pair", () =>
    db
      .select(partyColumns)
      .from(users)
      .where(sql`${users.id} in (${sql.placeholder("a")}::uuid, ${sql.placeholder("b")}::uuid)`)
      .prepare("task_party_pair"),
  );

/** The parties of many tasks at once (the dashboards' lists). */
const partiesStatement = (db: Db) =>
  preparedOnce(db, "task_parties", () =>
    db
      .select(partyColumns)
      .from(users)
      .where(sql`${users.id} = any(${sql.placeholder("ids")}::uuid[])`)
      .prepare("task_parties"),
  );

/** Poster and provider cards with their rating (revealed reviews only) and record, in one query. */
async function loadParties(db: Db, ids: readonly string[]): Promise<Map<string, PartyRow>> {
  const unique = [...new Set(ids)];
  const [a, b] = unique;
  if (a === undefined) return new Map();
  const rows = unique.length <= 2 ? await partyPairStatement(db).execute({ a, b: b ?? a }) : await partiesStatement(db).execute({ ids: unique });
  return new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        firstName: r.firstName,
        lastName: r.lastName,
        photoUrl: r.photoUrl,
        rating: toRating(r.rating),
        reviewCount: Number(r.reviewCount),
        completedTasks: Number(r.completedTasks),
      },
    ]),
  );
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function partyRow(parties: Map<string, PartyRow>, id: string): PartyRow {
  const found = parties.get(id);
  // users rows are never deleted while a task references them (foreign key), so this is a bug.
  if (!found) throw new Error(`user ${id} of a task was not loaded`);
  return found;
}

/** What strangers see of a party: display name only (docs/product.md, "People you can see"). */
function party(parties: Map<string, PartyRow>, id: string): TaskParty {
  const p = partyRow(parties, id);
  return { id: p.id, displayName: displayName(p), photoUrl: p.photoUrl, rating: p.rating, reviewCount: p.reviewCount };
}

/** What the task's insiders (poster, assigned provider, admins) see: the full name as well. */
function insiderParty(parties: Map<string, PartyRow>, id: string): TaskInsiderParty {
  return { ...party(parties, id), ...fullName(parties, id) };
}

function fullName(parties: Map<string, PartyRow>, id: string): { firstName: string; lastName: string } {
  const p = partyRow(parties, id);
  return { firstName: p.firstName, lastName: p.lastName };
}

/**
 * The assigned provider as anyone sees them: display name, photo, record (docs/product.md, "The
 * poster sees who claimed"); insiders get the full name as well.
 */
function providerCard(parties: Map<string, PartyRow>, id: string): TaskProviderCard {
  const p = partyRow(parties, id);
  return {
    id: p.id,
    displayName: displayName(p),
    profilePhotoUrl: p.photoUrl,
    rating: p.rating,
    reviewCount: p.reviewCount,
    completedTasks: p.completedTasks,
  };
}

function toPublicView(row: PublicTaskRow, parties: Map<string, PartyRow>, distanceMiles: number | null = null): TaskPublic {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    category: row.category as Category,
    urgency: row.urgency,
    budget: centsToDollars(row.budgetCents),
    urgentFee: centsToDollars(row.urgentFeeCents),
    serviceFee: centsToDollars(row.serviceFeeCents),
    totalAmount: centsToDollars(row.totalCents),
    scheduledDate: iso(row.scheduledDate),
    city: row.city,
    state: row.state,
    startCity: row.startCity,
    startState: row.startState,
    endCity: row.endCity,
    endState: row.endState,
    stopCount: row.stopCount,
    isRoute: row.isRoute,
    approxLat: row.approxLat,
    approxLon: row.approxLon,
    distanceMiles: distanceMiles === null ? null : Math.round(distanceMiles * 10) / 10,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    userId: row.userId,
    providerId: row.providerId,
    paymentDeadline: iso(row.paymentDeadline),
    paymentCapturedAt: iso(row.paymentCapturedAt),
    poster: party(parties, row.userId),
    provider: row.providerId ? providerCard(parties, row.providerId) : null,
  };
}

function toPrivateView(row: TaskRow, parties: Map<string, PartyRow>): TaskPrivate {
  return {
    ...toPublicView(publicFields(row), parties),
    poster: insiderParty(parties, row.userId),
    provider: row.providerId ? { ...providerCard(parties, row.providerId), ...fullName(parties, row.providerId) } : null,
    location: row.location,
    startLocation: row.startLocation,
    endLocation: row.endLocation,
    stops: row.stops && row.stops.length > 0 ? row.stops.map(({ address, city, state, notes }) => ({ address, city, state, notes })) : null,
    lat: row.lat,
    lon: row.lon,
    startLat: row.startLat,
    startLon: row.startLon,
    endLat: row.endLat,
    endLon: row.endLon,
  };
}

/** Parties of many rows at once, then each row's view. */
async function privateViews(db: Db, rows: TaskRow[]): Promise<TaskPrivate[]> {
  const parties = await loadParties(db, rows.flatMap((r) => (r.providerId ? [r.userId, r.providerId] : [r.userId])));
  return rows.map((r) => toPrivateView(r, parties));
}


// ---------------------------------------------------------------------------------------------
// Transitions: each row of TASK_TRANSITIONS as ONE conditional UPDATE whose WHERE holds the `from`
// states, the actor and the named conditions, and whose SET holds `to` and the named effects. Two
// providers claiming at once therefore cannot both win: the second UPDATE finds status <> 'open'
// and returns nothing.

/** The values a transition's UPDATE sets: column -> SQL (placeholders, or a constant of the table). */
type SetValues = Partial<Record<keyof typeof tasks.$inferInsert, SQL>>;

const p = sql.placeholder;

/** SQL meaning of each named condition, with the instant as the "now" placeholder; the Record makes a new condition fail type checking here. */
const CONDITION_SQL: Record<TaskCondition, SQL | undefined> = {
  paid: isNotNull(tasks.paymentCapturedAt),
  unpaid: isNull(tasks.paymentCapturedAt),
  deadline_passed: and(isNotNull(tasks.paymentDeadline), sql`${tasks.paymentDeadline} <= ${p("now")}::timestamptz`),
  deadline_not_passed: or(isNull(tasks.paymentDeadline), sql`${tasks.paymentDeadline} > ${p("now")}::timestamptz`),
};

/** What each effect sets, from the placeholders actorId (the person), now and deadline (the payment window's end). */
function effectValues(effect: TaskEffect, actor: TransitionActorInput): SetValues {
  switch (effect) {
    case "assign_provider":
      if (actor.kind !== "person") throw new Error("Only a person can be assigned as provider");
      return { providerId: sql`${p("actorId")}::uuid` };
    case "start_payment_window":
      return { paymentDeadline: sql`${p("deadline")}::timestamptz` };
    case "record_payment":
      return { paymentCapturedAt: sql`${p("now")}::timestamptz` };
    case "release_provider":
      return { providerId: sql`null`, paymentDeadline: sql`null` };
  }
}

/** When each transition happened, for the dashboard and audits. */
const STAMPS: Partial<Record<TaskTransitionName, keyof SetValues>> = {
  claim: "claimedAt",
  start: "startedAt",
  complete: "completedAt",
  cancel: "cancelledAt",
};

/** The table's actor kinds as SQL over the task row, the person as the actorId placeholder; system actors are matched by name. */
function actorPredicate(kind: TransitionActor, actor: TransitionActorInput): SQL | undefined {
  if (actor.kind === "system") return kind === actor.actor ? undefined : sql`false`;
  const id = sql`${p("actorId")}::uuid`;
  switch (kind) {
    case "verified_provider":
      return and(
        sql`${tasks.userId} <> ${id}`,
        sql`exists (select 1 from provider_profiles pp where pp.user_id = ${id} and pp.verification_status = 'approved')`,
      );
    case "assigned_provider":
      return sql`${tasks.providerId} = ${id}`;
    case "poster":
      return sql`${tasks.userId} = ${id}`;
    case "timer":
    case "payment_system":
      return sql`false`;
  }
}

/**
 * A transition's conditional UPDATE for one kind of actor (a person, or a system actor by name),
 * written once from the lifecycle table and then only executed: drizzle built it on every
 * transition (docs/decisions/039-hot-statements-written-once.md).
 */
function transitionStatement(name: TaskTransitionName, actor: TransitionActorInput) {
  const key = `${name}_${actor.kind === "system" ? actor.actor : "person"}`;
  const made = transitionStatements.get(key);
  if (made) return made;
  const transition = findTransition(name);
  let values: SetValues = { status: sql`${transition.to}::task_status`, updatedAt: sql`${p("now")}::timestamptz` };
  for (const effect of transition.effects) values = { ...values, ...effectValues(effect, actor) };
  const stamp = STAMPS[name];
  if (stamp) values = { ...values, [stamp]: sql`${p("now")}::timestamptz` };
  const where = and(
    sql`${tasks.id} = ${p("taskId")}::uuid`,
    inArray(tasks.status, [...transition.from]),
    actorPredicate(transition.actor, actor),
    ...transition.requires.map((r) => CONDITION_SQL[r.condition]),
  );
  const set = sql.join(
    Object.entries(values).map(([column, value]) => sql`${sql.identifier(toSnakeCase(column))} = ${value}`),
    sql`, `,
  );
  const statement = new RowStatement(`task_${key}`, TASK_COLUMNS, (returning) => sql`update ${tasks} set ${set} where ${where} returning ${returning}`);
  transitionStatements.set(key, statement);
  return statement;
}

/** The same for every database (the text has no database in it): one per transition and kind of actor, per process. */
const transitionStatements = new Map<string, RowStatement<typeof TASK_COLUMNS>>();

/**
 * The conditional UPDATE of transition `name`, in `tx`: the moved row, or null when the WHERE did
 * not match (wrong actor, state or condition, or a race lost).
 */
export async function updateByTransition(
  ctx: AppContext,
  name: TaskTransitionName,
  taskId: string,
  actor: TransitionActorInput,
  now: Date,
  tx: Db = ctx.db,
): Promise<TaskRow | null> {
  const [row] = await transitionStatement(name, actor).rows(tx, {
    taskId,
    now: now.toISOString(),
    actorId: actor.kind === "person" ? actor.user.id : null,
    deadline: new Date(now.getTime() + ctx.env.PAYMENT_WINDOW_MINUTES * 60_000).toISOString(),
  });
  return row ?? null;
}

/** Takes the provider's claim lock for this transaction and counts their claimed, unpaid tasks. */
export async function lockAndCountUnpaidClaims(ctx: AppContext, providerId: string, tx: Db = ctx.db): Promise<number> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`claims:${providerId}`}))`);
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(tasks)
    .where(and(eq(tasks.providerId, providerId), eq(tasks.status, "claimed"), isNull(tasks.paymentCapturedAt)));
  return row?.n ?? 0;
}

export async function findTask(ctx: AppContext, taskId: string, tx: Db = ctx.db): Promise<TaskRow | null> {
  const [task] = await tx.select().from(tasks).where(eq(tasks.id, taskId)).limit(1);
  return task ?? null;
}

/** The person as the lifecycle table sees them: their approved verification decides claiming. */
export async function taskViewer(ctx: AppContext, user: SessionUser): Promise<TaskViewer> {
  const [profile] = await ctx.db
    .select({ status: providerProfiles.verificationStatus })
    .from(providerProfiles)
    .where(eq(providerProfiles.userId, user.id))
    .limit(1);
  return { id: user.id, role: user.role, isAdmin: user.role === "admin", providerVerified: profile?.status === "approved" };
}

/** Claimed, unpaid tasks whose payment deadline has passed, oldest first (the partial index serves it). */
export async function dueUnpaidClaims(ctx: AppContext, now: Date, batch: number): Promise<string[]> {
  const due = await ctx.db
    .select({ id: tasks.id })
    .from(tasks)
    .where(and(eq(tasks.status, "claimed"), isNull(tasks.paymentCapturedAt), lte(tasks.paymentDeadline, now)))
    .orderBy(tasks.paymentDeadline)
    .limit(batch);
  return due.map((row) => row.id);
}

/** Locks the task row for this transaction and answers its provider (null when none or no task). */
export async function lockProviderOf(taskId: string, tx: Db): Promise<string | null> {
  const [row] = await tx.select({ providerId: tasks.providerId }).from(tasks).where(eq(tasks.id, taskId)).for("update");
  return row?.providerId ?? null;
}

/** Remembers that the poster declined this provider for this task (docs/decisions/024-declining-a-provider.md). */
export async function recordDeclinedProvider(taskId: string, providerId: string, now: Date, tx: Db): Promise<void> {
  await tx.insert(taskDeclinedProviders).values({ taskId, providerId, declinedAt: now }).onConflictDoNothing();
}

/** More open tasks than anyone is declined on; the bound keeps the answer small whatever happens. */
const DECLINED_TASKS_LISTED = 500;

/** The open tasks whose poster declined this provider: their job board leaves them out (decision 024). */
export async function declinedOpenTasks(db: Db, providerId: string): Promise<string[]> {
  const rows = await db
    .select({ taskId: taskDeclinedProviders.taskId })
    .from(taskDeclinedProviders)
    .innerJoin(tasks, eq(tasks.id, taskDeclinedProviders.taskId))
    .where(and(eq(taskDeclinedProviders.providerId, providerId), eq(tasks.status, "open")))
    .orderBy(desc(taskDeclinedProviders.declinedAt))
    .limit(DECLINED_TASKS_LISTED);
  return rows.map((row) => row.taskId);
}

export async function wasDeclined(taskId: string, providerId: string, tx: Db): Promise<boolean> {
  const [row] = await tx
    .select({ taskId: taskDeclinedProviders.taskId })
    .from(taskDeclinedProviders)
    .where(and(eq(taskDeclinedProviders.taskId, taskId), eq(taskDeclinedProviders.providerId, providerId)))
    .limit(1);
  return row !== undefined;
}
