import { randomUUID } from "node:crypto";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createStorage } from "../adapters/storage/create-storage.js";
import { STUCK_PROCESSING_MS } from "../../shared/money-lifecycle.js";
import { buildApp } from "../app.js";
import { parseEnv } from "../config/env.js";
import { migrateDatabase, openDatabase, queryRows } from "../db/client.js";
import { databaseServer } from "../db/database-server.js";
import { payments } from "../db/schema/payments.js";
import { uploads } from "../db/schema/providers.js";
import { checkInvariants, installTransitionLog } from "../../../test/faults/invariants.js";
import { createPoster, startPayment, taskAt } from "../../../test/fixtures/factory.js";
import { tinyPng } from "../../../test/fixtures/test-files.js";
import { call, useTestApp } from "../../../test/create-test-app.js";
import { writeBackup } from "./dump.js";
import type { Manifest } from "./manifest.js";
import { isEmptyDirectory, openArchive, restoreBackup, RestoreRefused } from "./restore.js";

// npm run backup and npm run restore (docs/operations.md): an archive taken while tasks are posted,
// paid and finished is one moment (the ledger balances, every invariant holds), and restored into a
// new DATA_DIR it starts and holds exactly the rows, ledger sums and files its manifest lists.

const work = await mkdtemp(join(tmpdir(), "errandly-backup-test-"));
// The embedded PostgreSQL runs as its own account when the tests run as root: it must reach its folder.
await chmod(work, 0o755);
afterAll(() => rm(work, { recursive: true, force: true }));

const t = await useTestApp({ DATA_DIR: join(work, "source"), TASKS_PER_HOUR: "1000" });
const storage = await createStorage(t.env);
const png = tinyPng();

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
    manifest = await writeBackup({ databaseUrl: await sourceUrl(), storage, archive, now: t.clock.now() }).finally(() => (backingUp = false));
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
  });

  it("restores into a new DATA_DIR that starts with the manifest's rows, ledger and files", async () => {
    const target = join(work, "restored");
    expect(await isEmptyDirectory(target)).toBe(true);
    const env = parseEnv({ NODE_ENV: "test", LOG_LEVEL: "silent", SEED_DEMO: "false", DATA_DIR: target });
    const server = await databaseServer(env, "app");
    afterAll(() => server.release());
    const opened = await openArchive(archive);
    try {
      const restored = await restoreBackup({ ...opened, databaseUrl: server.url, storage: await createStorage(env) });
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

    // A second restore into the same place is refused: nothing is ever overwritten.
    expect(await isEmptyDirectory(target)).toBe(false);
    const again = await openArchive(archive);
    try {
      await expect(restoreBackup({ ...again, databaseUrl: server.url, storage: await createStorage(env) })).rejects.toThrow(
        new RestoreRefused(
          "The target database is not empty: it already has tables. Restore into a new, empty database (or an empty DATA_DIR), so nothing is overwritten.",
        ),
      );
    } finally {
      await again.close();
    }
  });

  it("refuses an archive that does not match its manifest", async () => {
    const { dir, close } = await openArchive(archive);
    const { execFile } = await import("node:child_process");
    const damaged = join(work, "damaged.tar.gz");
    try {
      const { appendFile } = await import("node:fs/promises");
      await appendFile(join(dir, "db", "tasks.jsonl"), "{}\n");
      await new Promise<void>((resolve, reject) => execFile("tar", ["-czf", damaged, "-C", dir, "."], (err) => (err ? reject(err) : resolve())));
    } finally {
      await close();
    }
    await expect(openArchive(damaged)).rejects.toThrow(/db\/tasks\.jsonl .* does not match its manifest/);
  });
});
