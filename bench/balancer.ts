import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../src/server/free-port.js";
import { waitFor } from "../test/faults/load.js";
import { startServer, type ServerProcess } from "../test/faults/server-process.js";
import { startHaproxy, type Balancer } from "../test/faults/topology-processes.js";

// --topology=haproxy of bench:load and bench:chat: the stack docs/deploy.md describes, started as
// the topology fault test starts it (test/faults/topology-processes.ts): Debian's HAProxy →
// N built instances → Debian's PgBouncer in transaction mode → PostgreSQL
// (docs/decisions/051-pooler-and-topology.md).

/** `--instances=1,3`: the instance counts to compare. */
export function instanceCounts(value: string | undefined, fallback: number[]): number[] {
  const counts = value ? value.split(",").map(Number) : fallback;
  if (counts.some((n) => !Number.isInteger(n) || n < 1)) throw new Error(`--instances=${value}: give whole numbers from 1, such as --instances=1,3`);
  return counts;
}

export const loadAverage = () => loadavg().map((l) => l.toFixed(2)).join(" ");

export interface Stack {
  instances: number;
  url: string;
  port: number;
  servers: ServerProcess[];
  balancer: Balancer;
  stop(): Promise<void>;
}

/** HAProxy in front of `instances` built servers on `poolerUrl`, all of them UP before it returns. */
export async function startStack(options: { poolerUrl: string; listenUrl: string; instances: number; env?: Record<string, string> }): Promise<Stack> {
  const ports = new Map<string, number>();
  for (let i = 1; i <= options.instances; i += 1) ports.set(`app${i}`, await freePort());
  const balancer: Balancer = await startHaproxy(ports);
  const storageDir = mkdtempSync(join(tmpdir(), "errandly-bench-storage-"));
  const servers: ServerProcess[] = [];
  const stop = async () => {
    await Promise.all(servers.map((s) => s.stop()));
    for (const s of servers) s.cleanup();
    await balancer.destroy();
    rmSync(storageDir, { recursive: true, force: true });
  };
  try {
    for (const port of ports.values()) {
      servers.push(
        await startServer({
          databaseUrl: options.poolerUrl,
          port,
          env: {
            DATABASE_POOL_MODE: "transaction",
            DATABASE_LISTEN_URL: options.listenUrl,
            TRUST_PROXY: "true",
            PUBLIC_URL: balancer.url,
            STORAGE_DIR: storageDir,
            LOG_LEVEL: "error",
            ...options.env,
          },
        }),
      );
    }
    await waitFor(`HAProxy to see ${options.instances} instances up`, async () => [...(await balancer.states()).values()].every((s) => s === "UP"), 30_000, 100);
  } catch (err) {
    await stop();
    throw err;
  }
  return { instances: options.instances, url: balancer.url, port: balancer.port, servers, balancer, stop };
}

/** utime + stime of a process from /proc (Linux), in ms; 0 once it is gone. */
function processCpuMs(pid: number): number {
  try {
    // The fields after the command name, which sits in parentheses and may hold spaces.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** The PostgreSQL server listening on `port` (its postmaster names the port on its command line) and its backends. */
export function postgresPids(port: number): number[] {
  const pids = readdirSync("/proc").filter((d) => /^\d+$/.test(d)).map(Number);
  const read = (pid: number, file: string) => {
    try {
      return readFileSync(`/proc/${pid}/${file}`, "utf8");
    } catch {
      return "";
    }
  };
  const postmaster = pids.find((pid) => read(pid, "cmdline").includes(`port=${port}\0`) || read(pid, "cmdline").includes(`port=${port} `));
  if (postmaster === undefined) return [];
  const parent = (pid: number) => Number(read(pid, "stat").slice(read(pid, "stat").lastIndexOf(")") + 2).split(" ")[1]);
  return [postmaster, ...pids.filter((pid) => parent(pid) === postmaster)];
}

/**
 * CPU used by groups of processes between `start` and `stop` (ms), so a run can say what each part
 * of the stack costs per message whatever else the machine is doing.
 */
export class CpuMeter {
  private readonly before = new Map<number, number>();
  private readonly used = new Map<string, number>();
  constructor(private readonly groups: () => Record<string, number[]>) {}

  start(): void {
    for (const pids of Object.values(this.groups())) for (const pid of pids) this.before.set(pid, processCpuMs(pid));
  }

  stop(): Map<string, number> {
    for (const [group, pids] of Object.entries(this.groups())) {
      this.used.set(group, pids.reduce((sum, pid) => sum + processCpuMs(pid) - (this.before.get(pid) ?? 0), 0));
    }
    return this.used;
  }
}
