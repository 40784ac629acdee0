import fp from "fastify-plugin";

// How many requests this instance works on at once (docs/decisions/040-requests-admitted-in-turn.md).
// Under load every request's awaits (each round trip to PostgreSQL) wait for a turn of the event
// loop, and a turn takes as long as the work of every request in flight: with 100 in flight a
// write of eight round trips waited eight long turns while a board page waited one. Requests past
// the limit wait once, at the door, in arrival order; those inside get short turns.

declare module "fastify" {
  interface FastifyContextConfig {
    /** Not counted against the limit: long-lived or streamed (the WebSocket upgrade, uploads). */
    admission?: false;
  }
  interface FastifyRequest {
    admitted: boolean;
  }
  interface FastifyInstance {
    admission: Admission;
  }
}

/** A counting gate: `enter` resolves when a place is free, first come first served; `leave` frees one. */
export class Admission {
  private inside = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limit: number) {}

  get inFlight(): number {
    return this.inside;
  }

  get queued(): number {
    return this.waiting.length;
  }

  enter(): Promise<void> | null {
    if (this.inside < this.limit) {
      this.inside++;
      return null;
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  leave(): void {
    const next = this.waiting.shift();
    // The place passes straight to the next in line, so the count stays.
    if (next) next();
    else this.inside--;
  }
}

export default fp<{ limit: number }>(
  async (app, options) => {
    const admission = new Admission(options.limit);
    app.decorate("admission", admission);
    app.decorateRequest("admitted", false);
    // After the body is read: a client that sends its body slowly holds no place meanwhile.
    app.addHook("preValidation", async (request) => {
      if (request.routeOptions.config.admission === false) return;
      const turn = admission.enter();
      if (turn) await turn;
      request.admitted = true;
    });
    const leave = (request: { admitted: boolean }) => {
      if (!request.admitted) return;
      request.admitted = false;
      admission.leave();
    };
    // The place is for the work, not the transfer: it is given back when the answer is ready
    // (onSend), so a client that reads a photo slowly holds none. onResponse and onRequestAbort
    // catch what never reached onSend (a client gone mid-handler).
    app.addHook("onSend", async (request, _reply, payload) => {
      leave(request);
      return payload;
    });
    app.addHook("onResponse", async (request) => leave(request));
    app.addHook("onRequestAbort", async (request) => leave(request));
  },
  { name: "admission" },
);
