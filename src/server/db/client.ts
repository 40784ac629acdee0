import type { SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { MIGRATIONS_DIR } from "../paths.js";

// One driver, node-postgres, on every database: the embedded server (db/embedded-postgres.ts) or
// DATABASE_URL (docs/decisions/017-one-database-driver.md).

export type Db = PgDatabase<PgQueryResultHKT>;

/** Runs raw SQL and returns its rows. */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** A unique violation anywhere in the cause chain (drizzle wraps the driver's error). */
export function isUniqueViolation(error: unknown): boolean {
  return hasErrorCode(error, "23505");
}

/** An exclusion constraint's refusal (two of a provider's booked ranges overlapping: docs/decisions/074). */
export function isExclusionViolation(error: unknown): boolean {
  return hasErrorCode(error, "23P01");
}

function hasErrorCode(error: unknown, code: string): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth += 1) {
    if ((current as { code?: unknown }).code === code) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

export type NotifyListener = (payload: string) => void;

export interface Database {
  db: Db;
  /** Subscribes to a LISTEN/NOTIFY channel; returns the unsubscribe function. */
  listen(channel: string, listener: NotifyListener): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  /**
   * Calls `callback` each time the LISTEN connection is back after it was lost (the database
   * restarted, say): every notification sent in between was missed and nobody will resend it.
   */
  onListenerRestored(callback: () => void): void;
  ping(): Promise<void>;
  /** The pool's connections now: open, idle among them, and queries waiting for one (for /metrics). */
  poolUse(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

function assertChannel(channel: string): void {
  // LISTEN takes an identifier, not a parameter; only our own fixed names are allowed.
  if (!CHANNEL.test(channel)) throw new Error(`Invalid channel name: ${channel}`);
}

export interface OpenOptions {
  databaseUrl: string;
  poolSize?: number;
  /**
   * "transaction": databaseUrl is a pooler in transaction mode, so no statement is prepared under a
   * name (docs/decisions/051-pooler-and-topology.md).
   */
  poolMode?: "session" | "transaction";
  /** A direct connection for LISTEN, which needs a session of its own; default databaseUrl. */
  listenUrl?: string;
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  return openPostgres(options);
}

/**
 * A client that sends every statement unnamed. A named prepared statement lives in one server
 * session; behind PgBouncer 1.18 in transaction mode the next query may run on another session
 * that lacks it, or on one where another client already made it, and requests failed with
 * `prepared statement "session_by_token" already exists` (docs/decisions/051-pooler-and-topology.md). Both the statements of
 * db/prepared.ts and drizzle's `.prepare(name)` pass their name here, so this is the one place
 * that drops it. A query object of its own (a Submittable) carries no name and goes as it is.
 */
class UnnamedStatementsClient extends pg.Client {
  override query(...args: unknown[]): never {
    const [config, ...rest] = args;
    const unnamed = config && typeof config === "object" && "name" in config && !("submit" in config) ? { ...config, name: undefined } : config;
    return (pg.Client.prototype.query as (...a: unknown[]) => never).call(this, unnamed, ...rest);
  }
}

async function openPostgres(options: OpenOptions): Promise<Database> {
  const url = options.databaseUrl;
  const listenUrl = options.listenUrl ?? url;
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 5_000,
    // Connections are kept however long they idle (pg-pool's default closes them after 10 s): a new
    // one costs a fork, a SCRAM login and five custom plans of every hot statement before
    // PostgreSQL settles on a generic plan, and any lull of 10 s paid that again
    // (docs/decisions/075-connections-and-plans-kept.md).
    idleTimeoutMillis: 0,
    ...(options.poolMode === "transaction" ? { Client: UnnamedStatementsClient } : {}),
  });
  // An idle client that dies with the server must not crash the process; the next query reconnects.
  pool.on("error", () => undefined);
  // The pool listens for errors only on idle clients. A client checked out for a transaction when
  // the server goes away emits "error" with no listener, which throws and kills the process (seen
  // in test/faults/database-outage.faults.ts). Its queries still fail (503) and the pool drops it
  // on release, so swallowing the event here loses nothing.
  pool.on("connect", (client) => client.on("error", () => undefined));
  const db = drizzle({ client: pool, casing: "snake_case" }) as unknown as Db;

  // LISTEN needs one long-lived connection; it is reopened with backoff when the server goes away.
  const listeners = new Map<string, Set<NotifyListener>>();
  const restoredCallbacks = new Set<() => void>();
  let listenClient: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;
  let closed = false;
  let lost = false;

  async function connectListener(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: listenUrl });
    client.on("error", () => {
      // Only the live client's loss matters; a half-opened one is ended by the catch below.
      if (listenClient === client) listenClient = null;
      lost = true;
      void client.end().catch(() => undefined);
      scheduleReconnect(250);
    });
    client.on("notification", (msg) => {
      for (const l of listeners.get(msg.channel) ?? []) l(msg.payload ?? "");
    });
    try {
      await client.connect();
      for (const channel of listeners.keys()) await client.query(`LISTEN ${channel}`);
    } catch (err) {
      // Not ended, a client that connected but failed to LISTEN would linger beside the next one.
      await client.end().catch(() => undefined);
      throw err;
    }
    listenClient = client;
    if (lost) {
      lost = false;
      for (const callback of restoredCallbacks) callback();
    }
    return client;
  }

  /** One connection attempt at a time, whoever asks: two live clients would deliver every notification twice. */
  function connectOnce(): Promise<pg.Client> {
    connecting ??= connectListener().finally(() => {
      connecting = null;
    });
    return connecting;
  }

  let reconnectTimer: NodeJS.Timeout | null = null;
  function scheduleReconnect(delay: number): void {
    if (closed || reconnectTimer) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      if (closed || listenClient) return;
      connectOnce().catch(() => scheduleReconnect(Math.min(delay * 2, 5_000)));
    }, delay);
    reconnectTimer.unref();
  }

  async function ensureListener(): Promise<pg.Client> {
    return listenClient ?? connectOnce();
  }

  /**
   * LISTEN and UNLISTEN on the one listening connection, one at a time: node-postgres deprecates
   * (and its next major refuses) a query on a client that is still running another.
   */
  let listenQueue: Promise<unknown> = Promise.resolve();
  const onListener = (client: pg.Client, statement: string): Promise<void> => {
    const next = listenQueue.then(() => client.query(statement)).then(() => undefined);
    listenQueue = next.catch(() => undefined);
    return next;
  };

  return {
    db,
    async listen(channel, listener) {
      assertChannel(channel);
      let set = listeners.get(channel);
      const first = !set;
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
      }
      set.add(listener);
      const client = await ensureListener();
      if (first) await onListener(client, `LISTEN ${channel}`);
      return async () => {
        set.delete(listener);
        if (set.size === 0) {
          listeners.delete(channel);
          if (listenClient) await onListener(listenClient, `UNLISTEN ${channel}`).catch(() => undefined);
        }
      };
    },
    async notify(channel, payload) {
      assertChannel(channel);
      await pool.query("select pg_notify($1, $2)", [channel, payload]);
    },
    onListenerRestored(callback) {
      restoredCallbacks.add(callback);
    },
    async ping() {
      await pool.query("select 1");
    },
    poolUse() {
      return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
    },
    async close() {
      closed = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      await listenClient?.end().catch(() => undefined);
      await pool.end();
    },
  };
}

/** Any fixed 64-bit key; every instance of every version takes the same one. */
const MIGRATION_LOCK = 0x6572_7261_6e64_6c79n; // "errandly"

/**
 * Applies the committed migrations (drizzle/) on one connection that holds a session advisory lock,
 * so instances starting at the same moment run them one after the other: the first applies them,
 * the rest find nothing left to do (docs/decisions/018-migrations-under-a-lock.md). The lock lives
 * in the session, so `databaseUrl` must be a direct connection, not a transaction pooler
 * (main.ts passes DATABASE_LISTEN_URL; docs/decisions/051-pooler-and-topology.md). Another
 * checkout's `migrationsFolder` seeds a benchmark's database at an older build's schema (bench/builds.ts).
 */
export async function migrateDatabase(databaseUrl: string, migrationsFolder: string = MIGRATIONS_DIR): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK.toString()]);
    await migrate(drizzle({ client, casing: "snake_case" }), { migrationsFolder });
  } finally {
    // Ending the session releases the lock even if the unlock is never sent.
    await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK.toString()]).catch(() => undefined);
    await client.end();
  }
}
