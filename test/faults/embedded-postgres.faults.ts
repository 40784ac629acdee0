import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../src/server/seed/demo.js";
import { testPostgres, type PostgresDatabase } from "../postgres-cluster.js";
import { newSecretsKey, SecretBox } from "../../src/server/secrets/secret-box.js";
import { INSTANCE_SECRETS_KEY, startServer, type ServerProcess } from "./server-process.js";

// The platform under the product: the embedded PostgreSQL that `npm start` runs, the admin command
// beside a running server, recovery after a crash, and instances that start at the same moment.

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, "..", "..");
const started: ServerProcess[] = [];
const databases: PostgresDatabase[] = [];

afterAll(async () => {
  // All stopped before any directory goes: a later server may run on an earlier one's directory.
  for (const server of started) await server.stop();
  for (const server of started) server.cleanup();
  for (const database of databases) await database.destroy();
}, 120_000);

async function signIn(server: ServerProcess, email: string): Promise<string> {
  const res = await fetch(`${server.url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  expect(res.status).toBe(200);
  return res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
}

async function role(server: ServerProcess, cookie: string): Promise<string> {
  const res = await fetch(`${server.url}/api/auth/user`, { headers: { cookie } });
  return ((await res.json()) as { role: string }).role;
}

/** The postmaster's pid as its lock file records it. */
function postmasterPid(dataDir: string): number {
  return Number(readFileSync(join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0]);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
};

describe("embedded PostgreSQL", () => {
  it("serves the demo, says which database it uses, and lets the admin command work beside it", async () => {
    const server = await startServer({ env: { SEED_DEMO: "true" } });
    started.push(server);
    expect(server.output()).toMatch(/Database: embedded PostgreSQL \d+(\.\d+)? in .*\/postgres on 127\.0\.0\.1:\d+/);
    const cookie = await signIn(server, "poster@errandly.test");
    expect(await role(server, cookie)).toBe("user");

    // The command joins the running server's PostgreSQL (it does not start a second one on the same files).
    const env = { ...process.env, DATA_DIR: server.dataDir, DATABASE_URL: "", LOG_LEVEL: "silent" };
    const granted = await run(process.execPath, ["--import", "tsx", join(ROOT, "src/server/cli/admin.ts"), "grant", "poster@errandly.test"], { cwd: ROOT, env });
    expect(granted.stdout).toContain("poster@errandly.test is now an admin.");
    expect(await role(server, cookie)).toBe("admin");
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);
  });

  it("starts cleanly after the app was killed, and after PostgreSQL died too with its pid taken by another process", async () => {
    const first = await startServer({ env: { SEED_DEMO: "true" } });
    started.push(first);
    const dataDir = first.dataDir;
    const postmaster = postmasterPid(dataDir);

    // SIGKILL: no shutdown hook runs; the app's PostgreSQL outlives it and the next start joins it.
    await first.kill();
    expect(alive(postmaster)).toBe(true);
    const second = await startServer({ dataDir, env: { SEED_DEMO: "true" } });
    started.push(second);
    expect(second.output()).toContain("(already running)");
    await signIn(second, "provider@errandly.test");
    await second.kill();
    expect(alive(postmaster)).toBe(true);

    // Now PostgreSQL dies as in a power cut, and its pid is reused by an unrelated live process:
    // PostgreSQL alone would refuse to start ("lock file already exists").
    process.kill(postmaster, "SIGKILL");
    await expect.poll(() => alive(postmaster), { timeout: 30_000, interval: 50 }).toBe(false);
    const lockFile = join(dataDir, "postgres", "postmaster.pid");
    const lines = readFileSync(lockFile, "utf8").split("\n");
    lines[0] = String(process.pid);
    writeFileSync(lockFile, lines.join("\n"));
    const third = await startServer({ dataDir, env: { SEED_DEMO: "true" } });
    started.push(third);
    expect(third.output()).not.toContain("(already running)");
    // The demo data survived: its poster signs in (the admin would be asked for a second factor).
    await signIn(third, "poster@errandly.test");
  });

  it("keeps the demo to a local start: production seeds none and refuses SEED_DEMO and the demo logins a local start left", async () => {
    // A production start on an empty database: no demo data, nothing printed about it.
    const production = { NODE_ENV: "production", PUBLIC_URL: "https://errandly.example" };
    const deployed = await startServer({ env: { ...production, SEED_DEMO: "" } });
    started.push(deployed);
    expect(deployed.output()).not.toContain("Demo logins");
    const res = await fetch(`${deployed.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: production.PUBLIC_URL },
      body: JSON.stringify({ email: "admin@errandly.test", password: DEMO_PASSWORD }),
    });
    expect(res.status).toBe(401);
    await deployed.stop();

    // As `npm start` runs on the same, still empty, database: development, SEED_DEMO unset, loopback
    // (docs/decisions/066-demo-data-on-loopback-only.md).
    const local = await startServer({ dataDir: deployed.dataDir, env: { NODE_ENV: "development", SEED_DEMO: "" } });
    started.push(local);
    expect(local.output()).toContain("Demo logins (password for all: demo-harbor-lantern):");
    await signIn(local, "poster@errandly.test");
    await local.stop();

    await expect(startServer({ dataDir: local.dataDir, env: { ...production, SEED_DEMO: "true" } })).rejects.toThrow(
      /SEED_DEMO: must not be true when NODE_ENV is production/,
    );
    await expect(startServer({ dataDir: local.dataDir, env: { ...production, SEED_DEMO: "" } })).rejects.toThrow(
      /published demo password \(admin@errandly\.test, poster@errandly\.test, provider@errandly\.test\), and NODE_ENV is production/,
    );
  }, 300_000);
});

describe("several instances", () => {
  it("two instances started at the same moment on one empty database apply each migration once", async () => {
    const database = await testPostgres();
    databases.push(database);
    const [a, b] = await Promise.all([startServer({ databaseUrl: database.url }), startServer({ databaseUrl: database.url })]);
    started.push(a, b);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const applied = await client.query<{ hash: string }>("select hash from drizzle.__drizzle_migrations");
      const journal = JSON.parse(readFileSync(join(ROOT, "drizzle/meta/_journal.json"), "utf8")) as { entries: unknown[] };
      expect(applied.rowCount).toBe(journal.entries.length);
      expect(new Set(applied.rows.map((r) => r.hash)).size).toBe(journal.entries.length);
      // The ledger's append-only trigger is a migration too, so it exists once.
      const triggers = await client.query("select 1 from pg_trigger where tgname = 'ledger_entries_append_only'");
      expect(triggers.rowCount).toBe(1);
    } finally {
      await client.end();
    }
    for (const server of [a, b]) expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });

  it("refuses to start on a shared database with local uploads unless STORAGE_DIR names a shared directory", async () => {
    const database = await testPostgres();
    databases.push(database);
    const refused = await startServer({ databaseUrl: database.url, env: { STORAGE_DIR: "" } }).then(
      () => "started",
      (err: Error) => err.message,
    );
    expect(refused).toMatch(/STORAGE_DIR: is required when DATABASE_URL is set and S3 is not/);
  });

  it("seals the plain authenticator keys an older version left at start, and refuses to start without the key that sealed them", async () => {
    const database = await testPostgres();
    databases.push(database);
    const refusedStart = (env: Record<string, string>) =>
      startServer({ databaseUrl: database.url, env }).then(
        (server) => {
          started.push(server);
          return "started";
        },
        (err: Error) => err.message,
      );
    // Instances on one database must share the key: none given, no start.
    expect(await refusedStart({ SECRETS_KEY: "" })).toMatch(/SECRETS_KEY: is required when DATABASE_URL is set/);

    // A first start migrates; then a row as the versions before decision 069 wrote it.
    const first = await startServer({ databaseUrl: database.url });
    started.push(first);
    await first.stop();
    const secret = "KRUGKIDROVUWG2ZAMJZG653OEBTG66BA";
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ id: string }>("insert into users (email, first_name, last_name) values ('old-app@example.test', 'Old', 'App') returning id");
      const userId = rows[0]?.id ?? "";
      await client.query("insert into totp_factors (user_id, secret, confirmed_at) values ($1, $2, now())", [userId, secret]);

      const second = await startServer({ databaseUrl: database.url });
      started.push(second);
      const { rows: stored } = await client.query<{ secret: string }>("select secret from totp_factors where user_id = $1", [userId]);
      expect(stored[0]?.secret).toMatch(/^v1:/);
      expect(new SecretBox([INSTANCE_SECRETS_KEY], "SECRETS_KEY").open(stored[0]?.secret ?? "", `totp_factors.secret:${userId}`)).toBe(secret);
      await second.stop();

      // Another key: the start stops with the sentence, not every sign-in after it.
      expect(await refusedStart({ SECRETS_KEY: newSecretsKey() })).toMatch(
        /The database holds 1 authenticator-app key that SECRETS_KEY cannot decrypt: another key sealed it\. Start with that key/,
      );
    } finally {
      await client.end();
    }
  });
});
