import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { migrateDatabase } from "../src/server/db/client.js";
import { openEmbeddedPostgres } from "../src/server/db/embedded-postgres.js";

// Built once per run: one PostgreSQL server (the embedded one, or DATABASE_URL's) holding a
// migrated template database that each test file clones with CREATE DATABASE … TEMPLATE.

declare module "vitest" {
  export interface ProvidedContext {
    /** URL of the migrated template database; its server's maintenance database is `postgres`. */
    postgresTemplate: string;
  }
}

export const TEMPLATE_DB = "errandly_test_template";

/**
 * Settings for a throwaway server: the tests simulate process crashes, never power loss, so the OS
 * cache is durable enough. Commits stay synchronous: a fault test kills the server right after an
 * acknowledged commit and expects to find it after the restart.
 */
export const THROWAWAY_SETTINGS = { fsync: "off", full_page_writes: "off" };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let serverUrl = process.env.DATABASE_URL;
  let teardown = async () => undefined;
  if (!serverUrl) {
    const dir = mkdtempSync(join(tmpdir(), "errandly-test-pg-"));
    const cluster = await openEmbeddedPostgres({ dir, throwaway: true, settings: THROWAWAY_SETTINGS });
    serverUrl = cluster.adminUrl;
    teardown = async () => {
      await cluster.stop("immediate");
      rmSync(dir, { recursive: true, force: true });
    };
  }
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${TEMPLATE_DB} with (force)`);
  await admin.query(`create database ${TEMPLATE_DB}`);
  await admin.end();
  const templateUrl = new URL(serverUrl);
  templateUrl.pathname = `/${TEMPLATE_DB}`;
  await migrateDatabase(templateUrl.toString());
  project.provide("postgresTemplate", templateUrl.toString());
  return teardown;
}
