import { resolve } from "node:path";
import { createStorage } from "../adapters/storage/create-storage.js";
import { EnvError, parseEnv } from "../config/env.js";
import { databaseServer } from "../db/database-server.js";
import { writeBackup } from "../backup/dump.js";

// `npm run backup [-- ARCHIVE]` writes the database and the uploaded files into one .tar.gz
// (docs/operations.md). Same configuration as the server (DATABASE_URL or DATA_DIR); with the
// embedded database it joins the running server's PostgreSQL, or starts and stops it if none runs.

const stamp = (date: Date) => date.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");

async function main(argv: string[]): Promise<number> {
  const env = parseEnv(process.env);
  const now = new Date();
  const archive = resolve(argv[0] ?? `errandly-backup-${stamp(now)}.tar.gz`);
  const server = await databaseServer(env, "tool");
  try {
    const manifest = await writeBackup({ databaseUrl: server.url, storage: await createStorage(env), archive, now });
    const rows = Object.values(manifest.tables).reduce((n, t) => n + t.rows, 0);
    console.log(`Wrote ${archive}: ${rows} rows in ${Object.keys(manifest.tables).length} tables, ${manifest.files.length} files.`);
    if (manifest.missingFiles.length > 0) {
      console.warn(`${manifest.missingFiles.length} files named by the database were not in storage (listed in the manifest's missingFiles).`);
    }
    return 0;
  } finally {
    await server.release();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof EnvError ? err.message : err);
    process.exit(1);
  },
);
