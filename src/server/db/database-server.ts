import { resolve } from "node:path";
import pg from "pg";
import type { Env } from "../config/env.js";
import { openEmbeddedPostgres, type EmbeddedPostgres } from "./embedded-postgres.js";

// Which PostgreSQL this process uses: DATABASE_URL when set, otherwise the embedded server under
// DATA_DIR/postgres, started here or joined if another process already runs it
// (docs/decisions/016-embedded-postgresql.md).

export interface DatabaseServer {
  url: string;
  /** For the start-up line: which database is in use. */
  description: string;
  /** Stops the embedded server when this process is the one that should (see `role`). */
  release(): Promise<void>;
}

/**
 * "app": the server process owns the embedded PostgreSQL, even one it joined (left running by an
 * app that was killed), and stops it on shutdown. "tool" (the admin command): stops it only if it
 * started it and nobody else connected in the meantime, so it never pulls it from under an app.
 */
export type DatabaseRole = "app" | "tool";

export async function databaseServer(env: Pick<Env, "DATABASE_URL" | "DATA_DIR">, role: DatabaseRole): Promise<DatabaseServer> {
  if (env.DATABASE_URL) {
    const url = new URL(env.DATABASE_URL);
    return { url: env.DATABASE_URL, description: `PostgreSQL at ${url.hostname}:${url.port || "5432"}${url.pathname}`, release: async () => undefined };
  }
  const dir = resolve(env.DATA_DIR);
  const embedded = await openEmbeddedPostgres({ dir });
  return {
    url: embedded.url,
    description: `embedded PostgreSQL ${embedded.version} in ${dir}/postgres on 127.0.0.1:${embedded.port}${embedded.socketDir ? ", reached through its Unix socket" : ""}${embedded.owned ? "" : " (already running)"}`,
    async release() {
      if (role === "app" || (embedded.owned && !(await hasOtherClients(embedded)))) await embedded.stop("fast");
    },
  };
}

async function hasOtherClients(embedded: EmbeddedPostgres): Promise<boolean> {
  const client = new pg.Client({ connectionString: embedded.adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("select 1 from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()");
    return (rowCount ?? 0) > 0;
  } finally {
    await client.end();
  }
}
