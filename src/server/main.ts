import { buildApp } from "./app.js";
import { demoDataExposure, EnvError, parseEnv } from "./config/env.js";
import { migrateDatabase, openDatabase } from "./db/client.js";
import { databaseServer } from "./db/database-server.js";
import { protectSecretsAtRest, SecretsKeyMismatch } from "./secrets/at-rest.js";
import { DEMO_ADMIN_TOTP_SECRET, DEMO_PASSWORD, refusePublishedDemoLogins, seedDemoData } from "./seed/demo.js";

// The process entry: configuration, database, migrations, demo data, HTTP, graceful shutdown.

/** Stops an embedded PostgreSQL that this process started, when start-up fails after starting it. */
let releaseOnFailure: () => Promise<void> = async () => undefined;

async function main(): Promise<void> {
  let env;
  try {
    env = parseEnv(process.env);
  } catch (err) {
    if (err instanceof EnvError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }

  const server = await databaseServer(env, "app");
  releaseOnFailure = () => server.release();
  // Migrations hold a session lock and LISTEN a session: both go direct when DATABASE_URL is a
  // transaction pooler (docs/decisions/051-pooler-and-topology.md).
  const directUrl = env.DATABASE_LISTEN_URL ?? server.url;
  await migrateDatabase(directUrl);
  const database = await openDatabase({
    databaseUrl: server.url,
    poolSize: env.DATABASE_POOL_SIZE,
    poolMode: env.DATABASE_POOL_MODE,
    listenUrl: directUrl,
  });
  // Demo data only where nobody else can reach it (docs/decisions/066-demo-data-on-loopback-only.md):
  // env.ts refused SEED_DEMO=true elsewhere; demo logins an earlier local start left stop it too.
  const exposure = demoDataExposure(env);
  const refusal = exposure ? await refusePublishedDemoLogins(database.db, exposure) : null;
  if (refusal) {
    console.error(refusal);
    await database.close();
    await server.release();
    process.exit(1);
  }
  const app = await buildApp({ env, database, startScheduler: true });
  // Plain authenticator keys an older version wrote are sealed, and a wrong key stops the start
  // here rather than every sign-in later (docs/decisions/069-secrets-at-rest-and-encrypted-backups.md).
  const resealed = await protectSecretsAtRest(app.ctx.db, app.ctx.secrets);
  if (resealed.sealed + resealed.resealed > 0) app.log.info(resealed, "sealed the authenticator apps' keys under the current secrets key");

  if (env.SEED_DEMO) {
    const seeded = await seedDemoData(app.ctx.db, app.ctx.secrets, app.ctx.now());
    if (seeded) app.log.info("seeded an empty database with demo data");
  }

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down");
    // Readiness turns 503 first and the instance keeps answering for DRAIN_DELAY_MS, so the load
    // balancer takes it out before it stops listening; then in-flight requests finish, sockets
    // are told to reconnect (1012) and the database closes (docs/deploy.md, "Rolling restart").
    app.health.startDraining();
    const force = setTimeout(() => process.exit(1), env.DRAIN_DELAY_MS + 10_000);
    force.unref();
    new Promise((resolve) => setTimeout(resolve, env.DRAIN_DELAY_MS))
      .then(() => app.close())
      .then(() => database.close())
      .then(() => server.release())
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        app.log.error({ err }, "shutdown failed");
        process.exit(1);
      });
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));

  const address = await app.listen({ port: env.PORT, host: env.HOST });
  const url = env.PUBLIC_URL;
  console.log(`\nErrandly is running at ${url} (listening on ${address})`);
  console.log(`Database: ${server.description}`);
  if (env.SEED_DEMO) {
    console.log(`Demo logins (password for all: ${DEMO_PASSWORD}):`);
    console.log("  poster    poster@errandly.test");
    console.log("  provider  provider@errandly.test");
    console.log("  admin     admin@errandly.test");
    console.log(`            second factor: add the key ${DEMO_ADMIN_TOTP_SECRET} to an authenticator app\n`);
  }
}

main().catch(async (err: unknown) => {
  console.error(err instanceof SecretsKeyMismatch ? err.message : err);
  await releaseOnFailure().catch(() => undefined);
  process.exit(1);
});
