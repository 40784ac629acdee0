import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { freePort } from "./free-port.js";

// A throwaway PostgreSQL for tests that need a real server: cross-instance chat and the fault
// injection suite. The cluster keeps its data directory and port across stop() and start(), so a
// test can take the database away under load and bring the same one back.

const run = promisify(execFile);

export interface PostgresDatabase {
  url: string;
  /** Removes everything the test created. */
  destroy(): Promise<void>;
}

export interface PostgresCluster extends PostgresDatabase {
  port: number;
  isRunning(): boolean;
  /**
   * Stops the server. "immediate" is a crash (backends die without a goodbye, the next start
   * replays the WAL); "fast" is an orderly shutdown that terminates sessions with 57P01.
   */
  stop(mode?: "immediate" | "fast"): Promise<void>;
  /** Starts the same data directory on the same port and waits until it accepts connections. */
  start(): Promise<void>;
  /** The server log, for failure messages. */
  log(): string;
}

function postgresBin(): string {
  // The same override scripts/provision.mjs honours.
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  const base = "/usr/lib/postgresql";
  const versions = existsSync(base) ? readdirSync(base).filter((v) => existsSync(join(base, v, "bin", "initdb"))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) {
    throw new Error("PostgreSQL binaries not found under /usr/lib/postgresql/*/bin: install postgresql (npm run provision) or set PG_BIN_DIR");
  }
  return join(base, newest, "bin");
}

/** Owner of the cluster's files: initdb and postgres refuse to run as root, so root hands them to "postgres". */
function clusterOwner(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const passwd = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .map((line) => line.split(":"))
    .find((fields) => fields[0] === "postgres");
  if (!passwd) throw new Error("Running as root needs a 'postgres' user to own the throwaway cluster");
  return { uid: Number(passwd[2]), gid: Number(passwd[3]) };
}

export async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = postgresBin();
  const dir = mkdtempSync(join(tmpdir(), "errandly-pg-"));
  const data = join(dir, "data");
  const logFile = join(dir, "log");
  const owner = clusterOwner();
  if (owner) {
    chownSync(dir, owner.uid, owner.gid);
    chmodSync(dir, 0o700);
  }
  // Asynchronous on purpose: a fault test keeps its load running while the database stops and starts.
  const pgCommand = async (cmd: string, args: string[]) => {
    const [file, argv] = owner ? ["runuser", ["-u", "postgres", "--", join(bin, cmd), ...args]] : [join(bin, cmd), args];
    try {
      await run(file, argv, { encoding: "utf8" });
    } catch (err) {
      const e = err as { stderr?: string; stdout?: string; message: string };
      throw new Error(`${cmd} ${args.join(" ")} failed: ${e.stderr || e.stdout || e.message}\n${tailOf(logFile)}`);
    }
  };
  const port = await freePort();
  await pgCommand("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "--no-sync"]);
  // fsync=off: the tests simulate process crashes, not power loss, so the OS cache is durable enough.
  const options = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c fsync=off -c max_connections=200`;
  let running = false;
  const cluster: PostgresCluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    isRunning: () => running,
    async start() {
      await pgCommand("pg_ctl", ["-D", data, "-l", logFile, "-w", "-t", "60", "-o", options, "start"]);
      running = true;
    },
    async stop(mode = "fast") {
      await pgCommand("pg_ctl", ["-D", data, "-m", mode, "-w", "stop"]);
      running = false;
    },
    log: () => tailOf(logFile),
    async destroy() {
      if (running) await cluster.stop("immediate").catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await cluster.start();
  return cluster;
}

function tailOf(file: string): string {
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").slice(-30).join("\n") : "";
}

/** A fresh database on an existing server (CI's DATABASE_URL), dropped afterwards. */
export async function freshDatabase(serverUrl: string): Promise<PostgresDatabase> {
  const name = `errandly_test_${randomUUID().replaceAll("-", "")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async destroy() {
      const a = new pg.Client({ connectionString: serverUrl });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

/** DATABASE_URL's server when set (CI), otherwise a throwaway cluster. */
export async function testPostgres(): Promise<PostgresDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  return serverUrl ? freshDatabase(serverUrl) : startPostgresCluster();
}
