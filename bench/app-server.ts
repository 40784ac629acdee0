import { fork, spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { freePort } from "../src/server/free-port.js";
import { newSecretsKey } from "../src/server/secrets/secret-box.js";
import { seedDemoTasks, seedEmbeddedDemoTasks } from "../test/demo-tasks.js";

// The app as it would be deployed, for the benchmarks that measure it from outside: the production
// build (or src/server/main.ts through tsx), configured only through its environment.

const ROOT = resolve(import.meta.dirname, "..");

/**
 * The Node flags `npm start` gives the server (package.json is the one place they are written), so
 * the benchmarks measure it as it runs: `--max-semi-space-size=8` caps V8's young generation, which
 * otherwise grew to 100 MB of RSS at boot (docs/benchmarks.md, "Profiles of issue 16").
 */
export function startNodeFlags(root: string = ROOT): string[] {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> };
  const flags = /\bnode((?: --\S+)*) dist\/server\/server\/main\.js/.exec(pkg.scripts.start ?? "")?.[1];
  if (flags === undefined) throw new Error("package.json's start script no longer runs `node [flags] dist/server/server/main.js`");
  return flags.split(" ").filter(Boolean);
}

/** One secrets key for every server a bench starts on one database (decision 069). */
const BENCH_SECRETS_KEY = newSecretsKey();

export interface AppServer {
  child: ChildProcess;
  port: number;
  /** Everything the server printed. */
  output(): string;
  /** SIGTERM and wait; then the lines it logged at warn or above are summed up. */
  stop(): Promise<void>;
}

export interface AppServerOptions {
  /** dist/server/server/main.js, or a .ts entry run through tsx. */
  entry: string;
  /**
   * The checkout the entry was built in (this one unless told): its package.json's start flags are
   * the server's, so an older build (bench/compare.ts) runs with the flags it shipped with.
   */
  root?: string;
  /** More flags for the server's Node, after the start script's (such as --inspect=127.0.0.1:0). */
  nodeFlags?: string[];
  dataDir: string;
  /** Unset: the embedded PostgreSQL under dataDir, the product's default. */
  databaseUrl?: string | null;
  env?: Record<string, string>;
  /**
   * The demo's tasks in its database before it starts: a production-mode server refuses SEED_DEMO
   * (docs/decisions/066-demo-data-on-loopback-only.md).
   */
  demoTasks?: boolean;
}

export async function startAppServer(options: AppServerOptions): Promise<AppServer> {
  const { entry, dataDir, databaseUrl } = options;
  if (!existsSync(entry)) throw new Error(`${entry} not found: run \`npm run build\` first`);
  if (options.demoTasks) await (databaseUrl ? seedDemoTasks(databaseUrl, BENCH_SECRETS_KEY) : seedEmbeddedDemoTasks(dataDir));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const root = options.root ?? ROOT;
  const flags = [...startNodeFlags(root), ...(options.nodeFlags ?? []), ...(entry.endsWith(".ts") ? ["--import", "tsx"] : [])];
  const child = spawn(process.execPath, [...flags, entry], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      // With DATABASE_URL the server refuses to start without shared object storage (S3 or STORAGE_DIR)
      // and a secrets key every instance shares.
      ...(databaseUrl ? { DATABASE_URL: databaseUrl, STORAGE_DIR: join(dataDir, "objects"), SECRETS_KEY: BENCH_SECRETS_KEY } : {}),
      SEED_DEMO: "false",
      LOG_LEVEL: "warn",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  // A server that dies mid-run says why; otherwise the bench sees only ECONNREFUSED.
  let stopping = false;
  child.once("exit", (code, signal) => {
    if (!stopping) console.log(`server on port ${port} exited (${signal ?? code}) during the run:\n${output.slice(-4000)}`);
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    if (await fetch(`${url}/api/health`).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    child,
    port,
    output: () => output,
    async stop() {
      stopping = true;
      await stopChild(child);
      const warnings = output.split("\n").filter((l) => /"level":(40|50|60)/.test(l));
      if (warnings.length > 0) console.log(`server logged ${warnings.length} warnings/errors, first: ${warnings[0]?.slice(0, 400)}`);
    },
  };
}

/**
 * The machine's HTTP ceiling: Fastify's hello world (bench/hello-world.ts) in its own process,
 * loaded by the same generator as the app beside it (bench:load, bench:jobs).
 */
export async function startHelloWorld(): Promise<{ child: ChildProcess; port: number; stop(): Promise<void> }> {
  const child = fork(join(ROOT, "bench", "hello-world.ts"), [], { execArgv: process.execArgv, stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const port = await new Promise<number>((resolvePort, reject) => {
    child.once("message", (m) => resolvePort((m as { port: number }).port));
    child.once("exit", (code) => reject(new Error(`hello-world exited with ${code}`)));
  });
  return { child, port, stop: () => stopChild(child) };
}

export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((done) => {
    child.once("exit", () => done());
    child.kill("SIGTERM");
  });
}

/** Measuring an old build by mistake is easy: say so when a server source is newer than it. */
export function warnIfStale(entry: string): void {
  if (entry.endsWith(".ts") || !existsSync(entry)) return;
  const built = statSync(entry).mtimeMs;
  const newer = readdirSync(join(ROOT, "src"), { recursive: true, encoding: "utf8" })
    .filter((f) => /^(server|shared)\/.*\.ts$/.test(f) && !f.endsWith(".test.ts"))
    .filter((f) => statSync(join(ROOT, "src", f)).mtimeMs > built);
  if (newer.length > 0) console.log(`warning: ${newer.length} source files are newer than ${entry} (e.g. src/${newer[0]}): run \`npm run build\``);
}
