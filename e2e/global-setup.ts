import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { chromium } from "playwright-core";
import type { TestProject } from "vitest/node";
import { migrateDatabase, openDatabase } from "../src/server/db/client.js";
import { openEmbeddedPostgres } from "../src/server/db/embedded-postgres.js";
import { newSecretsKey, SecretBox } from "../src/server/secrets/secret-box.js";
import { seedDemoData } from "../src/server/seed/demo.js";
import { freePort } from "../src/server/free-port.js";
import { THROWAWAY_SETTINGS } from "../test/global-setup.js";
import { buildIfStale } from "./build-if-stale.js";
import { CHROMIUM_ARGS, journeyChromiumPath, startServer, type JourneyServer } from "./harness.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** Maintenance URL of the PostgreSQL server on which each journey's server gets a database. */
    e2eDatabaseServer: string;
    /** The migrated database with the demo data that each journey's server clones (CREATE DATABASE … TEMPLATE). */
    e2eTemplate: string;
    /** The run's one Chromium (`chromium.connect`), and its DevTools port for Lighthouse. */
    e2eBrowser: { wsEndpoint: string; debuggingPort: number };
    /** The SECRETS_KEY every journey's server starts with: the template's demo admin's authenticator key is sealed under it (decision 069). */
    e2eSecretsKey: string;
    /** The run's one shared server, for the journeys that bring their own people (harness.ts useSharedServer). */
    e2eSharedServer: JourneyServer;
  }
}

const E2E_TEMPLATE_DB = "errandly_e2e_template";

// Built once per run, so that no journey pays for it (docs/benchmarks.md, Test suite): the built
// app (built here when dist/ is missing or older than the source, so one file runs with no manual
// step), one PostgreSQL server (the embedded binaries) holding a migrated template database with the
// demo data, and one Chromium that every file connects to.
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = Date.now();
  buildIfStale();
  const dir = mkdtempSync(join(tmpdir(), "errandly-e2e-pg-"));
  const cluster = await openEmbeddedPostgres({ dir, throwaway: true, settings: THROWAWAY_SETTINGS });
  const admin = new pg.Client({ connectionString: cluster.adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${E2E_TEMPLATE_DB} with (force)`);
  await admin.query(`create database ${E2E_TEMPLATE_DB}`);
  await admin.end();
  const template = new URL(cluster.adminUrl);
  template.pathname = `/${E2E_TEMPLATE_DB}`;
  await migrateDatabase(template.toString());
  // What the server's own start does with SEED_DEMO on an empty database (src/server/main.ts).
  const database = await openDatabase({ databaseUrl: template.toString(), poolSize: 1 });
  const secretsKey = newSecretsKey();
  try {
    await seedDemoData(database.db, new SecretBox([secretsKey], "SECRETS_KEY"), new Date());
  } finally {
    // CREATE DATABASE … TEMPLATE needs the template without connections.
    await database.close();
  }

  const debuggingPort = await freePort();
  const executablePath = journeyChromiumPath();
  // One server for every journey that brings its own people (harness.ts useSharedServer), so those
  // files pay for no server start (about 4.5 s of CPU each), started while Chromium launches.
  const [browserServer, sharedServer] = await Promise.all([
    chromium.launchServer({
      ...(executablePath ? { executablePath } : {}),
      headless: true,
      // The DevTools port is for Lighthouse (bench/lighthouse.ts runLighthouse), which drives a tab of its own.
      args: [...CHROMIUM_ARGS, `--remote-debugging-port=${debuggingPort}`],
    }),
    startServer({}, { databaseServer: cluster.adminUrl, template: E2E_TEMPLATE_DB, secretsKey }),
  ]);
  // Say which browser this run drives, so a failure on a fresh machine (where `npm test` installed
  // whatever Chromium the distribution ships that day) names it.
  const probe = await chromium.connect(browserServer.wsEndpoint());
  console.log(`e2e browser: chromium ${probe.version()} (${executablePath ?? "playwright-core's download"}); setup ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await probe.close();

  project.provide("e2eDatabaseServer", cluster.adminUrl);
  project.provide("e2eTemplate", E2E_TEMPLATE_DB);
  project.provide("e2eSecretsKey", secretsKey);
  project.provide("e2eBrowser", { wsEndpoint: browserServer.wsEndpoint(), debuggingPort });
  project.provide("e2eSharedServer", { url: sharedServer.url, databaseUrl: sharedServer.databaseUrl, dataDir: sharedServer.dataDir });
  return async () => {
    await sharedServer.stop();
    await browserServer.close();
    await cluster.stop("immediate");
    rmSync(dir, { recursive: true, force: true });
  };
}
