import { Counter, Gauge, Histogram, Registry } from "prom-client";

// What an operator scrapes from /metrics (docs/operations.md, docs/decisions/053-metrics-and-backups.md).
// One registry per app, not prom-client's global one, so several apps in one process (tests, the
// benchmarks) each count their own. Counters and histograms are bumped where the thing happens;
// levels (line length, pool use, sockets, outbox backlog) are read only when scraped, so they cost
// nothing between scrapes.

/** Seconds; around the board's few milliseconds up to the 60 s request timeout. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export class Metrics {
  readonly registry = new Registry();

  readonly requestDuration = new Histogram({
    name: "errandly_http_request_duration_seconds",
    help: "Time from a request's arrival to its answer, by method, route pattern and status.",
    labelNames: ["method", "route", "status"] as const,
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });

  readonly admissionWait = new Histogram({
    name: "errandly_admission_wait_seconds",
    help: "Time a request waited at the door for a place at work (requests admitted at once are not counted).",
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });

  readonly jobRuns = new Counter({
    name: "errandly_job_runs_total",
    help: "Runs of each periodic job.",
    labelNames: ["job"] as const,
    registers: [this.registry],
  });

  readonly jobFailures = new Counter({
    name: "errandly_job_failures_total",
    help: "Runs of each periodic job that threw.",
    labelNames: ["job"] as const,
    registers: [this.registry],
  });

  /** A level read at scrape time; `read` may query the database. */
  level(name: string, help: string, read: () => number | Promise<number>): void {
    new Gauge({
      name,
      help,
      registers: [this.registry],
      async collect() {
        this.set(await read());
      },
    });
  }

  /** Levels read at scrape time under one label, such as a pool's total, idle and waiting clients. */
  levels(name: string, help: string, label: string, read: () => Record<string, number> | Promise<Record<string, number>>): void {
    new Gauge({
      name,
      help,
      labelNames: [label],
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const [value, count] of Object.entries(await read())) this.set({ [label]: value }, count);
      },
    });
  }
}
