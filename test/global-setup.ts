import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { migrateDatabase, openDatabase } from "../src/server/db/client.js";
import { PROJECT_ROOT } from "../src/server/paths.js";

// Built once per run: a migrated database every test file copies. PGlite: a data-dir dump that
// each file loads into memory. PostgreSQL (DATABASE_URL set): a template database that each file
// clones with CREATE DATABASE … TEMPLATE.

declare module "vitest" {
  export interface ProvidedContext {
    pgliteImage: string;
    postgresTemplate: string;
  }
}

export const TEMPLATE_DB = "errandly_test_template";

export default async function setup(project: TestProject): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop database if exists ${TEMPLATE_DB} with (force)`);
    await admin.query(`create database ${TEMPLATE_DB}`);
    await admin.end();
    const templateUrl = new URL(url);
    templateUrl.pathname = `/${TEMPLATE_DB}`;
    const database = await openDatabase({ databaseUrl: templateUrl.toString(), poolSize: 1 });
    await migrateDatabase(database);
    await database.close();
    project.provide("postgresTemplate", templateUrl.toString());
    project.provide("pgliteImage", "");
    return;
  }
  const database = await openDatabase({ dataDir: "memory://" });
  await migrateDatabase(database);
  if (!database.dump) throw new Error("PGlite database cannot be dumped");
  const dump = await database.dump();
  await database.close();
  const dir = join(PROJECT_ROOT, ".cache", "test-db");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `pglite-image-${process.pid}.tar`);
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide("pgliteImage", file);
  project.provide("postgresTemplate", "");
}
