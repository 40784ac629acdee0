import pg from "pg";
import { openDatabase } from "../src/server/db/client.js";
import { openEmbeddedPostgres } from "../src/server/db/embedded-postgres.js";
import { openTasksSql } from "../src/server/features/tasks/board-query.js";
import { openTasksQuerySchema } from "../src/shared/tasks.js";
import { benchArgs } from "./args.js";

// EXPLAIN (ANALYZE, BUFFERS) of the job board's statements exactly as the app sends them, on a
// database you seeded (bench:load --seed-only, or a bench:jobs run's DATA_DIR while it serves), for
// docs/benchmarks.md (issue 32: the board at a million tasks).
//
//   npx tsx bench/explain-board.ts --database=postgres://…|/data/dir   (a DATA_DIR's embedded server is started, or joined)

const args = benchArgs();
const target = args.get("database");
if (!target) throw new Error("--database=postgres://… or a DATA_DIR is required");
const embedded = /^postgres(ql)?:\/\//.test(target) ? null : await openEmbeddedPostgres({ dir: target });
const url = embedded?.url ?? target;

const QUERIES: Record<string, Record<string, string>> = {
  "no filter": {},
  "category=delivery": { category: "delivery" },
  "search=grocery": { search: "grocery" },
  "near=21401&radiusMiles=10": { near: "21401", radiusMiles: "10" },
  "near=21701&radiusMiles=5 (none)": { near: "21701", radiusMiles: "5" },
};

const database = await openDatabase({ databaseUrl: url, poolSize: 1 });
const client = new pg.Client({ connectionString: url });
await client.connect();
try {
  const [{ count }] = (await client.query<{ count: string }>("select count(*) from tasks where status = 'open'")).rows as [{ count: string }];
  console.log(`open tasks: ${Number(count).toLocaleString("en-US")}`);
  for (const [name, query] of Object.entries(QUERIES)) {
    const { sql: text, params } = openTasksSql({ db: database.db, now: () => new Date() }, openTasksQuerySchema.parse(query));
    // Once to warm the cache, as a server that has been up; then the plan that counts.
    await client.query(text, params);
    const { rows } = await client.query<{ "QUERY PLAN": string }>(`explain (analyze, buffers) ${text}`, params);
    console.log(`\n### ${name}\n\n\`\`\`\n${rows.map((r) => r["QUERY PLAN"]).join("\n")}\n\`\`\``);
  }
} finally {
  await client.end();
  await database.close();
  if (embedded?.owned) await embedded.stop("fast");
}
