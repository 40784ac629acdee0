import type { FastifyBaseLogger } from "fastify";
import type { Metrics } from "./metrics.js";

// Periodic work (payment-deadline expiry, release windows, mail delivery, cleanup). Every job
// must be safe to run on several instances at once: each one claims its rows with a single
// conditional UPDATE, and deadlines live in the database, so a restart loses nothing.

export type Job = () => Promise<unknown>;

export class Scheduler {
  private readonly jobs = new Map<string, Job>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly metrics: Metrics,
  ) {}

  register(name: string, job: Job): void {
    if (this.jobs.has(name)) throw new Error(`Job ${name} is already registered`);
    this.jobs.set(name, job);
  }

  /** Runs every job once, in registration order; tests call this with a controlled clock. */
  async runAll(): Promise<void> {
    for (const [name, job] of this.jobs) {
      this.metrics.jobRuns.inc({ job: name });
      try {
        await job();
      } catch (err) {
        this.metrics.jobFailures.inc({ job: name });
        this.log.error({ err, job: name }, "scheduled job failed");
      }
    }
  }

  start(intervalMs: number): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.runAll().finally(() => {
        this.running = null;
      });
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
