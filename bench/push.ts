import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { buildApp } from "../src/server/app.js";
import { parseEnv } from "../src/server/config/env.js";
import { migrateDatabase, openDatabase } from "../src/server/db/client.js";
import { openEmbeddedPostgres } from "../src/server/db/embedded-postgres.js";
import { users } from "../src/server/db/schema/users.js";
import { createSession } from "../src/server/features/auth/sessions.js";
import { insertApprovedProfile } from "../test/fixtures/approved-provider.js";
import { ALERT_NEAR_21401, taskNear21401 } from "../test/fixtures/task-bodies.js";
import { startLocalPushService, type LocalSubscription } from "../test/fakes/local-push-service.js";
import { benchArgs } from "./args.js";
import { percentile } from "./stats.js";

// Job-alert push benchmark (docs/benchmarks.md, "Job-alert pushes (bench:push)"; issue 30 asks that
// they arrive within seconds of the post): the real app in this process on the embedded PostgreSQL
// (a fresh DATA_DIR), --providers verified providers each with a job alert around Annapolis and one
// device on a push service on localhost (the web-push-testing package, as the server tests use), then
// --posts tasks posted one after another. Each figure is the time from sending the POST to the push's
// arrival, decrypted, at a device; every device must receive every post's push.
//
//   npm run bench:push
//   npm run bench:push -- --providers=20 --posts=20

const args = benchArgs();
const PROVIDERS = Number(args.get("providers") ?? 20);
const POSTS = Number(args.get("posts") ?? 20);
const ORIGIN = "http://localhost:3000";

const dataDir = mkdtempSync(join(tmpdir(), "errandly-bench-push-"));
const embedded = await openEmbeddedPostgres({ dir: dataDir });
await migrateDatabase(embedded.url);
const database = await openDatabase({ databaseUrl: embedded.url });
const env = parseEnv({
  NODE_ENV: "production",
  LOG_LEVEL: "silent",
  SEED_DEMO: "false",
  DATA_DIR: dataDir,
  PUBLIC_URL: ORIGIN,
  PUSH_SERVICE_HOSTS: "localhost",
});
const app = await buildApp({ env, database, logger: false });
const service = await startLocalPushService();

async function person(n: number, provider: boolean): Promise<{ id: string; cookie: string }> {
  const email = `bench-push-${n}@example.test`;
  const [user] = await database.db
    .insert(users)
    .values({ email, firstName: "Bench", lastName: `N${n}`, role: provider ? "provider" : "user", passwordHash: null, emailVerifiedAt: new Date() })
    .returning();
  if (!user) throw new Error("user not created");
  if (provider) await insertApprovedProfile(database.db, { id: user.id, email, fullName: `Bench N${n}`, bio: "Bench provider" });
  const token = await createSession(database.db, user.id, { idleDays: 7, absoluteDays: 30 }, new Date(), {}, { firstFactor: "password", secondFactor: null });
  return { id: user.id, cookie: `errandly_session=${token}` };
}

async function api(cookie: string, method: "GET" | "POST" | "PUT", url: string, payload?: unknown): Promise<unknown> {
  const res = await app.inject({ method, url, headers: { cookie, origin: ORIGIN }, ...(payload === undefined ? {} : { payload: payload as object }) });
  if (res.statusCode >= 300) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body}`);
  return res.json();
}

try {
  const devices: LocalSubscription[] = [];
  for (let i = 0; i < PROVIDERS; i += 1) {
    const provider = await person(i, true);
    await api(provider.cookie, "PUT", "/api/alerts", { alerts: [ALERT_NEAR_21401] });
    const { publicKey } = (await api(provider.cookie, "GET", "/api/push/key")) as { publicKey: string | null };
    if (!publicKey) throw new Error("push is off in the bench app");
    const device = await service.subscribe(publicKey);
    await api(provider.cookie, "POST", "/api/push/subscriptions", { endpoint: device.endpoint, keys: device.keys });
    devices.push(device);
  }
  const poster = await person(PROVIDERS, false);

  const latencies: number[] = [];
  for (let post = 0; post < POSTS; post += 1) {
    const started = performance.now();
    await api(poster.cookie, "POST", "/api/tasks", taskNear21401({ title: `Walk the dog ${post}` }));
    // Poll each device until it holds this post's push; a push later than 30 s counts as lost.
    const waiting = new Set(devices);
    while (waiting.size > 0) {
      if (performance.now() - started > 30_000) throw new Error(`post ${post}: ${waiting.size} of ${devices.length} devices had no push after 30 s`);
      // All devices at once, so a push is seen within one round trip to the push service of arriving.
      await Promise.all(
        [...waiting].map(async (device) => {
          if ((await service.received(device)).length > post) {
            latencies.push(performance.now() - started);
            waiting.delete(device);
          }
        }),
      );
    }
  }

  latencies.sort((a, b) => a - b);
  const ms = (p: number) => `${Math.round(percentile(latencies, p))} ms`;
  console.log(`job-alert pushes: ${POSTS} posts × ${PROVIDERS} devices = ${latencies.length} pushes, all delivered`);
  console.log(`post sent → push decrypted at the device: median ${ms(50)}, p95 ${ms(95)}, max ${ms(100)}`);
} finally {
  await service.close();
  await app.close();
  await database.close();
  await embedded.stop("fast");
  rmSync(dataDir, { recursive: true, force: true });
}
