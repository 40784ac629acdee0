// bench:pooler — issue 32's failure and its fix: one built instance with DATABASE_URL at Debian's
// PgBouncer 1.18 (deploy/pgbouncer.ini, transaction mode), 1,200 signed-in requests 25 at a time,
// with DATABASE_POOL_MODE=session (named prepared statements) and =transaction (none); the 5xx
// count of each goes in docs/benchmarks.md (decision 051).
//
//   npm run bench:pooler
//   npm run bench:pooler -- --requests=1200 --concurrency=25     the defaults
import { openDatabase } from "../src/server/db/client.js";
import { startPostgresCluster } from "../test/postgres-cluster.js";
import { createActors } from "../test/faults/load.js";
import { startServer } from "../test/faults/server-process.js";
import { startPgBouncer } from "../test/faults/topology-processes.js";
import { benchArgs } from "./args.js";

const args = benchArgs();
const REQUESTS = Number(args.get("requests") ?? 1200);
const CONCURRENCY = Number(args.get("concurrency") ?? 25);

const pg = await startPostgresCluster();
const bouncer = await startPgBouncer(pg.url);
try {
  for (const mode of ["session", "transaction"] as const) {
    const server = await startServer({ databaseUrl: bouncer.url, env: { DATABASE_POOL_MODE: mode, DATABASE_LISTEN_URL: pg.url } });
    const db = await openDatabase({ databaseUrl: pg.url, poolSize: 2 });
    const actors = await createActors(db.db, 5, "poster");
    const paths = ["/api/auth/user", "/api/tasks/open", "/api/tasks/open?page=2", "/api/tasks/my-tasks"];
    const statuses = new Map<string, number>();
    let n = 0;
    const worker = async () => {
      while (n < REQUESTS) {
        const i = n++;
        const actor = actors[i % actors.length];
        if (!actor) throw new Error("no actor");
        const res = await fetch(`${server.url}${paths[i % paths.length]}`, { headers: { cookie: actor.cookie } });
        const text = await res.text();
        const key = res.status >= 500 ? `${res.status} ${text.slice(0, 80)}` : String(res.status);
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    console.log(`DATABASE_POOL_MODE=${mode}:`, Object.fromEntries(statuses));
    await db.close();
    await server.stop();
    server.cleanup();
  }
} finally {
  await bouncer.destroy();
  await pg.destroy();
}
