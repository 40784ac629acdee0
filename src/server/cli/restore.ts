import { join, resolve } from "node:path";
import { createStorage } from "../adapters/storage/create-storage.js";
import { EnvError, parseEnv } from "../config/env.js";
import { databaseServer } from "../db/database-server.js";
import { isEmptyDirectory, openArchive, restoreBackup, RestoreRefused } from "../backup/restore.js";

// `npm run restore -- ARCHIVE` brings a backup back into an empty DATA_DIR (the embedded
// database) or an empty database at DATABASE_URL, and its files into empty storage
// (docs/operations.md). It refuses any target that holds data: a restore never overwrites.

const USAGE = "Usage: npm run restore -- ARCHIVE (a .tar.gz written by npm run backup)";

async function main(argv: string[]): Promise<number> {
  const [archive] = argv;
  if (!archive) {
    console.error(USAGE);
    return 2;
  }
  const env = parseEnv(process.env);
  const opened = await openArchive(resolve(archive));
  try {
    // Checked before the embedded server is created there, which would make the folder non-empty.
    if (!env.DATABASE_URL && !(await isEmptyDirectory(env.DATA_DIR))) {
      throw new RestoreRefused(`DATA_DIR ${resolve(env.DATA_DIR)} is not empty. Point DATA_DIR at a new, empty folder, so nothing is overwritten.`);
    }
    const storageDir = env.S3_BUCKET ? null : (env.STORAGE_DIR ?? join(env.DATA_DIR, "objects"));
    if (storageDir && !(await isEmptyDirectory(storageDir))) {
      throw new RestoreRefused(`STORAGE_DIR ${resolve(storageDir)} is not empty. Point STORAGE_DIR at a new, empty folder, so no file is overwritten.`);
    }
    const server = await databaseServer(env, "tool");
    try {
      const restored = await restoreBackup({ ...opened, databaseUrl: server.url, storage: await createStorage(env) });
      const rows = Object.values(restored.rows).reduce((n, r) => n + r, 0);
      console.log(
        `Restored ${rows} rows and ${opened.manifest.files.length} files from the backup of ${opened.manifest.createdAt} into ${server.description}. ` +
          "Start the server on this configuration; it applies any newer migrations.",
      );
      if (restored.notRestored.length > 0) {
        console.log(
          `Left in the archive, not Errandly's tables: ${restored.notRestored.join(", ")}. Their rows are in db/<table>.jsonl inside it, for you to load if you need them.`,
        );
      }
    } finally {
      await server.release();
    }
    return 0;
  } finally {
    await opened.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof EnvError || err instanceof RestoreRefused ? err.message : err);
    process.exit(1);
  },
);
