import { randomBytes } from "node:crypto";
import { migrateDatabase, openDatabase } from "../src/server/db/client.js";
import { openEmbeddedPostgres } from "../src/server/db/embedded-postgres.js";
import { loadSecretBox, SecretBox } from "../src/server/secrets/secret-box.js";
import { seedDemoData } from "../src/server/seed/demo.js";

// The demo's tasks for a production-mode server that a measurement wants them on (bench:lighthouse,
// bench:slow). Such a server refuses SEED_DEMO and any demo account that signs in with the published
// password (docs/decisions/066-demo-data-on-loopback-only.md), so the demo data goes in before it
// starts, its accounts behind a password nobody knows.

/**
 * Migrates the database at `databaseUrl` and seeds it so, the demo admin's authenticator key sealed
 * under `secretsKey`, the SECRETS_KEY the server then starts with (decision 069).
 */
export async function seedDemoTasks(databaseUrl: string, secretsKey: string): Promise<void> {
  await seedWith(databaseUrl, new SecretBox([secretsKey], "SECRETS_KEY"));
}

async function seedWith(databaseUrl: string, secrets: SecretBox): Promise<void> {
  await migrateDatabase(databaseUrl);
  const database = await openDatabase({ databaseUrl, poolSize: 1 });
  try {
    await seedDemoData(database.db, secrets, new Date(), randomBytes(24).toString("base64url"));
  } finally {
    await database.close();
  }
}

/**
 * The same in the embedded PostgreSQL under `dataDir`, which the server then starts as its own,
 * with the key file it then finds there (DATA_DIR/secrets.key, made here).
 */
export async function seedEmbeddedDemoTasks(dataDir: string): Promise<void> {
  const embedded = await openEmbeddedPostgres({ dir: dataDir });
  try {
    await seedWith(embedded.url, await loadSecretBox({ DATA_DIR: dataDir, SECRETS_KEY: undefined, SECRETS_KEY_PREVIOUS: undefined }));
  } finally {
    if (embedded.owned) await embedded.stop("fast");
  }
}
