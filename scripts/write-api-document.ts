// Writes the OpenAPI document that /api/docs serves to the file named on the command line, so
// `npm test` can lint it with spectral (docs/decisions/047-knip-and-spectral-in-the-test-command.md).
// The routes are registered without a database: nothing here runs a query.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { buildApp } from "../src/server/app.js";
import { parseEnv } from "../src/server/config/env.js";
import type { Database, Db } from "../src/server/db/client.js";

const out = process.argv[2];
if (!out) throw new Error("Name the file to write, for example: tsx scripts/write-api-document.ts /tmp/openapi.json");

const env = parseEnv({ NODE_ENV: "test", LOG_LEVEL: "silent", SEED_DEMO: "false", DATA_DIR: "/tmp/errandly-api-document" });
// A database that answers nothing: the document needs the routes, not the data.
const database: Database = {
  db: new Proxy({} as Db, {
    get: () => {
      throw new Error("Writing the API document ran a query; it must only register routes.");
    },
  }),
  listen: () => Promise.resolve(() => Promise.resolve()),
  notify: () => Promise.resolve(),
  onListenerRestored: () => undefined,
  ping: () => Promise.resolve(),
  poolUse: () => ({ total: 0, idle: 0, waiting: 0 }),
  close: () => Promise.resolve(),
};
const app = await buildApp({ env, database, logger: false });
await app.ready();
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify(app.swagger(), null, 2));
await app.close();
await database.close();
