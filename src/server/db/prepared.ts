import type { Db } from "./client.js";

// Hot statements are built by drizzle once per database and then only executed: building one
// costs more CPU than running it (docs/benchmarks.md, "Mixed load", profiles of issue 16).

const statements = new WeakMap<Db, Map<string, unknown>>();

/** The statement `build` makes, made once for `db` under `name` (one name, one statement). */
export function preparedOnce<T>(db: Db, name: string, build: () => T): T {
  let byName = statements.get(db);
  if (!byName) {
    byName = new Map();
    statements.set(db, byName);
  }
  if (!byName.has(name)) byName.set(name, build());
  return byName.get(name) as T;
}
