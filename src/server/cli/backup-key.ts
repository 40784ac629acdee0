import { readFile } from "node:fs/promises";
import { createInterface } from "node:readline/promises";
import { Writable } from "node:stream";
import { BackupKeyRefused, keyFromIdentityFile } from "../backup/archive-crypto.js";
import type { Env } from "../config/env.js";

// The backup key for `npm run restore` and `npm run backup -- --reencrypt` (docs/operations.md):
// from --key-file, else BACKUP_KEY, else typed at the terminal without being shown. It is asked
// for only when an archive is encrypted.

/** Reads a line from the terminal without echoing it (the key must not stay in the scrollback). */
async function askHidden(question: string): Promise<string> {
  process.stderr.write(question);
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
  const lines = createInterface({ input: process.stdin, output: silent, terminal: true });
  try {
    return (await lines.question("")).trim();
  } finally {
    lines.close();
    process.stderr.write("\n");
  }
}

/** The key from `keyFile`, BACKUP_KEY or the terminal (when `terminal`: stdin is one), or a refusal saying how to give it. */
export async function readBackupKey(env: Pick<Env, "BACKUP_KEY">, keyFile: string | undefined, terminal = process.stdin.isTTY === true): Promise<string> {
  if (keyFile) {
    const key = keyFromIdentityFile(await readFile(keyFile, "utf8"));
    if (!key) throw new BackupKeyRefused(`${keyFile} holds no backup key (a line that starts with AGE-SECRET-KEY-1).`);
    return key;
  }
  if (env.BACKUP_KEY) return env.BACKUP_KEY;
  if (terminal) return askHidden("Backup key (AGE-SECRET-KEY-1…, not shown): ");
  throw new BackupKeyRefused(
    "This archive is encrypted. Give its backup key with --key-file FILE (the file `npm run backup -- --new-key` wrote), " +
      "as BACKUP_KEY, or run the command in a terminal to type it.",
  );
}
