import { fillPlaceholders, sql, type Column, type GetColumnData, type SQL } from "drizzle-orm";
import { toCamelCase } from "drizzle-orm/casing";
import { PgDialect } from "drizzle-orm/pg-core";
import type pg from "pg";
import type { Db } from "./client.js";

// Hot statements are built by drizzle once per database and then only executed: building one
// costs more CPU than running it (docs/benchmarks.md, "Mixed load", profiles of issue 16).

const statements = new WeakMap<Db, Map<string, unknown>>();

/** The statement `build` makes, made once for `db` under `name` (one name, one statement). */
export function preparedOnce<T>(db: Db, name: string, build: () => T): T {
  let byName = statements.get(db);
  if (!byName) {
    byName = new Map();
    statements.set(db, byName);
  }
  if (!byName.has(name)) byName.set(name, build());
  return byName.get(name) as T;
}

/**
 * The columns of a row statement, in select order: table columns (plain types: text, uuid,
 * integer, timestamp as Date, enums, jsonb) or SQL expressions typed with what node-postgres gives.
 */
export type RowColumns = Record<string, Column | SQL<unknown> | SQL.Aliased<unknown>>;
export type RowOf<C extends RowColumns> = {
  [K in keyof C]: C[K] extends Column ? GetColumnData<C[K]> : C[K] extends SQL<infer T> ? T : C[K] extends SQL.Aliased<infer T> ? T : never;
};

const dialect = new PgDialect({ casing: "snake_case" });

/**
 * A statement rendered by drizzle once (its text and its placeholders' slots) and only executed
 * after that, prepared by name on each pooled connection: the two kinds below.
 */
abstract class WrittenOnce {
  private readonly text: string;
  private readonly params: unknown[];

  constructor(
    /** The prepared statement's name, one per text (empty: planned for its values on every run). */
    private readonly name: string,
    query: SQL,
  ) {
    const built = dialect.sqlToQuery(query);
    this.text = built.sql;
    this.params = built.params;
  }

  /** The statement's text, for EXPLAIN and for bench:load's pgbench ceiling. */
  get sql(): string {
    return this.text;
  }

  values(placeholders: Record<string, unknown>): unknown[] {
    return fillPlaceholders(this.params, placeholders);
  }

  protected config(placeholders: Record<string, unknown>): pg.QueryConfig {
    return { text: this.text, values: this.values(placeholders), ...(this.name ? { name: this.name } : {}) };
  }
}

/**
 * A hot read that skips drizzle's row mapping: under bench:load that mapping (an
 * entity check per field of every row) was the largest part of the server's own CPU on the job
 * board and the session lookup (docs/benchmarks.md, "Profiles of issue 16"). The statement is
 * `select <columns> <rest>`, written with drizzle's `sql` (its column references stay typed), and
 * its rows come back as arrays that are zipped with the column names. Values are what node-postgres
 * parses (timestamptz: Date, int4: number, int8 and numeric: string, json: the parsed value).
 */
export class RowStatement<C extends RowColumns> extends WrittenOnce {
  private readonly keys: (keyof C)[];

  constructor(
    name: string,
    /** The selected columns, by the keys of its rows (prepared.test.ts selects them through drizzle too). */
    readonly columns: C,
    /** What follows `select <columns>`; or the whole statement around the column list (an insert's RETURNING). */
    rest: SQL | ((columns: SQL) => SQL),
  ) {
    const list = sql.join(
      Object.values(columns).map((c) => sql`${c}`),
      sql`, `,
    );
    super(name, typeof rest === "function" ? rest(list) : sql`select ${list} ${rest}`);
    this.keys = Object.keys(columns);
  }

  async rows(db: Db, placeholders: Record<string, unknown>): Promise<RowOf<C>[]> {
    const result = await clientOf(db).query({ ...this.config(placeholders), rowMode: "array" });
    return zipRows<RowOf<C>>(this.keys as string[], result.rows);
  }
}

/** R when its keys are camelCase; a row type spelt in snake_case gives rows no caller can read a field of. */
type CamelRow<R> = [Extract<keyof R, `${string}_${string}`>] extends [never] ? R : "SqlStatement rows are keyed in camelCase";

/**
 * A statement of the write paths written once with `sql.placeholder` values: drizzle built each
 * insert, update and raw statement again on every call, the largest part of a post's server CPU
 * (docs/benchmarks.md, "Profiles of issue 16"). It runs on a database handle or inside a
 * transaction; rows come as node-postgres parses them (timestamptz: Date, int8 and numeric:
 * string), keyed in camelCase like every row drizzle gives (`user_id` is `userId`), so a caller
 * never meets the database's spelling.
 */
export class SqlStatement<R extends object = Record<string, unknown>> extends WrittenOnce {
  async rows(db: Db, placeholders: Record<string, unknown>): Promise<CamelRow<R>[]> {
    const result = await clientOf(db).query({ ...this.config(placeholders), rowMode: "array" });
    return zipRows<CamelRow<R>>(
      result.fields.map((f) => camelName(f.name)),
      result.rows,
    );
  }
}

/** Rows that came as arrays, zipped with their keys: the one loop behind both kinds of statement. */
function zipRows<R>(keys: string[], rows: unknown[][]): R[] {
  return rows.map((values) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) row[keys[i] as string] = values[i];
    return row as R;
  });
}

const camelNames = new Map<string, string>();

/** A result column's name in camelCase, worked out once per name (a statement's fields repeat on every run). */
function camelName(column: string): string {
  let name = camelNames.get(column);
  if (name === undefined) {
    name = toCamelCase(column);
    camelNames.set(column, name);
  }
  return name;
}

/**
 * The node-postgres pool behind a database handle, or the connection of a transaction: drizzle's
 * session holds it (the handle's `session.client`, the same for every drizzle node-postgres database).
 */
function clientOf(db: Db): pg.Pool | pg.PoolClient {
  const client = (db as unknown as { session?: { client?: pg.Pool | pg.PoolClient } }).session?.client;
  if (!client) throw new Error("not a node-postgres drizzle database");
  return client;
}
