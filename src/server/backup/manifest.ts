// What a backup archive holds, written as manifest.json at its root (docs/operations.md).

export interface Manifest {
  format: 1;
  /** package.json's version of the code that wrote it. */
  appVersion: string;
  createdAt: string;
  postgresVersion: string;
  /** Migrations applied: how many, and the last one's `when` from drizzle/meta/_journal.json. */
  migrations: { count: number; last: number | null };
  /** Each table's rows in the snapshot, its columns in file order, the file and its SHA-256. */
  tables: Record<string, { rows: number; columns: string[]; file: string; sha256: string }>;
  /** Each sequence's last value, so new rows continue after the restored ones. */
  sequences: Record<string, string | null>;
  ledger: { entries: number; totalCents: number; centsByAccountKind: Record<string, number> };
  /** Uploaded files the snapshot's rows name, stored under files/<key>. */
  files: { key: string; contentType: string; bytes: number; sha256: string }[];
  /** Files a row names that storage did not have (deleted after the snapshot, or lost before it). */
  missingFiles: string[];
  /**
   * The keys the database's sealed secrets open with, one a line in `file`, the current first
   * (docs/decisions/069-secrets-at-rest-and-encrypted-backups.md); absent in archives made before
   * them, and when the server had not made its key yet.
   */
  secretsKeys?: { file: string; keys: number; sha256: string };
}
