import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startNodeFlags, stopChild } from "../../bench/app-server.js";
import { freePort } from "../../src/server/free-port.js";

// The built server as `npm start` runs it (dist/, the same Node flags), started by the probe with
// only the environment it names, on a throwaway data directory (the embedded PostgreSQL lives in
// it). The probe reads what an operator reads: the start-up output and the log, which in
// development mode carries the one-time links of the mail it would send.

export const ROOT = resolve(import.meta.dirname, "..", "..");
const ENTRY = join(ROOT, "dist/server/server/main.js");

export interface Launched {
  child: ChildProcess;
  port: number;
  dataDir: string;
  /** The address requests go to. */
  url: string;
  output(): string;
  exited(): boolean;
  exitCode(): number | null;
  stop(): Promise<void>;
  /** Removes the data directory (after stop). */
  cleanup(): void;
}

export function builtEntryExists(): boolean {
  return existsSync(ENTRY);
}

export function newDataDir(): string {
  return mkdtempSync(join(tmpdir(), "errandly-probe-"));
}

/**
 * Starts the built server with `env` (PATH and DATA_DIR added; PORT unless given) and waits until
 * /api/health answers or the process exits (a refused start). Nothing else is inherited.
 */
export async function launch(env: Record<string, string | undefined>, options: { dataDir?: string; port?: number; timeoutMs?: number } = {}): Promise<Launched> {
  const dataDir = options.dataDir ?? newDataDir();
  const port = options.port ?? (await freePort());
  const fullEnv: Record<string, string> = { PATH: process.env.PATH ?? "", DATA_DIR: dataDir, PORT: String(port) };
  for (const [k, v] of Object.entries(env)) if (v !== undefined) fullEnv[k] = v;
  const child = spawn(process.execPath, [...startNodeFlags(), ENTRY], { cwd: ROOT, env: fullEnv, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  for (;;) {
    if (exited()) break;
    if (await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) }).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the server did not start within ${(options.timeoutMs ?? 120_000) / 1000} s:\n${output.slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  // A refused start has printed its reason; let the streams drain.
  if (exited()) await new Promise((r) => setTimeout(r, 100));
  return {
    child,
    port,
    dataDir,
    url,
    output: () => output,
    exited,
    exitCode: () => child.exitCode,
    stop: () => stopChild(child),
    cleanup: () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

/** The one-time links the development log shows for mail to `to`, oldest first. */
export function mailLinks(server: Launched, to: string): string[] {
  const links: string[] = [];
  for (const line of server.output().split("\n")) {
    if (!line.startsWith("{") || !line.includes('"links"')) continue;
    try {
      const entry = JSON.parse(line) as { to?: string; links?: string[] };
      if (entry.to === to) links.push(...(entry.links ?? []));
    } catch {
      // a line that is not a log entry
    }
  }
  return links;
}

/** The token of the newest link to `to` whose path is `path` (waits for the mail, which is written after the answer). */
export async function waitForToken(server: Launched, to: string, path: string, after = 0): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const tokens = mailLinks(server, to)
      .map((l) => new URL(l))
      .filter((u) => u.pathname === path)
      .map((u) => u.searchParams.get("token") ?? "");
    if (tokens.length > after) return tokens[tokens.length - 1] ?? "";
    if (Date.now() > deadline) throw new Error(`no ${path} link to ${to} in the log`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
