import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

// What a process has used, from /proc (Linux): CPU by process and by PostgreSQL cluster, and
// memory. The benchmarks divide these by the requests or messages a measurement completed, which a
// loaded machine changes far less than it changes throughput (docs/benchmarks.md, "Mixed load").

/** USER_HZ: 100 on every Linux this runs on. */
const CLOCK_TICKS = 100;

/** A process's /proc/<pid>/stat fields after its command name (which may hold spaces); null once it is gone. */
export function statOf(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) of a process so far, with its exited children's when asked; 0 once it is gone. */
export function cpuSecondsOf(pid: number, withExitedChildren = false): number {
  const fields = statOf(pid);
  if (!fields) return 0;
  // utime, stime, cutime, cstime are the 12th to 15th fields after the name.
  const ticks = Number(fields[11]) + Number(fields[12]) + (withExitedChildren ? Number(fields[13]) + Number(fields[14]) : 0);
  return ticks / CLOCK_TICKS;
}

/** Kernel-mode CPU seconds (stime) of a process so far: system calls, such as the socket writes to PostgreSQL. */
export function systemSecondsOf(pid: number): number {
  const fields = statOf(pid);
  return fields ? Number(fields[12]) / CLOCK_TICKS : 0;
}

/** CPU seconds of one thread of a process (the main thread's id is the process's): JavaScript runs there. */
export function threadCpuSeconds(pid: number, tid: number = pid): number {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/**
 * One cluster's CPU seconds: its postmaster with every exited child (backends that ended during the
 * measurement count too), and its children alive now. Other clusters on the machine are not counted.
 */
export function clusterCpuSeconds(postmaster: number): number {
  let total = cpuSecondsOf(postmaster, true);
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    if (Number(statOf(Number(entry))?.[1]) === postmaster) total += cpuSecondsOf(Number(entry));
  }
  return total;
}

/** The postmaster of the embedded cluster under a DATA_DIR: postmaster.pid's first line names it. */
export function embeddedPostmaster(dataDir: string): number {
  return Number(readFileSync(join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0]);
}

export interface Memory {
  rssMb: number;
  peakMb: number;
}

/** VmRSS and VmHWM (peak) of a process, from /proc. */
export function memoryOf(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? Number.NaN);
  return { rssMb: kb("VmRSS") / 1024, peakMb: kb("VmHWM") / 1024 };
}
