import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { openDatabase, type Database } from "../src/server/db/client.js";
import { tasks } from "../src/server/db/schema/tasks.js";
import { users } from "../src/server/db/schema/users.js";
import { createSession } from "../src/server/features/auth/sessions.js";
import { freePort } from "./free-port.js";

// Two real server processes on one PostgreSQL: a message posted to one reaches a socket held by
// the other, through LISTEN/NOTIFY and nothing else. With DATABASE_URL set it uses a fresh
// database on that server; without it, it starts a throwaway PostgreSQL from the Debian binaries
// (and fails, saying so, when they are not installed).

const ROOT = resolve(import.meta.dirname, "..");

interface Postgres {
  url: string;
  stop(): Promise<void>;
}

function postgresBin(): string {
  const base = "/usr/lib/postgresql";
  const versions = existsSync(base) ? readdirSync(base).filter((v) => existsSync(join(base, v, "bin", "initdb"))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) {
    throw new Error("PostgreSQL binaries not found under /usr/lib/postgresql/*/bin: install postgresql or set DATABASE_URL");
  }
  return join(base, newest, "bin");
}

async function throwawayPostgres(): Promise<Postgres> {
  const bin = postgresBin();
  const dir = mkdtempSync(join(tmpdir(), "errandly-pg-"));
  const asRoot = process.getuid?.() === 0;
  // initdb refuses to run as root: hand the directory to the postgres user and run as them.
  if (asRoot) {
    const id = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
    const gid = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
    chownSync(dir, Number(id.stdout.trim()), Number(gid.stdout.trim()));
    chmodSync(dir, 0o700);
  }
  const run = (cmd: string, args: string[]) => {
    const full = asRoot ? ["runuser", ["-u", "postgres", "--", cmd, ...args]] as const : [cmd, args] as const;
    const res = spawnSync(full[0], full[1], { encoding: "utf8" });
    if (res.status !== 0) throw new Error(`${cmd} failed: ${res.stderr || res.stdout}`);
  };
  const port = await freePort();
  run(join(bin, "initdb"), ["-D", join(dir, "data"), "-U", "postgres", "-A", "trust"]);
  run(join(bin, "pg_ctl"), [
    "-D",
    join(dir, "data"),
    "-l",
    join(dir, "log"),
    "-w",
    "-o",
    `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c fsync=off`,
    "start",
  ]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      run(join(bin, "pg_ctl"), ["-D", join(dir, "data"), "-m", "immediate", "stop"]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A fresh database on an existing server (CI's), dropped afterwards. */
async function freshDatabase(serverUrl: string): Promise<Postgres> {
  const name = `errandly_cross_${randomUUID().replaceAll("-", "")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async stop() {
      const a = new pg.Client({ connectionString: serverUrl });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

interface Instance {
  url: string;
  stop(): Promise<void>;
}

async function startInstance(databaseUrl: string): Promise<Instance> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), "errandly-instance-"));
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", join(ROOT, "src/server/main.ts")], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "test",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: "warn",
      SEED_DEMO: "false",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    const up = await fetch(`${url}/api/health`).then((r) => r.ok, () => false);
    if (up) break;
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await new Promise((r) => child.once("exit", r));
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let postgres: Postgres | null = null;
let database: Database | null = null;
const instances: Instance[] = [];

beforeAll(async () => {
  postgres = process.env.DATABASE_URL ? await freshDatabase(process.env.DATABASE_URL) : await throwawayPostgres();
  // One after the other: the first one migrates the empty database.
  instances.push(await startInstance(postgres.url));
  instances.push(await startInstance(postgres.url));
  database = await openDatabase({ databaseUrl: postgres.url, poolSize: 2 });
}, 180_000);

afterAll(async () => {
  await Promise.all(instances.map((i) => i.stop()));
  await database?.close();
  await postgres?.stop();
}, 60_000);

async function signedInUser(db: Database, role: "user" | "provider") {
  const [user] = await db.db
    .insert(users)
    .values({ email: `${role}-${randomUUID().slice(0, 8)}@example.test`, firstName: "Cross", lastName: role, role, passwordHash: null })
    .returning();
  if (!user) throw new Error("user not inserted");
  const token = await createSession(db.db, user.id, { idleDays: 7, absoluteDays: 30 }, new Date());
  return { id: user.id, cookie: `errandly_session=${token}` };
}

describe("chat across two server processes", () => {
  it("delivers a message posted on instance A to a socket on instance B", async () => {
    if (!database) throw new Error("database not opened");
    const [a, b] = instances;
    if (!a || !b) throw new Error("instances not started");
    const poster = await signedInUser(database, "user");
    const provider = await signedInUser(database, "provider");
    const [task] = await database.db
      .insert(tasks)
      .values({
        userId: poster.id,
        providerId: provider.id,
        title: "Cross-instance errand",
        description: "Proves the fan-out",
        category: "errands",
        budgetCents: 2500,
        urgentFeeCents: 0,
        serviceFeeCents: 250,
        totalCents: 2750,
        status: "claimed",
      })
      .returning();
    if (!task) throw new Error("task not inserted");

    // The provider listens on B.
    const socket = new WebSocket(`${b.url.replace("http", "ws")}/ws`, { headers: { cookie: provider.cookie, origin: b.url } });
    const frames: { type: string; content?: string; senderId?: string }[] = [];
    const received = new Promise<void>((resolveReceived, reject) => {
      const timer = setTimeout(() => reject(new Error(`no message on B; frames: ${JSON.stringify(frames)}`)), 10_000);
      socket.on("message", (data: WebSocket.RawData) => {
        const frame = JSON.parse(String(data)) as { type: string; content?: string; senderId?: string };
        frames.push(frame);
        if (frame.type === "message") {
          clearTimeout(timer);
          resolveReceived();
        }
      });
    });
    await new Promise<void>((r, reject) => {
      socket.once("open", () => r());
      socket.once("error", reject);
    });
    socket.send(JSON.stringify({ type: "auth", taskId: task.id }));
    await expect.poll(() => frames.some((f) => f.type === "auth_success"), { timeout: 5000 }).toBe(true);

    // The poster posts on A.
    const res = await fetch(`${a.url}/api/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: poster.cookie, origin: a.url },
      body: JSON.stringify({ taskId: task.id, content: "hello from instance A" }),
    });
    expect(res.status).toBe(201);
    await received;
    expect(frames.find((f) => f.type === "message")).toMatchObject({ content: "hello from instance A", senderId: poster.id });
    socket.close();
  });
});
