import { and, asc, desc, eq, fillPlaceholders, getTableColumns, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { z } from "zod";
import { dollarsToCents, priceTask } from "../../../shared/money.js";
import type { createTaskBodySchema, openTasksQuerySchema, TaskDetail, TaskPrivate, TaskPublic } from "../../../shared/tasks.js";
import type { Db } from "../../db/client.js";
import { BLIND_MS, revealedBy } from "../../db/review-visibility.js";
import { tasks, type StoredStop } from "../../db/schema/tasks.js";
import { users } from "../../db/schema/users.js";
import { badRequest, notFound } from "../../http-errors.js";
import type { SessionUser } from "./task-transitions.js";
import { loadParties, privateViews, toPrivateView, toPublicView, type TaskParty } from "./task-views.js";

export type CreateTaskInput = z.output<typeof createTaskBodySchema>;
export type OpenTasksInput = z.output<typeof openTasksQuerySchema>;

const HOUR_MS = 3_600_000;
/** The coarse position strangers see: 0.01 degree, about a kilometre. */
const approx = (v: number | null | undefined) => (v === null || v === undefined ? null : Math.round(v * 100) / 100);

/**
 * "Date needed cannot be before today" (spec §5). The server does not know the poster's time
 * zone, so "today" starts at the earliest local midnight still on today's UTC date anywhere we
 * serve: 00:00 UTC minus 12 hours (UTC-12). A date a few hours into yesterday is tolerated for
 * far-east posters; anything older is refused.
 */
export function assertNotInThePast(scheduledDate: string | null | undefined, now: Date): Date | null {
  if (!scheduledDate) return null;
  const when = new Date(scheduledDate);
  const startOfUtcDay = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  if (when.getTime() < startOfUtcDay - 12 * HOUR_MS) throw badRequest("scheduledDate: Date needed cannot be before today");
  return when;
}

/** Stores the task with server-computed fees; a provider who posts becomes "both". */
export async function createTask(db: Db, user: SessionUser, body: CreateTaskInput, now: Date): Promise<TaskPrivate> {
  const scheduledDate = assertNotInThePast(body.scheduledDate, now);
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
  const firstLat = isRoute ? body.startLat : body.lat;
  const firstLon = isRoute ? body.startLon : body.lon;
  const hasPosition = firstLat !== null && firstLat !== undefined && firstLon !== null && firstLon !== undefined;

  const row = await db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(tasks)
      .values({
        userId: user.id,
        title: body.title,
        description: body.description,
        category: body.category,
        urgency: body.urgency,
        budgetCents: price.budgetCents,
        urgentFeeCents: price.urgentFeeCents,
        serviceFeeCents: price.serviceFeeCents,
        totalCents: price.totalCents,
        scheduledDate,
        ...place,
        stops,
        approxLat: hasPosition ? approx(firstLat) : null,
        approxLon: hasPosition ? approx(firstLon) : null,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!inserted) throw new Error("task insert returned no row");
    await tx.update(users).set({ role: "both", updatedAt: now }).where(and(eq(users.id, user.id), eq(users.role, "provider")));
    return inserted;
  });
  const [view] = await privateViews(db, [row], now);
  if (!view) throw new Error("task view missing");
  return view;
}

/** ILIKE pattern for user text: %, _ and the escape character itself match literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const EARTH_RADIUS_MILES = 3958.8;

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

const TASK_COLUMNS = getTableColumns(tasks);
type TaskColumn = keyof typeof TASK_COLUMNS;

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

/** What decides the text of the board's statement; every value is a placeholder. */
interface BoardShape {
  sort: OpenTasksInput["sort"];
  category: boolean;
  search: boolean;
  point: boolean;
}

const boardShape = (query: OpenTasksInput): BoardShape => ({
  sort: query.sort,
  category: query.category !== undefined,
  search: Boolean(query.search),
  point: query.lat !== undefined && query.lon !== undefined,
});

/**
 * A search point rounded to 1e-6° (about 11 cm, finer than any stored position): a subnormal
 * latitude such as 5e-324 makes PostgreSQL's radians() raise "value out of range: underflow".
 */
const coordinate = (value: number | undefined): number | null => (value === undefined ? null : Math.round(value * 1e6) / 1e6);

/** The placeholders' values; those a shape does not use are ignored. */
const boardValues = (query: OpenTasksInput, now: Date) => ({
  category: query.category ?? null,
  pattern: query.search ? containsPattern(query.search) : null,
  lat: coordinate(query.lat),
  lon: coordinate(query.lon),
  limit: query.pageSize,
  offset: (query.page - 1) * query.pageSize,
  revealedBefore: new Date(now.getTime() - BLIND_MS).toISOString(),
});

/**
 * The job board's page in ONE statement: the page of open tasks (a derived table, so LIMIT and
 * OFFSET apply before anything else), each poster's name, and their review average and count
 * (blind reviews excluded) through a lateral join computed for the page's rows only.
 */
function boardQuery(db: Db, shape: BoardShape) {
  const p = sql.placeholder;
  const conditions: SQL[] = [eq(tasks.status, "open")];
  if (shape.category) conditions.push(eq(tasks.category, p("category")));
  // Same expression as tasks_search_trgm_idx, so the trigram index serves it.
  if (shape.search) conditions.push(sql`(${tasks.title} || ' ' || ${tasks.description}) ilike ${p("pattern")}`);
  const distance = shape.point ? distanceSql(p("lat"), p("lon")) : sql<number | null>`null::float8`;
  const page = db
    .select({ ...TASK_COLUMNS, distance: distance.as("distance") })
    .from(tasks)
    .where(and(...conditions))
    .orderBy(...boardOrder(shape.sort, { budgetCents: tasks.budgetCents, createdAt: tasks.createdAt, id: tasks.id, distance }))
    .limit(p("limit"))
    .offset(p("offset"))
    .as("page");
  // The same rule as every other poster card (task-views.ts loadParties): revealed reviews only.
  const card = db
    .select({
      rating: sql<string | null>`round(avg(r.rating)::numeric, 1)`.as("rating"),
      reviewCount: sql<number>`count(*)::int`.as("review_count"),
    })
    .from(sql`reviews r join tasks t on t.id = r.task_id`)
    .where(sql`r.reviewed_id = ${page.userId} and ${revealedBy(sql`${p("revealedBefore")}`)}`)
    .as("card");
  // Drizzle cannot select a derived table as one nested object: list its task columns one by one.
  const pageTask = Object.fromEntries((Object.keys(TASK_COLUMNS) as TaskColumn[]).map((k) => [k, page[k]])) as {
    [K in TaskColumn]: (typeof page)[K];
  };
  return db
    .select({
      task: pageTask,
      distance: page.distance,
      poster: { id: users.id, firstName: users.firstName, lastName: users.lastName, profileImageUrl: users.profileImageUrl },
      rating: card.rating,
      reviewCount: card.reviewCount,
    })
    .from(page)
    .innerJoin(users, eq(users.id, page.userId))
    .leftJoinLateral(card, sql`true`)
    .orderBy(...boardOrder(shape.sort, { budgetCents: page.budgetCents, createdAt: page.createdAt, id: page.id, distance: page.distance }));
}

type BoardStatement = ReturnType<ReturnType<typeof boardQuery>["prepare"]>;

/**
 * Building this statement with drizzle costs more CPU than running it (bench:load, docs/benchmarks.md),
 * so each shape is built once per database and then only executed. The name makes node-postgres
 * prepare it once per connection; PostgreSQL still plans each execution for its values, because a
 * generic plan for an unknown LIMIT costs more than the custom ones.
 */
const boardStatements = new WeakMap<Db, Map<string, BoardStatement>>();

function boardStatement(db: Db, shape: BoardShape): BoardStatement {
  let statements = boardStatements.get(db);
  if (!statements) {
    statements = new Map();
    boardStatements.set(db, statements);
  }
  const name = `tasks_open_${shape.sort}_${Number(shape.category)}${Number(shape.search)}${Number(shape.point)}`;
  let statement = statements.get(name);
  if (!statement) {
    statement = boardQuery(db, shape).prepare(name);
    statements.set(name, statement);
  }
  return statement;
}

/** The board's SQL with its values, as the app runs it (bench:load hands it to pgbench). */
export function openTasksSql(db: Db, query: OpenTasksInput, now: Date): { sql: string; params: unknown[] } {
  const built = boardQuery(db, boardShape(query)).toSQL();
  return { sql: built.sql, params: fillPlaceholders(built.params, boardValues(query, now)) };
}

/** The job board: open tasks only, public view, newest first unless another sort is asked. */
export async function listOpenTasks(db: Db, query: OpenTasksInput, now: Date): Promise<TaskPublic[]> {
  const rows = await boardStatement(db, boardShape(query)).execute(boardValues(query, now));
  const parties = new Map<string, TaskParty>(
    rows.map((r) => [r.poster.id, { ...r.poster, rating: r.rating === null ? null : Number(r.rating), reviewCount: Number(r.reviewCount) }]),
  );
  return rows.map((r) => toPublicView(r.task, parties, r.distance === null ? null : Number(r.distance)));
}

export async function listPostedBy(db: Db, userId: string, now: Date): Promise<TaskPrivate[]> {
  const rows = await db.select().from(tasks).where(eq(tasks.userId, userId)).orderBy(desc(tasks.createdAt), desc(tasks.id)).limit(500);
  return privateViews(db, rows, now);
}

export async function listAssignedTo(db: Db, providerId: string, now: Date): Promise<TaskPrivate[]> {
  const rows = await db.select().from(tasks).where(eq(tasks.providerId, providerId)).orderBy(desc(tasks.createdAt), desc(tasks.id)).limit(500);
  return privateViews(db, rows, now);
}

/** Addresses for the poster, the assigned provider and admins; city, state and 0.01° for everyone else. */
export async function getTaskDetail(db: Db, id: string, viewer: SessionUser | null, now: Date): Promise<TaskDetail> {
  const [row] = await db.select().from(tasks).where(eq(tasks.id, id)).limit(1);
  if (!row) throw notFound("Task not found");
  const parties = await loadParties(db, row.providerId ? [row.userId, row.providerId] : [row.userId], now);
  const insider = viewer !== null && (viewer.id === row.userId || viewer.id === row.providerId || viewer.role === "admin");
  return insider ? { ...toPrivateView(row, parties), visibility: "private" } : { ...toPublicView(row, parties), visibility: "public" };
}

/** The task after a transition, as the actor sees it (always an insider of the task). */
export async function privateView(db: Db, row: Parameters<typeof toPrivateView>[0], now: Date): Promise<TaskPrivate> {
  const [view] = await privateViews(db, [row], now);
  if (!view) throw new Error("task view missing");
  return view;
}
