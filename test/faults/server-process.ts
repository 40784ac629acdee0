import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort } from "../../src/server/free-port.js";
import { newSecretsKey } from "../../src/server/secrets/secret-box.js";

// Real server processes for tests that kill, restart or pair them: the built server
// (dist/, what `npm start` runs) for the fault suite, or the TypeScript entry through tsx for the
// server suite, which runs before anything is built.

const ROOT = resolve(import.meta.dirname, "..", "..");
const BUILT_ENTRY = join(ROOT, "dist/server/server/main.js");

/**
 * The secrets key of every instance started on a shared database: they must all seal and open the
 * authenticator apps' keys with one key (docs/decisions/069-secrets-at-rest-and-encrypted-backups.md).
 */
export const INSTANCE_SECRETS_KEY = newSecretsKey();

export interface ServerOptions {
  /** Unset: the embedded PostgreSQL under the data directory, as `npm start` runs it. */
  databaseUrl?: string;
  /** "built" runs dist/ (run `npm run build` first); "source" runs src/ through tsx. */
  entry?: "built" | "source";
  /** Reuse a port and data directory to restart "the same" server. */
  port?: number;
  dataDir?: string;
  env?: Record<string, string>;
}

export interface ServerProcess {
  url: string;
  port: number;
  dataDir: string;
  pid: number;
  /** Everything the process printed, for failure messages. */
  output(): string;
  exited(): boolean;
  /** SIGKILL: no shutdown hook runs, in-flight requests and transactions are cut off. */
  kill(): Promise<void>;
  /** SIGTERM and wait; the data directory is kept (remove it with `cleanup`). */
  stop(): Promise<void>;
  cleanup(): void;
}

export async function startServer(options: ServerOptions): Promise<ServerProcess> {
  const entry = options.entry ?? "built";
  if (entry === "built" && !existsSync(BUILT_ENTRY)) throw new Error(`${BUILT_ENTRY} is missing: run \`npm run build\` first`);
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "errandly-instance-"));
  const args = entry === "built" ? [BUILT_ENTRY] : ["--import", "tsx", join(ROOT, "src/server/main.ts")];
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "test",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      // Instances of one test share a database but not files; none of these tests uploads across them.
      ...(options.databaseUrl
        ? { DATABASE_URL: options.databaseUrl, STORAGE_DIR: join(dataDir, "objects"), SECRETS_KEY: INSTANCE_SECRETS_KEY }
        : { DATABASE_URL: "" }),
      LOG_LEVEL: "warn",
      SEED_DEMO: "false",
      // The load's posters post far more than a person does in an hour.
      TASKS_PER_HOUR: "1000000",
      // The load stands for many people, all from 127.0.0.1; one address's limits have their own tests
      // (src/server/plugins/slow-requests.test.ts, decision 043).
      MAX_CONNECTIONS_PER_ADDRESS: "10000",
      MAX_CONCURRENT_PER_ADDRESS: "10000",
      REQUEST_QUEUE_PER_ADDRESS: "10000",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (d: Buffer) => {
    // The last megabyte is enough to explain a failure; an outage logs every failed query.
    output = (output + d.toString()).slice(-1_000_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exit = new Promise<void>((r) => child.once("exit", () => r()));
  const exited = () => child.exitCode !== null || child.signalCode !== null;

  const deadline = Date.now() + 90_000;
  for (;;) {
    if (exited()) throw new Error(`server exited early (${child.exitCode ?? child.signalCode}):\n${output}`);
    const up = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.ok, () => false);
    if (up) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not start within 90 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  if (child.pid === undefined) throw new Error("server process has no pid");
  const pid = child.pid;

  return {
    url,
    port,
    dataDir,
    pid,
    output: () => output,
    exited,
    async kill() {
      if (!exited()) {
        child.kill("SIGKILL");
        await exit;
      }
    },
    async stop() {
      if (!exited()) {
        child.kill("SIGTERM");
        await exit;
      }
    },
    cleanup() {
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
