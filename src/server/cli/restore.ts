import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { createStorage } from "../adapters/storage/create-storage.js";
import { BackupKeyRefused } from "../backup/archive-crypto.js";
import { EnvError, parseEnv } from "../config/env.js";
import { databaseServer } from "../db/database-server.js";
import { isEmptyDirectory, openArchive, restoreBackup, RestoreRefused } from "../backup/restore.js";
import { readBackupKey } from "./backup-key.js";

// `npm run restore -- ARCHIVE` brings a backup back into an empty DATA_DIR (the embedded
// database) or an empty database at DATABASE_URL, and its files into empty storage
// (docs/operations.md). It refuses any target that holds data: a restore never overwrites. An
// encrypted archive needs its backup key (--key-file, BACKUP_KEY, or typed when asked), and a
// key that does not open it is refused before anything is written.

const USAGE = "Usage: npm run restore -- ARCHIVE [--key-file FILE] (an archive written by npm run backup)";

async function main(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs({ args: argv, options: { "key-file": { type: "string" } }, allowPositionals: true, strict: true });
  } catch {
    console.error(USAGE);
    return 2;
  }
  const { values, positionals } = args;
  const [archive] = positionals;
  if (!archive || positionals.length > 1) {
    console.error(USAGE);
    return 2;
  }
  const env = parseEnv(process.env);
  const opened = await openArchive(resolve(archive), () => readBackupKey(env, values["key-file"]));
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
      const restored = await restoreBackup({ ...opened, databaseUrl: server.url, storage: await createStorage(env), env });
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
      if (!opened.encrypted) {
        console.log(
          "This archive was not encrypted (it was made before backups were): encrypt it with `npm run backup -- --reencrypt OLD NEW`, or delete it, so it holds no readable copy of the data.",
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
    const told = err instanceof EnvError || err instanceof RestoreRefused || err instanceof BackupKeyRefused;
    console.error(told ? err.message : err);
    process.exit(1);
  },
);
