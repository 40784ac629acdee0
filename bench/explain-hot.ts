import pg from "pg";
import { migrateDatabase, openDatabase } from "../src/server/db/client.js";
import { openEmbeddedPostgres } from "../src/server/db/embedded-postgres.js";
import { sessionByToken } from "../src/server/features/auth/sessions.js";
import { openTasksSql } from "../src/server/features/tasks/board-query.js";
import { insertMessageStatement } from "../src/server/features/chat/repository.js";
import { findReceipt } from "../src/server/features/payments/receipt-ledger.js";
import { taskDetailStatement } from "../src/server/features/tasks/task-views.js";
import type { AppContext } from "../src/server/context.js";
import type { Db } from "../src/server/db/client.js";
import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { openTasksQuerySchema } from "../src/shared/tasks.js";
import { benchArgs } from "./args.js";

// The hot named statements of bench:load's mix as the app prepares them, on a seeded database
// (bench:load --seed-only, or a copy of a bench/builds.ts seed, migrated to this checkout's schema
// first): for each, whether PostgreSQL kept one generic plan after its first runs or plans it again
// on every run (pg_prepared_statements' generic and custom plan counts, on the same connection the
// statement was prepared on, as each pooled connection of the app does), and EXPLAIN (ANALYZE,
// BUFFERS) with its planning time (docs/profiles/2026-12-request-cost.md).
//
//   npx tsx bench/explain-hot.ts --database=postgres://…|/data/dir [--runs=10]

const args = benchArgs();
const target = args.get("database");
if (!target) throw new Error("--database=postgres://… or a DATA_DIR is required");
const RUNS = Number(args.get("runs") ?? 10);
const embedded = /^postgres(ql)?:\/\//.test(target) ? null : await openEmbeddedPostgres({ dir: target });
const url = embedded?.url ?? target;
await migrateDatabase(url);

const database = await openDatabase({ databaseUrl: url, poolSize: 1 });
const client = new pg.Client({ connectionString: url });
await client.connect();
try {
  const one = async (text: string) => (await client.query(text)).rows[0] as Record<string, string>;
  const session = await one("select token_hash from sessions order by created_at limit 1");
  const task = await one("select id from tasks where provider_id is not null order by created_at desc limit 1");
  const now = new Date().toISOString();
  const board = (query: Record<string, string>) => openTasksSql({ db: database.db, now: () => new Date() }, openTasksQuerySchema.parse(query));
  const cases: { name: string; text: string; values: unknown[]; write?: boolean }[] = [
    { name: "session_by_token", text: sessionByToken.sql, values: sessionByToken.values({ tokenHash: session?.token_hash, now }) },
    { name: "task_detail", text: taskDetailStatement.sql, values: taskDetailStatement.values({ id: task?.id }) },
    ...[
      ["board newest", {}],
      ["board category", { category: "delivery" }],
      ["board search", { search: "grocery" }],
      ["board budget", { sort: "budget_desc" }],
      ["board page 3", { page: "3" }],
    ].map(([name, query]) => {
      const built = board(query as Record<string, string>);
      return { name: name as string, text: built.sql, values: built.params };
    }),
  ];
  // The receipt read at every capture (features/payments/repository.ts) is not a named statement:
  // its text is caught from a stand-in executor, then planned like the app's unnamed run is, each time.
  let caught: SQL | null = null;
  const catcher = { execute: async (query: SQL) => ((caught = query), { rows: [] }) } as unknown as Db;
  await findReceipt({} as AppContext, "00000000-0000-0000-0000-000000000000", catcher);
  const receipt = caught ? new PgDialect({ casing: "snake_case" }).sqlToQuery(caught) : null;
  const unnamed = receipt ? [{ name: "receipt (unnamed)", text: receipt.sql, values: receipt.params }] : [];
  // The chat insert is a write: explained inside a transaction that is rolled back.
  const chatTask = await one("select id, user_id from tasks where status = 'in_progress' limit 1");
  const chat = insertMessageStatement.values({
    key: `chat:${chatTask?.user_id}`, at: now, windowStart: new Date(Date.now() - 60_000).toISOString(),
    taskId: chatTask?.id, senderId: chatTask?.user_id, content: "On my way, 20 minutes out.", maskedContent: "On my way, 20 minutes out.", now,
  });
  for (const c of unnamed) {
    const { rows } = await client.query<{ "QUERY PLAN": string }>(`explain (analyze, buffers) ${c.text}`, c.values);
    console.log(`\n### ${c.name}\n\nsent unnamed: planned on every run\n\n\`\`\`\n${rows.map((r) => r["QUERY PLAN"]).join("\n")}\n\`\`\``);
  }
  // The chat insert writes: its runs and its EXPLAIN are rolled back.
  cases.push({ name: "chat_insert_message", text: insertMessageStatement.sql, values: chat, write: true });
  for (const c of cases) {
    if (c.write) await client.query("begin");
    const statementName = `explain_hot_${c.name.replace(/\W+/g, "_")}`;
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const began = performance.now();
      await client.query({ name: statementName, text: c.text, values: c.values });
      times.push(performance.now() - began);
    }
    const plans = await one(`select generic_plans, custom_plans from pg_prepared_statements where name = '${statementName}'`);
    const { rows } = await client.query<{ "QUERY PLAN": string }>(`explain (analyze, buffers) ${c.text}`, c.values);
    if (c.write) await client.query("rollback");
    console.log(
      `\n### ${c.name}\n\nprepared and run ${RUNS} times on one connection: ${plans?.generic_plans} generic plans, ${plans?.custom_plans} custom plans` +
        ` (a custom plan is made on every run); last run ${times.at(-1)?.toFixed(2)} ms round trip\n\n\`\`\`\n${rows.map((r) => r["QUERY PLAN"]).join("\n")}\n\`\`\``,
    );
  }
} finally {
  await client.end();
  await database.close();
  if (embedded?.owned) await embedded.stop("fast");
}
