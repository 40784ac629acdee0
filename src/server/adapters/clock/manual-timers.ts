import type { Timers } from "./timers.js";

// Virtual time for tests: nothing fires until the test calls `advance`, which fires every timer
// that falls due, in order, as if that much time had passed at once.

interface Pending {
  at: number;
  order: number;
  kind: "sleep" | "timeout";
  fire: () => void;
}

export class ManualTimers implements Timers {
  private current: number;
  private pending: Pending[] = [];
  private scheduled = 0;
  private sleepWaiters: (() => void)[] = [];

  constructor(start = 0) {
    this.current = start;
  }

  now = (): number => this.current;

  sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      this.schedule(ms, "sleep", resolve);
      for (const wake of this.sleepWaiters.splice(0)) wake();
    });

  timeout = (ms: number): AbortSignal => {
    const controller = new AbortController();
    this.schedule(ms, "timeout", () => controller.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError")));
    return controller.signal;
  };

  /** Moves virtual time forward by `ms`, firing what falls due on the way. */
  advance(ms: number): void {
    const target = this.current + ms;
    for (;;) {
      const next = this.pending.filter((p) => p.at <= target).sort((a, b) => a.at - b.at || a.order - b.order)[0];
      if (!next) break;
      this.pending = this.pending.filter((p) => p !== next);
      this.current = Math.max(this.current, next.at);
      next.fire();
    }
    this.current = target;
  }

  /** Resolves once the code under test is asleep (at once if it already is). */
  async untilSleeping(): Promise<void> {
    if (this.pending.some((p) => p.kind === "sleep")) return;
    await new Promise<void>((resolve) => this.sleepWaiters.push(resolve));
  }

  private schedule(ms: number, kind: Pending["kind"], fire: () => void): void {
    this.pending.push({ at: this.current + Math.max(0, ms), order: this.scheduled++, kind, fire });
  }
}
