import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { once } from "node:events";
import pg from "pg";
import type { ObjectStorage } from "../adapters/storage/storage.js";
import { PROJECT_ROOT } from "../paths.js";
import { run, type Manifest } from "./manifest.js";

// `npm run backup` (docs/operations.md, docs/decisions/053-metrics-and-backups.md): every table of
// the database read in ONE repeatable-read transaction, so the archive is one moment however many
// writes happen meanwhile (what pg_dump does; its binaries cannot be used for the embedded
// PostgreSQL 18, see the decision), then the uploaded files that moment's rows name, then one
// tar.gz with a manifest that restore and an operator can check the archive against.

/** Rows fetched from the cursor at a time: bounded memory whatever the table's size. */
const FETCH_ROWS = 2_000;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Writes `archive` (a .tar.gz) from the database at `databaseUrl` and the files in `storage`. */
export async function writeBackup(options: { databaseUrl: string; storage: ObjectStorage; archive: string; now?: Date }): Promise<Manifest> {
  const staging = join(dirname(options.archive), `.errandly-backup-${process.pid}-${Date.now()}`);
  await mkdir(join(staging, "db"), { recursive: true });
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
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, body);
      files.push({ key, contentType, bytes: body.length, sha256: createHash("sha256").update(body).digest("hex") });
    }
    const { fileKeys: _keys, ...rest } = snapshot;
    const manifest: Manifest = { ...rest, files, missingFiles };
    await writeFile(join(staging, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    await run("tar", ["-czf", options.archive, "-C", staging, "."]);
    return manifest;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
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
  const out = createWriteStream(path);
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
