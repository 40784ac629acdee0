import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { freshDatabase } from "../../../test/postgres-cluster.js";
import { openDatabase, queryRows, type Database } from "./client.js";
import { RowStatement, SqlStatement } from "./prepared.js";
import { users } from "./schema/users.js";

// Behind PgBouncer in transaction mode a statement prepared under a name on one server session is
// missing (or already there) on the next: requests failed with
// `prepared statement "session_by_token" already exists` (docs/benchmarks.md, "Figures once in code comments"). In transaction mode nothing is prepared
// under a name, whoever asks: db/prepared.ts or drizzle's `.prepare(name)`
// (docs/decisions/051-pooler-and-topology.md).

const template = new URL(inject("postgresTemplate"));
const server = new URL(template);
server.pathname = "/postgres";
const fresh = await freshDatabase(server.toString(), template.pathname.slice(1));
const opened: Database[] = [];
afterAll(async () => {
  for (const database of opened) await database.close();
  await fresh.destroy();
});

const rowStatement = new RowStatement("pool_mode_row", { id: users.id }, sql`from ${users} where ${users.email} = ${sql.placeholder("email")}`);
const sqlStatement = new SqlStatement<{ n: number }>("pool_mode_sql", sql`select count(*)::int as n from ${users} where ${users.role} = ${sql.placeholder("role")}`);

/** The names prepared on the connection that ran the three kinds of statement. */
async function preparedNames(poolMode: "session" | "transaction"): Promise<string[]> {
  const database = await openDatabase({ databaseUrl: fresh.url, poolSize: 1, poolMode });
  opened.push(database);
  const drizzlePrepared = database.db.select({ id: users.id }).from(users).where(sql`${users.role} = ${sql.placeholder("role")}`).prepare("pool_mode_drizzle");
  // One pooled connection: every statement and the look at pg_prepared_statements share it.
  await rowStatement.rows(database.db, { email: "nobody@example.test" });
  await sqlStatement.rows(database.db, { role: "user" });
  await drizzlePrepared.execute({ role: "user" });
  const rows = await queryRows<{ name: string }>(database.db, sql`select name from pg_prepared_statements order by name`);
  return rows.map((r) => r.name);
}

describe("pool mode", () => {
  it("prepares the hot statements by name on a direct connection (session mode)", async () => {
    expect(await preparedNames("session")).toEqual(["pool_mode_drizzle", "pool_mode_row", "pool_mode_sql"]);
  });

  it("prepares nothing by name in transaction mode, and the answers are the same", async () => {
    expect(await preparedNames("transaction")).toEqual([]);
    const database = opened.at(-1);
    if (!database) throw new Error("no database opened");
    expect(await sqlStatement.rows(database.db, { role: "user" })).toEqual([{ n: expect.any(Number) as number }]);
  });
});
