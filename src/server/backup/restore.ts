import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, existsSync } from "node:fs";
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import type { ObjectStorage } from "../adapters/storage/storage.js";
import type { Env } from "../config/env.js";
import { MIGRATIONS_DIR } from "../paths.js";
import { resealSecrets } from "../secrets/at-rest.js";
import { findSecretBox, SecretBox, writeSecretsKeyFile } from "../secrets/secret-box.js";
import { archiveKind, BackupKeyRefused, decryptedStream } from "./archive-crypto.js";
import { ledgerSums } from "./dump.js";
import type { Manifest } from "./manifest.js";

// `npm run restore <archive>` (docs/operations.md, docs/decisions/053-metrics-and-backups.md): the
// archive is checked against its manifest, the schema is built by the migrations up to the level
// the backup was made at, the rows go back in one transaction (parents before children, with the
// tables' own triggers off: the ratings a review trigger keeps were backed up already), then the
// files. The migrations after that level run when the server next starts, as in any upgrade.
// The archive is decrypted with the backup key into tar's pipe, into a folder only its owner can
// read, removed afterwards; the authenticator keys it holds are sealed under the target's secrets
// key (docs/decisions/069-secrets-at-rest-and-encrypted-backups.md).

/** A refusal the command prints as it is, without a stack: the operator has something to fix. */
export class RestoreRefused extends Error {}

const INSERT_ROWS = 1_000;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

interface JournalEntry {
  when: number;
  tag: string;
}

/**
 * Unpacks `archive` into a temporary folder and checks every table and file against the manifest.
 * `key` is asked for only when the archive is encrypted (a plain one was made before decision 069);
 * a key that does not open it is refused before anything is written, the temporary folder included.
 */
export async function openArchive(
  archive: string,
  key: () => Promise<string>,
): Promise<{ dir: string; manifest: Manifest; encrypted: boolean; close(): Promise<void> }> {
  if (!existsSync(archive)) throw new RestoreRefused(`There is no file ${archive}. Give the path of an archive written by npm run backup.`);
  const kind = await archiveKind(archive);
  if (kind === "unknown") throw new RestoreRefused(`${archive} is not a backup archive. Give the path of a file written by npm run backup.`);
  let plain: Readable | null = null;
  if (kind === "encrypted") {
    try {
      plain = await decryptedStream(archive, await key());
    } catch (err) {
      if (err instanceof BackupKeyRefused) throw new RestoreRefused(`${err.message} Nothing was restored.`);
      throw err;
    }
  }
  const dir = await mkdtemp(join(tmpdir(), "errandly-restore-"));
  const close = () => rm(dir, { recursive: true, force: true });
  try {
    await untar(plain ?? createReadStream(archive), dir).catch(() => {
      throw new RestoreRefused(`${archive} is not a readable backup archive: it is damaged. Restore an earlier backup.`);
    });
    if (!existsSync(join(dir, "manifest.json"))) {
      throw new RestoreRefused(`${archive} has no manifest.json, so it was not written by npm run backup. Give the path of a backup archive.`);
    }
    const manifest = JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")) as Manifest;
    const checks = [
      ...Object.values(manifest.tables).map((t) => ({ path: t.file, sha256: t.sha256 })),
      ...manifest.files.map((f) => ({ path: `files/${f.key}`, sha256: f.sha256 })),
      ...(manifest.secretsKeys ? [{ path: manifest.secretsKeys.file, sha256: manifest.secretsKeys.sha256 }] : []),
    ];
    for (const check of checks) {
      if ((await sha256Of(join(dir, check.path))) !== check.sha256) {
        throw new RestoreRefused(`${check.path} in ${archive} does not match its manifest: the archive is damaged. Restore an earlier backup.`);
      }
    }
    return { dir, manifest, encrypted: kind === "encrypted", close };
  } catch (err) {
    plain?.destroy();
    await close();
    throw err;
  }
}

/** Extracts a .tar.gz arriving on `source` into `dir` (decrypted bytes reach tar through a pipe only). */
async function untar(source: Readable, dir: string): Promise<void> {
  const tar = spawn("tar", ["-xzf", "-", "-C", dir], { stdio: ["pipe", "ignore", "ignore"] });
  const exited = new Promise<void>((resolve, reject) => {
    tar.once("error", reject);
    tar.once("close", (code) => (code === 0 ? resolve() : reject(new Error(`tar exited with ${code}`))));
  });
  await Promise.all([pipeline(source, tar.stdin), exited]);
}

async function sha256Of(path: string): Promise<string | null> {
  if (!existsSync(path)) return null;
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** True when `dir` does not exist or holds nothing. */
export async function isEmptyDirectory(dir: string): Promise<boolean> {
  if (!existsSync(dir)) return true;
  return (await readdir(dir)).length === 0;
}

/** The committed migrations up to the backup's level, or a refusal when the backup is newer than this code. */
async function migrationsUpTo(manifest: Manifest): Promise<string> {
  const journal = JSON.parse(await readFile(join(MIGRATIONS_DIR, "meta", "_journal.json"), "utf8")) as { entries: JournalEntry[] };
  const last = manifest.migrations.last;
  const upTo = journal.entries.findIndex((e) => e.when === last);
  if (last !== null && upTo === -1) {
    throw new RestoreRefused(
      `This backup was made by a newer Errandly (version ${manifest.appVersion}) whose database this code does not know. ` +
        "Restore it with that version or a later one.",
    );
  }
  const dir = await mkdtemp(join(tmpdir(), "errandly-migrations-"));
  await cp(MIGRATIONS_DIR, dir, { recursive: true });
  await writeFile(join(dir, "meta", "_journal.json"), JSON.stringify({ ...journal, entries: journal.entries.slice(0, upTo + 1) }));
  return dir;
}

/** Refuses unless the database has no tables of ours and no migration record. */
async function assertEmptyDatabase(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ count: number }>(
    "select count(*)::int as count from information_schema.tables where table_schema in ('public', 'drizzle')",
  );
  if ((rows[0]?.count ?? 0) > 0) {
    throw new RestoreRefused(
      "The target database is not empty: it already has tables. Restore into a new, empty database (or an empty DATA_DIR), so nothing is overwritten.",
    );
  }
}

/** Parent tables before the tables whose foreign keys point at them. */
async function tablesInLoadOrder(client: pg.Client, tables: string[]): Promise<string[]> {
  const { rows } = await client.query<{ child: string; parent: string }>(
    `select c.relname as child, p.relname as parent from pg_constraint k
     join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
     join pg_namespace n on n.oid = c.relnamespace
     where k.contype = 'f' and n.nspname = 'public' and c.oid <> p.oid`,
  );
  const ordered: string[] = [];
  const placed = new Set<string>();
  const visit = (table: string, path: Set<string>) => {
    if (placed.has(table) || path.has(table)) return;
    path.add(table);
    for (const r of rows) if (r.child === table) visit(r.parent, path);
    placed.add(table);
    ordered.push(table);
  };
  for (const table of tables) visit(table, new Set());
  return ordered;
}

async function loadTable(client: pg.Client, dir: string, table: string, entry: Manifest["tables"][string]): Promise<void> {
  const columns = entry.columns.map(quote).join(", ");
  const insert = `insert into ${quote(table)} (${columns}) overriding system value
    select ${columns} from json_populate_recordset(null::${quote(table)}, $1::json)`;
  let batch: string[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    await client.query(insert, [`[${batch.join(",")}]`]);
    batch = [];
  };
  const lines = createInterface({ input: createReadStream(join(dir, entry.file)), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line) continue;
    batch.push(line);
    if (batch.length >= INSERT_ROWS) await flush();
  }
  await flush();
}

type KeyEnv = Pick<Env, "SECRETS_KEY" | "SECRETS_KEY_PREVIOUS" | "DATA_DIR">;

/** The secrets keys the archive carries, the current first (none in archives made before decision 069). */
async function archiveSecretsKeys(dir: string, manifest: Manifest): Promise<string[]> {
  if (!manifest.secretsKeys) return [];
  return (await readFile(join(dir, manifest.secretsKeys.file), "utf8")).split("\n").filter(Boolean);
}

/**
 * The box the restored rows are sealed under: the target's (SECRETS_KEY), else the archive's own
 * key, which then becomes DATA_DIR/secrets.key; the archive's keys open what the target's do not.
 */
async function restoreSecrets(env: KeyEnv, archiveKeys: string[]): Promise<{ box: SecretBox; adopt: string | null } | null> {
  const target = await findSecretBox(env);
  if (target) return { box: new SecretBox([...target.exportKeys(), ...archiveKeys], `${target.source} or the archive's keys`), adopt: null };
  const [current] = archiveKeys;
  return current ? { box: new SecretBox(archiveKeys, "the archive's keys"), adopt: current } : null;
}

/**
 * Loads an opened archive into the empty database at `databaseUrl` and its files into `storage`;
 * `env` is the target's configuration, for its secrets key. Returns what the restored database
 * holds, counted after the load, for the caller to compare.
 */
export async function restoreBackup(options: {
  dir: string;
  manifest: Manifest;
  databaseUrl: string;
  storage: ObjectStorage;
  env: KeyEnv;
}): Promise<{ rows: Record<string, number>; ledger: Manifest["ledger"]; notRestored: string[] }> {
  const { dir, manifest } = options;
  const secrets = await restoreSecrets(options.env, await archiveSecretsKeys(dir, manifest));
  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  let migrations: string | null = null;
  try {
    await assertEmptyDatabase(client);
    migrations = await migrationsUpTo(manifest);
    await migrate(drizzle({ client, casing: "snake_case" }), { migrationsFolder: migrations });

    // The dump reads every table of the schema, an operator's own among them (an extension's
    // such as PostGIS's spatial_ref_sys, a reporting table): they stay in the archive, and only
    // the tables the migrations built are loaded, so a foreign table never fails the restore.
    const { rows: built } = await client.query<{ name: string }>(
      "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'",
    );
    const ours = new Set(built.map((b) => b.name));
    const tables = Object.keys(manifest.tables).filter((table) => ours.has(table));
    const notRestored = Object.keys(manifest.tables).filter((table) => !ours.has(table));
    const { rows: sequenceRows } = await client.query<{ name: string }>("select sequencename as name from pg_sequences where schemaname = 'public'");
    const sequences = new Set(sequenceRows.map((r) => r.name));
    const order = await tablesInLoadOrder(client, tables);
    await client.query("begin");
    for (const table of tables) await client.query(`alter table ${quote(table)} disable trigger user`);
    for (const table of order) {
      const entry = manifest.tables[table];
      if (entry) await loadTable(client, dir, table, entry);
    }
    for (const [sequence, value] of Object.entries(manifest.sequences)) {
      if (value !== null && sequences.has(sequence)) await client.query("select setval($1::regclass, $2::bigint)", [quote(sequence), value]);
    }
    for (const table of tables) await client.query(`alter table ${quote(table)} enable trigger user`);
    if (secrets) {
      const { unreadable } = await resealSecrets(drizzle({ client, casing: "snake_case" }), secrets.box);
      if (unreadable > 0) {
        throw new RestoreRefused(
          `${unreadable} authenticator-app keys in the archive open with none of ${secrets.box.source}. ` +
            "Set SECRETS_KEY to the key of the server the backup was made on, or leave it unset to use the archive's. No rows were kept; drop the database's tables before trying again.",
        );
      }
    }
    const rows: Record<string, number> = {};
    for (const table of tables) {
      const { rows: counted } = await client.query<{ count: number }>(`select count(*)::int as count from ${quote(table)}`);
      rows[table] = counted[0]?.count ?? 0;
      if (rows[table] !== manifest.tables[table]?.rows) {
        throw new RestoreRefused(`${table} has ${rows[table]} rows after the load, the manifest says ${manifest.tables[table]?.rows}. No rows were kept; drop the database's tables before trying again.`);
      }
    }
    const ledger = await ledgerSums(client);
    await client.query("commit");
    if (secrets?.adopt) await writeSecretsKeyFile(options.env.DATA_DIR, secrets.adopt);

    for (const file of manifest.files) {
      await options.storage.put(file.key, await readFile(join(dir, "files", file.key)), file.contentType);
    }
    return { rows, ledger, notRestored };
  } catch (err) {
    await client.query("rollback").catch(() => undefined);
    throw err;
  } finally {
    await client.end();
    if (migrations) await rm(migrations, { recursive: true, force: true });
  }
}
