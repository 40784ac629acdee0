import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";
import { inject } from "vitest";
import { freshDatabase } from "../../../test/postgres-cluster.js";
import { openDatabase, queryRows, type Database } from "./client.js";

// The pool keeps its connections through any lull: a new connection costs a fork, a login and five
// custom plans of each hot statement (docs/decisions/075-connections-and-plans-kept.md).

const template = new URL(inject("postgresTemplate"));
const server = new URL(template);
server.pathname = "/postgres";
const fresh = await freshDatabase(server.toString(), template.pathname.slice(1));
const opened: Database[] = [];
afterAll(async () => {
  for (const database of opened) await database.close();
  await fresh.destroy();
});

const backendPid = async (database: Database) => (await queryRows<{ pid: number }>(database.db, sql`select pg_backend_pid() as pid`))[0]?.pid;

describe("pool connections", () => {
  it("keeps an idle connection, and so its session, however long the pool idles", async () => {
    // pg-pool closes an idle connection on a timer; the fake clock moves an hour without waiting one.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    let database: Database;
    let before: number | undefined;
    try {
      database = await openDatabase({ databaseUrl: fresh.url, poolSize: 1 });
      opened.push(database);
      before = await backendPid(database);
      vi.advanceTimersByTime(60 * 60_000);
      expect(database.poolUse()).toEqual({ total: 1, idle: 1, waiting: 0 });
    } finally {
      vi.useRealTimers();
    }
    expect(await backendPid(database)).toBe(before);
  });
});
