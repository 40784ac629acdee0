import { createReadStream, existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { createStorage } from "../adapters/storage/create-storage.js";
import { archiveKind, BackupKeyRefused, decryptedStream, newBackupKey, writeEncrypted } from "../backup/archive-crypto.js";
import { EnvError, parseEnv, type Env } from "../config/env.js";
import { databaseServer } from "../db/database-server.js";
import { writeBackup } from "../backup/dump.js";
import { findSecretBox } from "../secrets/secret-box.js";
import { readBackupKey } from "./backup-key.js";

// `npm run backup [-- ARCHIVE]` writes the database, the uploaded files and the secrets key into
// one .tar.gz encrypted to BACKUP_RECIPIENT (docs/operations.md, docs/decisions/069-secrets-at-rest-and-encrypted-backups.md).
// Same configuration as the server (DATABASE_URL or DATA_DIR); with the embedded database it joins
// the running server's PostgreSQL, or starts and stops it if none runs.
// `--new-key FILE` makes a backup key; `--reencrypt OLD NEW` writes OLD again for BACKUP_RECIPIENT
// (a change of backup key, or an archive made before archives were encrypted).

const USAGE = [
  "Usage: npm run backup [-- ARCHIVE]             an archive encrypted to BACKUP_RECIPIENT",
  "       npm run backup -- --new-key FILE        a new backup key in FILE; prints its BACKUP_RECIPIENT",
  "       npm run backup -- --reencrypt OLD NEW [--key-file FILE]",
  "                                               OLD (opened with the old key) written again as NEW for BACKUP_RECIPIENT",
].join("\n");

/** The operator's refusal: printed as it is, without a stack. */
class BackupRefused extends Error {}

const NO_RECIPIENT =
  "npm run backup needs BACKUP_RECIPIENT, the public half of a backup key, to encrypt the archive. " +
  "Make a key with `npm run backup -- --new-key backup-key.txt`, set BACKUP_RECIPIENT to the age1… line it prints, " +
  "and keep backup-key.txt away from this server and from the archives: restoring needs it (docs/operations.md).";

const stamp = (date: Date) => date.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");

function recipientOf(env: Env): string {
  if (!env.BACKUP_RECIPIENT) throw new BackupRefused(NO_RECIPIENT);
  return env.BACKUP_RECIPIENT;
}

async function newKey(file: string): Promise<number> {
  const key = await newBackupKey(new Date());
  try {
    // Created readable by its owner alone, and never over an existing key: archives made for it would be lost.
    await writeFile(file, key.file, { mode: 0o600, flag: "wx" });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") throw new BackupRefused(`${file} exists already. Name a new file: a backup key is never overwritten.`);
    throw err;
  }
  console.log(`Wrote a new backup key to ${file} (readable by you alone). Its public half, for the machine that makes backups:`);
  console.log(`BACKUP_RECIPIENT=${key.recipient}`);
  console.log(`Move ${file} off this machine to a safe place apart from the archives (a password manager, a safe): restoring needs it, and without it no archive made for it can be read.`);
  return 0;
}

async function reencrypt(env: Env, from: string, to: string, keyFile: string | undefined): Promise<number> {
  const recipient = recipientOf(env);
  if (!existsSync(from)) throw new BackupRefused(`There is no file ${from}. Give the path of an archive written by npm run backup.`);
  if (existsSync(to)) throw new BackupRefused(`${to} exists already. Name a new file, and delete the old archive once the new one restores.`);
  const kind = await archiveKind(from);
  if (kind === "unknown") throw new BackupRefused(`${from} is not a backup archive.`);
  const source = kind === "encrypted" ? await decryptedStream(from, await readBackupKey(env, keyFile)) : createReadStream(from);
  await writeEncrypted(source, recipient, to);
  console.log(`Wrote ${to}, encrypted to BACKUP_RECIPIENT. Try a restore of it, then delete ${from}.`);
  return 0;
}

async function main(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      options: { "new-key": { type: "string" }, reencrypt: { type: "boolean" }, "key-file": { type: "string" } },
      allowPositionals: true,
      strict: true,
    });
  } catch {
    console.error(USAGE);
    return 2;
  }
  const { values, positionals } = args;
  const [first, second] = positionals;
  const wellFormed = values["new-key"] !== undefined ? positionals.length === 0 : values.reencrypt ? positionals.length === 2 : positionals.length <= 1;
  if (!wellFormed) {
    console.error(USAGE);
    return 2;
  }
  if (values["new-key"] !== undefined) return newKey(resolve(values["new-key"]));
  const env = parseEnv(process.env);
  if (values.reencrypt && first && second) return reencrypt(env, resolve(first), resolve(second), values["key-file"]);
  const recipient = recipientOf(env);
  const now = new Date();
  const archive = resolve(first ?? `errandly-backup-${stamp(now)}.tar.gz.age`);
  const server = await databaseServer(env, "tool");
  try {
    const manifest = await writeBackup({ databaseUrl: server.url, storage: await createStorage(env), archive, recipient, secrets: await findSecretBox(env), now });
    const rows = Object.values(manifest.tables).reduce((n, t) => n + t.rows, 0);
    console.log(`Wrote ${archive}: ${rows} rows in ${Object.keys(manifest.tables).length} tables, ${manifest.files.length} files, encrypted to BACKUP_RECIPIENT.`);
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
    const told = err instanceof EnvError || err instanceof BackupRefused || err instanceof BackupKeyRefused;
    console.error(told ? err.message : err);
    process.exit(1);
  },
);
