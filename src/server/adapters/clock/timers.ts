// The wall-clock waits of the adapters (a request's timeout, the spacing between two requests to
// a rate-limited service) behind one small interface, so tests move virtual time instead of
// sleeping: a test that sleeps is slow on an idle machine and flaky on a busy one.

export interface Timers {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves once `ms` have passed. */
  sleep(ms: number): Promise<void>;
  /** A signal that aborts with a TimeoutError once `ms` have passed (as `AbortSignal.timeout`). */
  timeout(ms: number): AbortSignal;
}

export const systemTimers: Timers = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  timeout: (ms) => AbortSignal.timeout(ms),
};
