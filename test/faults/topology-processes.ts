import { spawn, type ChildProcess } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort } from "../../src/server/free-port.js";
import { sleep } from "./load.js";

// Debian's HAProxy and PgBouncer, started from the configuration files the deployment guide shows
// (deploy/, docs/deploy.md): the test fills their {{PLACEHOLDERS}} and nothing else.

const DEPLOY_DIR = resolve(import.meta.dirname, "..", "..", "deploy");

/** Where Debian installs the daemon (scripts/provision.mjs installs it when root), or null. */
function daemonPath(name: string): string | null {
  const path = `/usr/sbin/${name}`;
  return existsSync(path) ? path : null;
}

/** A file of deploy/ with every {{NAME}} replaced; fails on a placeholder left unfilled. */
export function filledConfig(file: string, values: Record<string, string>): string {
  const lines = readFileSync(join(DEPLOY_DIR, file), "utf8").split("\n");
  // Comments name the placeholders; only settings are filled, and each must be known.
  const filled = lines.map((line) => {
    if (/^\s*[#;]/.test(line)) return line;
    return line.replace(/\{\{([A-Z_]+)\}\}/g, (match: string, name: string) => {
      const value = values[name];
      if (value === undefined) throw new Error(`${file}: no value for ${match}`);
      return value;
    });
  });
  return filled.join("\n");
}

/** HAProxy's check timing from deploy/haproxy.cfg, in milliseconds. */
export function checkTiming(): { inter: number; fastinter: number; fall: number; rise: number } {
  const line = readFileSync(join(DEPLOY_DIR, "haproxy.cfg"), "utf8")
    .split("\n")
    .find((l) => l.trim().startsWith("default-server"));
  if (!line) throw new Error("deploy/haproxy.cfg has no default-server line");
  const ms = (key: string) => {
    const match = new RegExp(`${key} (\\d+)(ms|s)`).exec(line);
    if (!match) throw new Error(`deploy/haproxy.cfg: no ${key} on the default-server line`);
    return Number(match[1]) * (match[2] === "s" ? 1000 : 1);
  };
  const count = (key: string) => Number(new RegExp(`${key} (\\d+)`).exec(line)?.[1] ?? NaN);
  return { inter: ms("inter"), fastinter: ms("fastinter"), fall: count("fall"), rise: count("rise") };
}

export interface Daemon {
  port: number;
  /** The running process, for bench:chat's CPU accounting; undefined when stopped. */
  pid(): number | undefined;
  output(): string;
  /** SIGKILL (nothing flushed, every connection cut) or SIGTERM and wait. */
  stop(signal: "SIGKILL" | "SIGTERM"): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

function daemon(command: string, args: string[], port: number, dir: string): Daemon {
  let child: ChildProcess | null = null;
  let output = "";
  const up = async () => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      if (!child || child.exitCode !== null) throw new Error(`${command} exited early:\n${output}`);
      const open = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(500) }).then(
        () => true,
        (err: unknown) => (err as { cause?: { code?: string } }).cause?.code !== "ECONNREFUSED",
      );
      if (open) return;
      if (Date.now() > deadline) throw new Error(`${command} did not listen on ${port}:\n${output}`);
      await sleep(50);
    }
  };
  const result: Daemon = {
    port,
    pid: () => (child && child.exitCode === null && child.signalCode === null ? child.pid : undefined),
    output: () => output,
    async start() {
      child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
      const keep = (d: Buffer) => {
        output = (output + d.toString()).slice(-200_000);
      };
      child.stdout?.on("data", keep);
      child.stderr?.on("data", keep);
      await up();
    },
    async stop(signal) {
      const current = child;
      if (!current || current.exitCode !== null || current.signalCode !== null) return;
      const exited = new Promise<void>((r) => current.once("exit", () => r()));
      current.kill(signal);
      await exited;
    },
    async destroy() {
      await result.stop("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return result;
}

/** PgBouncer in front of `postgresUrl`, run as PostgreSQL's own account when we are root (it refuses root). */
export async function startPgBouncer(postgresUrl: string): Promise<Daemon & { url: string }> {
  const binary = daemonPath("pgbouncer");
  if (!binary) throw new Error("pgbouncer is not installed: run `node scripts/provision.mjs` as root, or install Debian's pgbouncer");
  const target = new URL(postgresUrl);
  const dir = mkdtempSync(join(tmpdir(), "errandly-pgbouncer-"));
  const port = await freePort();
  const user = decodeURIComponent(target.username);
  writeFileSync(join(dir, "userlist.txt"), `"${user}" "${decodeURIComponent(target.password)}"\n`, { mode: 0o600 });
  const config = filledConfig("pgbouncer.ini", {
    PG_HOST: target.hostname,
    PG_PORT: target.port || "5432",
    PG_DATABASE: target.pathname.slice(1),
    LISTEN_PORT: String(port),
    AUTH_FILE: join(dir, "userlist.txt"),
    RUN_DIR: dir,
  });
  writeFileSync(join(dir, "pgbouncer.ini"), config);
  const asUser: string[] = [];
  if (process.getuid?.() === 0) {
    // The embedded cluster made this account; its files must be PgBouncer's to read and write.
    const owner = "postgres";
    const passwd = readFileSync("/etc/passwd", "utf8").split("\n").find((l) => l.startsWith(`${owner}:`))?.split(":");
    if (!passwd) throw new Error("no postgres account to run pgbouncer as");
    for (const file of [dir, join(dir, "userlist.txt"), join(dir, "pgbouncer.ini")]) chownSync(file, Number(passwd[2]), Number(passwd[3]));
    asUser.push("-u", owner);
  }
  const pgbouncer = daemon(binary, [...asUser, join(dir, "pgbouncer.ini")], port, dir);
  await pgbouncer.start();
  const url = new URL(postgresUrl);
  url.port = String(port);
  url.pathname = "/errandly";
  // PgBouncer listens on TCP only: the embedded cluster's own URL names its Unix socket (decision 077).
  url.searchParams.delete("host");
  return { ...pgbouncer, url: url.toString() };
}

export interface Balancer extends Daemon {
  url: string;
  /** Each server's state from the stats page: "UP", "DOWN", "UP 1/2", "DOWN 1/2"… */
  states(): Promise<Map<string, string>>;
}

/** HAProxy in front of the instances `servers` (name → port). */
export async function startHaproxy(servers: Map<string, number>): Promise<Balancer> {
  const binary = daemonPath("haproxy");
  if (!binary) throw new Error("haproxy is not installed: run `node scripts/provision.mjs` as root, or install Debian's haproxy");
  const dir = mkdtempSync(join(tmpdir(), "errandly-haproxy-"));
  const port = await freePort();
  const statsPort = await freePort();
  const config = filledConfig("haproxy.cfg", {
    LISTEN: `127.0.0.1:${port}`,
    STATS: `127.0.0.1:${statsPort}`,
    SERVERS: [...servers].map(([name, serverPort]) => `server ${name} 127.0.0.1:${serverPort} check`).join("\n    "),
  });
  writeFileSync(join(dir, "haproxy.cfg"), config);
  // -db: stay in the foreground, so the test owns the process.
  const haproxy = daemon(binary, ["-db", "-f", join(dir, "haproxy.cfg")], port, dir);
  await haproxy.start();
  return {
    ...haproxy,
    url: `http://127.0.0.1:${port}`,
    async states() {
      const csv = await (await fetch(`http://127.0.0.1:${statsPort}/stats;csv`)).text();
      const [header, ...rows] = csv.replace(/^# /, "").trim().split("\n");
      const columns = (header ?? "").split(",");
      const at = (name: string) => columns.indexOf(name);
      const states = new Map<string, string>();
      for (const row of rows) {
        const fields = row.split(",");
        if (fields[at("pxname")] === "instances" && fields[at("svname")] !== "BACKEND") states.set(fields[at("svname")] ?? "", fields[at("status")] ?? "");
      }
      return states;
    },
  };
}
