import type { FastifyBaseLogger, FastifyReply } from "fastify";

// Work that must not delay the answer: the answer is sent first and the work starts once it has
// gone. Forgot-password and change of e-mail use it so that a known and an unknown address take
// the same path up to the answer, and its timing does not tell who has an account
// (docs/decisions/020-account-recovery-and-verification.md). Close waits for work under way.

export class AfterAnswer {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly log: FastifyBaseLogger) {}

  /** Starts `work` once `reply` has been sent (or the client went away); a failure is logged. */
  run(reply: FastifyReply, name: string, work: () => Promise<unknown>): void {
    const raw = reply.raw;
    const sent = new Promise<void>((resolve) => {
      if (raw.writableFinished || raw.destroyed) return resolve();
      raw.once("finish", () => resolve());
      raw.once("close", () => resolve());
    });
    const job = sent
      .then(work)
      .then(
        () => undefined,
        (err: unknown) => this.log.error({ err, work: name }, "work after the answer failed"),
      )
      .finally(() => this.pending.delete(job));
    this.pending.add(job);
  }

  /** Resolves when every piece of work started so far has ended (tests, and shutdown). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}
