import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { once } from "node:events";
import pg from "pg";
import type { ObjectStorage } from "../adapters/storage/storage.js";
import { PROJECT_ROOT } from "../paths.js";
import type { SecretBox } from "../secrets/secret-box.js";
import { writeEncrypted } from "./archive-crypto.js";
import type { Manifest } from "./manifest.js";

// `npm run backup` (docs/operations.md, docs/decisions/053-metrics-and-backups.md): every table of
// the database read in ONE repeatable-read transaction, so the archive is one moment however many
// writes happen meanwhile (what pg_dump does; its binaries cannot be used for the embedded
// PostgreSQL 18, see the decision), then the uploaded files that moment's rows name, then one
// tar.gz with a manifest that restore and an operator can check the archive against, encrypted with
// age to the operator's backup key as it is written (docs/decisions/069-secrets-at-rest-and-encrypted-backups.md):
// no byte of it is ever on disk in the clear but the staging folder, which only its owner can read.

/** Rows fetched from the cursor at a time: bounded memory whatever the table's size. */
const FETCH_ROWS = 2_000;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Files made while backing up are readable by their owner alone (the folders: 0700). */
const PRIVATE_FILE = 0o600;
const PRIVATE_DIR = 0o700;

/**
 * Writes `archive`, a .tar.gz encrypted to `recipient` (an age public key), from the database at
 * `databaseUrl`, the files in `storage` and the keys of `secrets` (the database's sealed values
 * are useless without them; null when the server has none yet).
 */
export async function writeBackup(options: {
  databaseUrl: string;
  storage: ObjectStorage;
  archive: string;
  recipient: string;
  secrets: SecretBox | null;
  now?: Date;
}): Promise<Manifest> {
  // Beside the archive, so the copy needs the archive's disk rather than a small /tmp; mkdtemp makes it 0700.
  const staging = await mkdtemp(join(dirname(options.archive), ".errandly-backup-"));
  await mkdir(join(staging, "db"), { mode: PRIVATE_DIR });
  try {
    const client = new pg.Client({ connectionString: options.databaseUrl });
    await client.connect();
    let snapshot: Omit<Manifest, "files" | "missingFiles"> & { fileKeys: { key: string; contentType: string; required: boolean }[] };
    try {
      snapshot = await dumpSnapshot(client, join(staging, "db"), options.now ?? new Date());
    } finally {
      await client.end();
    }
    // The files after the rows: a file the snapshot names was written before its row committed,
    // so it is there (or was deleted since, which the manifest says).
    const files: Manifest["files"] = [];
    const missingFiles: string[] = [];
    for (const { key, contentType, required } of snapshot.fileKeys) {
      const body = await options.storage.get(key);
      if (!body) {
        if (required) missingFiles.push(key);
        continue;
      }
      const path = join(staging, "files", key);
      await mkdir(dirname(path), { recursive: true, mode: PRIVATE_DIR });
      await writeFile(path, body, { mode: PRIVATE_FILE });
      files.push({ key, contentType, bytes: body.length, sha256: createHash("sha256").update(body).digest("hex") });
    }
    const { fileKeys: _keys, ...rest } = snapshot;
    const manifest: Manifest = { ...rest, files, missingFiles };
    if (options.secrets) {
      const keys = options.secrets.exportKeys();
      const text = keys.map((key) => `${key}\n`).join("");
      await writeFile(join(staging, "secrets.key"), text, { mode: PRIVATE_FILE });
      manifest.secretsKeys = { file: "secrets.key", keys: keys.length, sha256: createHash("sha256").update(text).digest("hex") };
    }
    await writeFile(join(staging, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`, { mode: PRIVATE_FILE });
    await encryptTar(staging, options.recipient, options.archive);
    return manifest;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** tar's gzip of `dir`, streamed into writeEncrypted: the plain archive never touches the disk. */
async function encryptTar(dir: string, recipient: string, archive: string): Promise<void> {
  const tar = spawn("tar", ["-czf", "-", "-C", dir, "."], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  tar.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve, reject) => {
    tar.once("error", reject);
    tar.once("close", (code) => (code === 0 ? resolve() : reject(new Error(`tar failed (${code}): ${stderr.trim()}`))));
  });
  await writeEncrypted(tar.stdout, recipient, archive, exited);
}

async function dumpSnapshot(client: pg.Client, dir: string, now: Date) {
  const version = (JSON.parse(await readFile(join(PROJECT_ROOT, "package.json"), "utf8")) as { version: string }).version;
  await client.query("begin isolation level repeatable read read only");
  try {
    const { rows: server } = await client.query<{ server_version: string }>("show server_version");
    const { rows: migration } = await client.query<{ count: number; last: string | null }>(
      "select count(*)::int as count, max(created_at)::text as last from drizzle.__drizzle_migrations",
    );
    const { rows: tableRows } = await client.query<{ name: string }>(
      "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name",
    );
    const tables: Manifest["tables"] = {};
    for (const { name } of tableRows) tables[name] = await dumpTable(client, name, join(dir, `${name}.jsonl`));
    const { rows: sequences } = await client.query<{ name: string; value: string | null }>(
      "select sequencename as name, last_value::text as value from pg_sequences where schemaname = 'public' order by sequencename",
    );
    const ledger = await ledgerSums(client);
    // Uploads marked used have their file stored; a row not used yet may or may not (its PUT is under way).
    // The derived photos are WebP (docs/decisions/030-task-photos.md).
    const { rows: keys } = await client.query<{ key: string; contentType: string; required: boolean }>(
      `select storage_key as key, coalesce(content_type, 'application/octet-stream') as "contentType", used_at is not null as required from uploads
       union select small_key, 'image/webp', true from task_photos union select medium_key, 'image/webp', true from task_photos order by key`,
    );
    await client.query("commit");
    return {
      format: 1 as const,
      appVersion: version,
      createdAt: now.toISOString(),
      postgresVersion: server[0]?.server_version ?? "unknown",
      migrations: { count: migration[0]?.count ?? 0, last: migration[0]?.last ? Number(migration[0].last) : null },
      tables,
      sequences: Object.fromEntries(sequences.map((s) => [s.name, s.value])),
      ledger,
      fileKeys: keys,
    };
  } catch (err) {
    await client.query("rollback").catch(() => undefined);
    throw err;
  }
}

/** One JSON object a line, the columns a restore can insert (generated columns are recomputed). */
async function dumpTable(client: pg.Client, table: string, path: string): Promise<Manifest["tables"][string]> {
  const { rows: cols } = await client.query<{ name: string }>(
    `select column_name as name from information_schema.columns
     where table_schema = 'public' and table_name = $1 and is_generated = 'NEVER' order by ordinal_position`,
    [table],
  );
  const columns = cols.map((c) => c.name);
  const out = createWriteStream(path, { mode: PRIVATE_FILE });
  const hash = createHash("sha256");
  let rows = 0;
  await client.query(
    `declare dump_rows no scroll cursor for select row_to_json(r)::text as line from (select ${columns.map(quote).join(", ")} from ${quote(table)}) r`,
  );
  for (;;) {
    const { rows: batch } = await client.query<{ line: string }>(`fetch ${FETCH_ROWS} from dump_rows`);
    if (batch.length === 0) break;
    const text = batch.map((b) => `${b.line}\n`).join("");
    hash.update(text);
    rows += batch.length;
    if (!out.write(text)) await once(out, "drain");
  }
  await client.query("close dump_rows");
  out.end();
  await once(out, "finish");
  return { rows, columns, file: `db/${table}.jsonl`, sha256: hash.digest("hex") };
}

/** The ledger's sums the restore must give back: all entries (zero when balanced) and by account kind. */
export async function ledgerSums(client: pg.Client | pg.PoolClient): Promise<Manifest["ledger"]> {
  const { rows } = await client.query<{ kind: string; cents: string; entries: number }>(
    "select split_part(account, ':', 1) as kind, sum(amount_cents)::text as cents, count(*)::int as entries from ledger_entries group by 1 order by 1",
  );
  return {
    entries: rows.reduce((n, r) => n + r.entries, 0),
    totalCents: rows.reduce((n, r) => n + Number(r.cents), 0),
    centsByAccountKind: Object.fromEntries(rows.map((r) => [r.kind, Number(r.cents)])),
  };
}
