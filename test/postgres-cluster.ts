import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { openEmbeddedPostgres, type EmbeddedPostgres } from "../src/server/db/embedded-postgres.js";
import { THROWAWAY_SETTINGS } from "./global-setup.js";

// A throwaway PostgreSQL server of its own, from the same embedded binaries the app runs by default,
// for tests that take the database away or share it between server processes (the fault suite).
// It keeps its data directory and port across stop() and start(), so a test can stop the database
// under load and bring the same one back.

export interface PostgresDatabase {
  url: string;
  /** Removes everything the test created. */
  destroy(): Promise<void>;
}

export interface PostgresCluster extends PostgresDatabase, Pick<EmbeddedPostgres, "port" | "isRunning" | "stop" | "start" | "log"> {}

export async function startPostgresCluster(): Promise<PostgresCluster> {
  const dir = mkdtempSync(join(tmpdir(), "errandly-pg-"));
  const cluster = await openEmbeddedPostgres({ dir, throwaway: true, settings: THROWAWAY_SETTINGS });
  return {
    url: cluster.url,
    port: cluster.port,
    isRunning: cluster.isRunning,
    stop: cluster.stop,
    start: cluster.start,
    log: cluster.log,
    async destroy() {
      if (cluster.isRunning()) await cluster.stop("immediate").catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A fresh database on an existing server (the run's embedded one, CI's DATABASE_URL), a copy of
 * `template` when given; `destroy` drops it.
 */
export async function freshDatabase(serverUrl: string, template?: string): Promise<PostgresDatabase> {
  const name = `errandly_test_${randomUUID().replaceAll("-", "")}`;
  const maintenance = async (statement: string) => {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    try {
      await admin.query(statement);
    } finally {
      await admin.end();
    }
  };
  await maintenance(`create database ${name}${template ? ` template ${template}` : ""}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), destroy: () => maintenance(`drop database if exists ${name} with (force)`) };
}

/** DATABASE_URL's server when set (CI's second run), otherwise a throwaway server of its own. */
export async function testPostgres(): Promise<PostgresDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  return serverUrl ? freshDatabase(serverUrl) : startPostgresCluster();
}
