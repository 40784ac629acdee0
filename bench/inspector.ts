import { createWriteStream, writeFileSync } from "node:fs";
import WebSocket from "ws";

// A server's V8 seen from the bench through the inspector protocol (the server runs with
// `--inspect=127.0.0.1:0`): a CPU profile of exactly one measurement (not of the boot, the warm-up or
// the other build's turn, as `--cpu-prof` on the whole process would be), a heap snapshot at the end
// of the load, and the process's memory split into V8's heap and the rest
// (docs/profiles/2026-12-request-cost.md says what each showed).

/** The debugger's address as Node prints it on stderr when it starts with --inspect. */
export function inspectorUrlOf(output: string): string | null {
  return /Debugger listening on (ws:\/\/\S+)/.exec(output)?.[1] ?? null;
}

interface Reply {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message: string };
}

export class Inspector {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (r: Record<string, unknown>) => void; reject: (e: Error) => void }>();
  private readonly listeners = new Map<string, (params: Record<string, unknown>) => void>();

  private constructor(private readonly socket: WebSocket) {
    socket.on("message", (data: WebSocket.RawData) => {
      const reply = JSON.parse(String(data)) as Reply;
      if (reply.id !== undefined) {
        const waiter = this.pending.get(reply.id);
        this.pending.delete(reply.id);
        if (reply.error) waiter?.reject(new Error(reply.error.message));
        else waiter?.resolve(reply.result ?? {});
      } else if (reply.method) this.listeners.get(reply.method)?.(reply.params ?? {});
    });
  }

  static async connect(url: string): Promise<Inspector> {
    const socket = new WebSocket(url, { perMessageDeflate: false, maxPayload: 2 ** 31 });
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
    return new Inspector(socket);
  }

  send(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  on(method: string, listener: (params: Record<string, unknown>) => void): void {
    this.listeners.set(method, listener);
  }

  /** Samples every `intervalUs` microseconds from now until stopCpuProfile (1 ms, as --cpu-prof). */
  async startCpuProfile(intervalUs = 1000): Promise<void> {
    await this.send("Profiler.enable");
    await this.send("Profiler.setSamplingInterval", { interval: intervalUs });
    await this.send("Profiler.start");
  }

  /** Writes the profile (Chrome's .cpuprofile, which DevTools and bench/profile-summary.ts read). */
  async stopCpuProfile(file: string): Promise<void> {
    const { profile } = await this.send("Profiler.stop");
    writeFileSync(file, JSON.stringify(profile));
  }

  /**
   * Samples allocations (about one per `intervalBytes` allocated) from now until stopAllocationProfile,
   * keeping the samples of objects the collector has freed too: what the code allocates, not what
   * survives, which is what the garbage collector's share of the CPU pays for.
   */
  async startAllocationProfile(intervalBytes = 16384): Promise<void> {
    await this.send("HeapProfiler.enable");
    await this.send("HeapProfiler.startSampling", { samplingInterval: intervalBytes, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  }

  /** Writes the allocation profile (.heapprofile, which DevTools and bench/profile-summary.ts read). */
  async stopAllocationProfile(file: string): Promise<void> {
    const { profile } = await this.send("HeapProfiler.stopSampling");
    writeFileSync(file, JSON.stringify(profile));
  }

  /** A full heap snapshot after a garbage collection, streamed to `file` (.heapsnapshot). */
  async heapSnapshot(file: string): Promise<void> {
    const out = createWriteStream(file);
    this.on("HeapProfiler.addHeapSnapshotChunk", (params) => out.write(String(params.chunk)));
    await this.send("HeapProfiler.enable");
    await this.send("HeapProfiler.collectGarbage");
    await this.send("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    await this.send("HeapProfiler.disable");
  }

  /** Evaluates an expression in the server and returns its value (JSON-serialisable). */
  async evaluate<T>(expression: string): Promise<T> {
    const { result, exceptionDetails } = (await this.send("Runtime.evaluate", { expression, returnByValue: true, awaitPromise: true })) as {
      result: { value: T };
      exceptionDetails?: { text: string };
    };
    if (exceptionDetails) throw new Error(`${expression}: ${exceptionDetails.text}`);
    return result.value;
  }

  /**
   * The process's memory as Node splits it (MB): RSS, V8's heap (reserved and used), memory outside
   * the heap that JavaScript objects hold (external, of which ArrayBuffers), and V8's spaces.
   */
  async memory(): Promise<ProcessMemory> {
    return this.evaluate<ProcessMemory>(`(() => {
      const mb = (n) => Math.round(n / 1048576 * 10) / 10;
      const m = process.memoryUsage();
      const v8 = process.getBuiltinModule("node:v8");
      const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, { sizeMb: mb(s.space_size), usedMb: mb(s.space_used_size) }]));
      const heap = v8.getHeapStatistics();
      return { rssMb: mb(m.rss), heapTotalMb: mb(m.heapTotal), heapUsedMb: mb(m.heapUsed), externalMb: mb(m.external), arrayBuffersMb: mb(m.arrayBuffers),
        heapLimitMb: mb(heap.heap_size_limit), mallocedMb: mb(heap.malloced_memory), peakMallocedMb: mb(heap.peak_malloced_memory), spaces };
    })()`);
  }

  close(): void {
    this.socket.close();
  }
}

export interface ProcessMemory {
  rssMb: number;
  heapTotalMb: number;
  heapUsedMb: number;
  externalMb: number;
  arrayBuffersMb: number;
  heapLimitMb: number;
  mallocedMb: number;
  peakMallocedMb: number;
  spaces: Record<string, { sizeMb: number; usedMb: number }>;
}
