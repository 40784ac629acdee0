import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";

// drizzle's migrator applies a migration only when its journal time is later than the last one the
// database recorded, and backups name their schema by that time (src/server/backup/restore.ts).
// Migrations written on parallel branches can carry times out of order; merged, one would be
// skipped on a database that had the later-timed one, and a restore would stop short of the rest.
describe("the migrations journal", () => {
  it("lists the migrations in file order with strictly increasing times", async () => {
    const journal = JSON.parse(await readFile(new URL("../../../drizzle/meta/_journal.json", import.meta.url), "utf8")) as {
      entries: { idx: number; when: number; tag: string }[];
    };
    journal.entries.forEach((entry, i) => {
      expect(entry.idx, entry.tag).toBe(i);
      expect(Number(entry.tag.slice(0, 4)), entry.tag).toBe(i);
      if (i > 0) expect(entry.when, entry.tag).toBeGreaterThan(journal.entries[i - 1]?.when ?? 0);
    });
  });
});
