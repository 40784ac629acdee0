import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { openEmbeddedPostgres } from "../src/server/db/embedded-postgres.js";
import { THROWAWAY_SETTINGS } from "../test/global-setup.js";
import { chromiumPath, launchBrowser } from "./harness.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** Maintenance URL of the PostgreSQL server on which each journey's server gets a database. */
    e2eDatabaseServer: string;
  }
}

// One PostgreSQL server (the embedded binaries) for the whole browser run; each journey's app gets
// a fresh database on it. First, say which browser this run drives, so a failure on a fresh
// machine (where `npm test` installed whatever Chromium the distribution ships that day) names it.
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const browser = await launchBrowser();
  try {
    console.log(`e2e browser: ${browser.browserType().name()} ${browser.version()} (${chromiumPath() ?? "playwright-core's download"})`);
  } finally {
    await browser.close();
  }
  const dir = mkdtempSync(join(tmpdir(), "errandly-e2e-pg-"));
  const cluster = await openEmbeddedPostgres({ dir, throwaway: true, settings: THROWAWAY_SETTINGS });
  project.provide("e2eDatabaseServer", cluster.adminUrl);
  return async () => {
    await cluster.stop("immediate");
    rmSync(dir, { recursive: true, force: true });
  };
}
