import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, copyFile, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { generateSync } from "otplib";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createStorage } from "../adapters/storage/create-storage.js";
import { STUCK_PROCESSING_MS } from "../../shared/money-lifecycle.js";
import { buildApp } from "../app.js";
import { parseEnv } from "../config/env.js";
import { migrateDatabase, openDatabase, queryRows } from "../db/client.js";
import { databaseServer } from "../db/database-server.js";
import { payments } from "../db/schema/payments.js";
import { uploads } from "../db/schema/providers.js";
import { totpFactors } from "../db/schema/security.js";
import { newTotpSecret, sealTotpSecret, useTotpCode } from "../features/auth/totp.js";
import { PROJECT_ROOT } from "../paths.js";
import { newSecretsKey, SecretBox, secretsKeyFile } from "../secrets/secret-box.js";
import { checkInvariants, installTransitionLog } from "../../../test/faults/invariants.js";
import { createPoster, startPayment, taskAt } from "../../../test/fixtures/factory.js";
import { tinyPng } from "../../../test/fixtures/test-files.js";
import { call, createUser, useTestApp } from "../../../test/create-test-app.js";
import { freshDatabase } from "../../../test/postgres-cluster.js";
import { readBackupKey } from "../cli/backup-key.js";
import { keyFromIdentityFile, newBackupKey } from "./archive-crypto.js";
import { writeBackup } from "./dump.js";
import type { Manifest } from "./manifest.js";
import { isEmptyDirectory, openArchive, restoreBackup, RestoreRefused } from "./restore.js";

// npm run backup and npm run restore (docs/operations.md): an archive taken while tasks are posted,
// paid and finished is one moment (the ledger balances, every invariant holds), and restored into a
// new DATA_DIR it starts and holds exactly the rows, ledger sums and files its manifest lists. The
// archive is written for the operator's backup key alone, readable by its owner alone, with no
// byte of the data in the clear, and a wrong key restores nothing
// (docs/decisions/069-secrets-at-rest-and-encrypted-backups.md).

const work = await mkdtemp(join(tmpdir(), "errandly-backup-test-"));
// The embedded PostgreSQL runs as its own account when the tests run as root: it must reach its folder.
await chmod(work, 0o755);
afterAll(() => rm(work, { recursive: true, force: true }));

const t = await useTestApp({ DATA_DIR: join(work, "source"), TASKS_PER_HOUR: "1000" });
const storage = await createStorage(t.env);
const png = tinyPng();

/** The operator's backup key: the server gets the public half (BACKUP_RECIPIENT), restore the rest. */
const backupKey = await newBackupKey(t.clock.now());
const identity = keyFromIdentityFile(backupKey.file) ?? "";
const withKey = () => Promise.resolve(identity);

/** A person with an authenticator app whose key the test knows: neither may be read in an archive. */
const known = await createUser(t, { email: `known-${randomUUID().slice(0, 8)}@example.test` });
const knownSecret = newTotpSecret();
await t.database.db.insert(totpFactors).values({ userId: known.id, secret: sealTotpSecret(t.app.ctx.secrets, known.id, knownSecret), confirmedAt: t.clock.now() });

/** Runs one of the npm run backup / restore commands as the operator does, through tsx. */
function command(script: "backup" | "restore", args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", join(PROJECT_ROOT, "src/server/cli", `${script}.ts`), ...args],
      { cwd: PROJECT_ROOT, env: { PATH: process.env.PATH ?? "", NODE_ENV: "test", LOG_LEVEL: "silent", ...env } },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The restore folders in the temporary directory: a refused restore leaves none. */
const restoreFolders = async () => (await readdir(tmpdir())).filter((name) => name.startsWith("errandly-restore-")).sort();

/** This file's database URL: the run's server (the template's) and this file's own database. */
async function sourceUrl(): Promise<string> {
  const [row] = await queryRows<{ name: string }>(t.database.db, sql`select current_database() as name`);
  const url = new URL(inject("postgresTemplate"));
  url.pathname = `/${row?.name ?? ""}`;
  return url.toString();
}

/** Row counts of every table of ours and the ledger's sums, as the manifest records them. */
async function census(db: typeof t.database.db, tables: string[]) {
  const rows: Record<string, number> = {};
  for (const table of tables) {
    const [counted] = await queryRows<{ count: number }>(db, sql`select count(*)::int as count from ${sql.identifier(table)}`);
    rows[table] = counted?.count ?? 0;
  }
  const ledger = await queryRows<{ kind: string; cents: string }>(
    db,
    sql`select split_part(account, ':', 1) as kind, sum(amount_cents)::text as cents from ledger_entries group by 1`,
  );
  return { rows, ledger: Object.fromEntries(ledger.map((l) => [l.kind, Number(l.cents)])) };
}

/** A table of the operator's own beside ours (an extension's, a report's): archived, never loaded. */
const FOREIGN_TABLE = "operator_notes";

/** The manifest's row counts of Errandly's tables. */
const tableRows = (manifest: Manifest) =>
  Object.fromEntries(Object.entries(manifest.tables).flatMap(([name, table]) => (name === FOREIGN_TABLE ? [] : [[name, table.rows]])));

describe("backup and restore", () => {
  const archive = join(work, "errandly.tar.gz");
  let manifest: Manifest;

  it("writes one consistent moment while tasks are posted, paid and finished", async () => {
    // Before: money in every state, and an uploaded file the database names.
    for (const stage of ["open", "paid", "in_progress", "completed", "cancelled"] as const) await taskAt(t, stage);
    // A card confirm cut off mid-way, as a killed process leaves one (the writes below may leave more).
    const cutOff = await taskAt(t, "claimed");
    const { payment } = await startPayment(t, cutOff.poster, cutOff.task);
    await t.database.db.update(payments).set({ status: "processing", updatedAt: t.clock.now() }).where(eq(payments.id, payment.id));
    await t.database.db.execute(sql.raw(`create table ${FOREIGN_TABLE} (id serial primary key, note text not null)`));
    await t.database.db.execute(sql.raw(`insert into ${FOREIGN_TABLE} (note) values ('kept by the operator')`));
    const poster = await createPoster(t);
    const key = `task/${randomUUID()}`;
    await storage.put(key, png, "image/png");
    await t.database.db.insert(uploads).values({
      ownerId: poster.id,
      kind: "task_photo",
      tokenHash: randomUUID(),
      storageKey: key,
      contentType: "image/png",
      sizeBytes: png.length,
      expiresAt: t.clock.now(),
      usedAt: t.clock.now(),
    });

    // Writes go on for as long as the backup runs: each loop posts, pays and finishes a task.
    let backingUp = true;
    let writes = 0;
    const writer = (async () => {
      while (backingUp) {
        await taskAt(t, "completed");
        writes++;
      }
    })();
    manifest = await writeBackup({
      databaseUrl: await sourceUrl(),
      storage,
      archive,
      recipient: backupKey.recipient,
      secrets: t.app.ctx.secrets,
      now: t.clock.now(),
    }).finally(() => (backingUp = false));
    await writer;

    expect(writes).toBeGreaterThan(0);
    const live = await census(t.database.db, Object.keys(manifest.tables));
    // The archive is a moment before the last writes, not a mix of before and after.
    expect(live.rows.tasks).toBeGreaterThan(manifest.tables.tasks?.rows ?? 0);
    expect(manifest.tables.tasks?.rows).toBeGreaterThanOrEqual(5);
    expect(manifest.ledger.totalCents).toBe(0);
    expect(manifest.ledger.entries).toBe(manifest.tables.ledger_entries?.rows);
    expect(manifest.files).toEqual([{ key, contentType: "image/png", bytes: png.length, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    expect(manifest.missingFiles).toEqual([]);
    expect(manifest.migrations.count).toBeGreaterThan(0);
    expect(manifest.tables[FOREIGN_TABLE]?.rows).toBe(1);
    expect(manifest.secretsKeys).toEqual({ file: "secrets.key", keys: 1, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it("writes the archive readable by its owner alone, encrypted, and leaves nothing else behind", async () => {
    expect((await stat(archive)).mode & 0o777).toBe(0o600);
    // The staging folder and the half-written archive are gone.
    expect(await readdir(work)).toEqual(expect.not.arrayContaining([expect.stringMatching(/^\.errandly-backup-|\.partial$/)]));
    const bytes = await readFile(archive);
    expect(bytes.subarray(0, 22).toString("latin1")).toBe("age-encryption.org/v1\n");
    // Neither a person's e-mail nor an authenticator app's key is in it in the clear.
    expect(bytes.includes(known.email)).toBe(false);
    expect(bytes.includes(knownSecret)).toBe(false);

    // Opened with the key: the e-mail is there (so the search above can find what it looks for),
    // the app's key is not, sealed as in the database, and every file made is its owner's alone.
    const opened = await openArchive(archive, withKey);
    try {
      expect(opened.encrypted).toBe(true);
      expect(await readFile(join(opened.dir, "db", "users.jsonl"), "utf8")).toContain(known.email);
      const factors = await readFile(join(opened.dir, "db", "totp_factors.jsonl"), "utf8");
      expect(factors).toContain(known.id);
      expect(factors).not.toContain(knownSecret);
      const modes = new Set<string>();
      const walk = async (dir: string): Promise<void> => {
        for (const entry of await readdir(dir, { withFileTypes: true })) {
          const path = join(dir, entry.name);
          modes.add(`${entry.isDirectory() ? "dir" : "file"} ${((await stat(path)).mode & 0o777).toString(8)}`);
          if (entry.isDirectory()) await walk(path);
        }
      };
      await walk(opened.dir);
      expect([...modes].sort()).toEqual(["dir 700", "file 600"]);
    } finally {
      await opened.close();
    }
  });

  it("restores into a new DATA_DIR that starts with the manifest's rows, ledger and files", async () => {
    const target = join(work, "restored");
    expect(await isEmptyDirectory(target)).toBe(true);
    const env = parseEnv({ NODE_ENV: "test", LOG_LEVEL: "silent", SEED_DEMO: "false", DATA_DIR: target });
    const server = await databaseServer(env, "app");
    afterAll(() => server.release());
    const opened = await openArchive(archive, withKey);
    try {
      const restored = await restoreBackup({ ...opened, databaseUrl: server.url, storage: await createStorage(env), env });
      expect(restored.rows).toEqual(tableRows(manifest));
      expect(restored.ledger).toEqual(manifest.ledger);
      // The operator's own table stays in the archive, said so, and fails nothing.
      expect(restored.notRestored).toEqual([FOREIGN_TABLE]);
    } finally {
      await opened.close();
    }

    // Started as the server starts: newer migrations (none here), then the app on it.
    await migrateDatabase(server.url);
    const database = await openDatabase({ databaseUrl: server.url, poolSize: 2 });
    const app = await buildApp({ env, database, logger: false, now: () => t.clock.now() });
    afterAll(async () => {
      await app.close();
      await database.close();
    });
    const back = await census(database.db, Object.keys(tableRows(manifest)));
    expect(back.rows).toEqual(tableRows(manifest));
    expect(back.ledger).toEqual(manifest.ledger.centsByAccountKind);
    // The fault suite's invariants hold on the restored rows, but for the one that counts claims in
    // the transition log its trigger writes from the start of a run: here the log starts empty.
    // The card confirms cut off mid-way ("processing") came back as they were; the restored
    // instance's stuck-payment sweep hands them back after its window, as on any restart.
    const [processing] = await queryRows<{ count: number }>(database.db, sql`select count(*)::int as count from payments where status = 'processing'`);
    expect(processing?.count).toBeGreaterThan(0);
    t.clock.advance(STUCK_PROCESSING_MS);
    await app.ctx.scheduler.runAll();
    await installTransitionLog(database.db);
    const { violations } = await checkInvariants(database.db);
    expect(violations.filter((v) => !v.startsWith("the poster got one 'task claimed' notice per claim"))).toEqual([]);
    const [file] = manifest.files;
    expect(await (await createStorage(env)).get(file?.key ?? "")).toEqual(png);
    // The restored instance answers: its job board lists the open tasks the backup held.
    const board = await call({ ...t, app, database }, null, { url: "/api/tasks/open?pageSize=100" });
    expect(board.statusCode).toBe(200);
    const [open] = await queryRows<{ count: number }>(database.db, sql`select count(*)::int as count from tasks where status = 'open'`);
    expect(board.json<unknown[]>()).toHaveLength(open?.count ?? -1);
    expect(open?.count).toBeGreaterThan(0);
    // The new DATA_DIR took the archive's secrets key, so the authenticator apps still work there.
    expect((await readFile(secretsKeyFile(target), "utf8")).trim()).toBe(t.app.ctx.secrets.exportKeys()[0]);
    expect((await stat(secretsKeyFile(target))).mode & 0o777).toBe(0o600);
    const code = generateSync({ secret: knownSecret, epoch: Math.floor(t.clock.now().getTime() / 1000) });
    expect(await useTotpCode(database.db, app.ctx.secrets, known.id, code, t.clock.now())).toBe(true);

    // A second restore into the same place is refused: nothing is ever overwritten.
    expect(await isEmptyDirectory(target)).toBe(false);
    const again = await openArchive(archive, withKey);
    try {
      await expect(restoreBackup({ ...again, databaseUrl: server.url, storage: await createStorage(env), env })).rejects.toThrow(
        new RestoreRefused(
          "The target database is not empty: it already has tables. Restore into a new, empty database (or an empty DATA_DIR), so nothing is overwritten.",
        ),
      );
    } finally {
      await again.close();
    }
  });

  it("seals the restored apps' keys under the target's SECRETS_KEY when it has one of its own", async () => {
    const server = new URL(inject("postgresTemplate"));
    server.pathname = "/postgres";
    const target = await freshDatabase(server.toString());
    afterAll(() => target.destroy());
    const env = parseEnv({
      NODE_ENV: "test",
      DATA_DIR: join(work, "shared-target"),
      DATABASE_URL: target.url,
      STORAGE_DIR: join(work, "shared-objects"),
      SECRETS_KEY: newSecretsKey(),
    });
    const opened = await openArchive(archive, withKey);
    try {
      await restoreBackup({ ...opened, databaseUrl: target.url, storage: await createStorage(env), env });
    } finally {
      await opened.close();
    }
    // The target keeps its own key: nothing is written beside it, and the app's key opens with it.
    expect(existsSync(secretsKeyFile(env.DATA_DIR))).toBe(false);
    const database = await openDatabase({ databaseUrl: target.url, poolSize: 1 });
    afterAll(() => database.close());
    const later = new Date(t.clock.now().getTime() + 30_000);
    const code = generateSync({ secret: knownSecret, epoch: Math.floor(later.getTime() / 1000) });
    expect(await useTotpCode(database.db, new SecretBox([env.SECRETS_KEY ?? ""], "SECRETS_KEY"), known.id, code, later)).toBe(true);
  });

  it("refuses a wrong key before anything is written, and says which key it wants", async () => {
    const before = await restoreFolders();
    const other = keyFromIdentityFile((await newBackupKey(t.clock.now())).file) ?? "";
    await expect(openArchive(archive, () => Promise.resolve(other))).rejects.toThrow(
      new RestoreRefused(
        `The backup key given does not open ${archive}: it was encrypted for another key. ` +
          "Give the key (AGE-SECRET-KEY-1…) whose public half was BACKUP_RECIPIENT when this backup was made. Nothing was restored.",
      ),
    );
    await expect(openArchive(archive, () => Promise.resolve(backupKey.recipient))).rejects.toThrow(/That is not a backup key/);
    expect(await restoreFolders()).toEqual(before);

    // The command: the key in BACKUP_KEY is wrong, and the empty DATA_DIR stays as it was.
    const target = join(work, "not-restored");
    const refused = await command("restore", [archive], { DATA_DIR: target, BACKUP_KEY: other });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("The backup key given does not open");
    expect(existsSync(target)).toBe(false);
    // Without any key, and no terminal to type one in, it says where to give it.
    await expect(openArchive(archive, () => readBackupKey({}, undefined, false))).rejects.toThrow(
      /^This archive is encrypted\. Give its backup key with --key-file FILE .* Nothing was restored\.$/,
    );
  });

  it("refuses an encrypted archive altered after it was written", async () => {
    const altered = join(work, "altered.tar.gz.age");
    await copyFile(archive, altered);
    const bytes = await readFile(altered);
    const at = bytes.length - 100;
    bytes[at] = (bytes[at] ?? 0) ^ 0xff;
    await writeFile(altered, bytes);
    await expect(openArchive(altered, withKey)).rejects.toThrow(/is not a readable backup archive: it is damaged/);
  });

  it("makes a backup key, refuses to back up without one, and re-encrypts an archive for a new key", async () => {
    const noKey = await command("backup", [join(work, "never.tar.gz.age")], { DATA_DIR: join(work, "source") });
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toContain("npm run backup needs BACKUP_RECIPIENT, the public half of a backup key, to encrypt the archive.");
    expect(noKey.stderr).toContain("npm run backup -- --new-key backup-key.txt");
    expect(existsSync(join(work, "never.tar.gz.age"))).toBe(false);

    const keyFile = join(work, "new-backup-key.txt");
    const made = await command("backup", ["--new-key", keyFile], {});
    expect(made.code).toBe(0);
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    const recipient = /^BACKUP_RECIPIENT=(age1[0-9a-z]+)$/m.exec(made.stdout)?.[1] ?? "";
    expect(await readFile(keyFile, "utf8")).toContain(`# public key: ${recipient}`);
    const again = await command("backup", ["--new-key", keyFile], {});
    expect(again.stderr).toContain("exists already. Name a new file: a backup key is never overwritten.");

    // A change of backup key: the archive is written again for the new one, opened with the old.
    const rotated = join(work, "rotated.tar.gz.age");
    const reencrypted = await command("backup", ["--reencrypt", archive, rotated], { DATA_DIR: join(work, "source"), BACKUP_KEY: identity, BACKUP_RECIPIENT: recipient });
    expect(reencrypted.code).toBe(0);
    expect((await stat(rotated)).mode & 0o777).toBe(0o600);
    const newIdentity = keyFromIdentityFile(await readFile(keyFile, "utf8")) ?? "";
    const opened = await openArchive(rotated, () => Promise.resolve(newIdentity));
    expect(opened.manifest.tables.tasks?.rows).toBe(manifest.tables.tasks?.rows);
    await opened.close();
    await expect(openArchive(rotated, withKey)).rejects.toThrow(/does not open/);
  });

  it("refuses an archive that does not match its manifest", async () => {
    const { dir, close } = await openArchive(archive, withKey);
    const { execFile } = await import("node:child_process");
    const damaged = join(work, "damaged.tar.gz");
    try {
      const { appendFile } = await import("node:fs/promises");
      await appendFile(join(dir, "db", "tasks.jsonl"), "{}\n");
      await new Promise<void>((resolve, reject) => execFile("tar", ["-czf", damaged, "-C", dir, "."], (err) => (err ? reject(err) : resolve())));
    } finally {
      await close();
    }
    // A plain .tar.gz is what backups were before decision 069: still opened, and checked the same.
    await expect(openArchive(damaged, withKey)).rejects.toThrow(/db\/tasks\.jsonl .* does not match its manifest/);
  });
});
