import fp from "fastify-plugin";
import { HttpError } from "../http-errors.js";

// How many requests this instance works on at once (docs/decisions/040-requests-admitted-in-turn.md).
// Under load every request's awaits (each round trip to PostgreSQL) wait for a turn of the event
// loop, and a turn takes as long as the work of every request in flight: with 100 in flight a
// write of eight round trips waited eight long turns while a board page waited one. Requests past
// the limit wait once, at the door; those inside get short turns.
//
// The line at the door is bounded and shared between client addresses
// (docs/decisions/043-slow-requests-bounded.md): a request joins it when it arrives, before its body
// is read, so a thousand stalled bodies from one address cannot all be held in memory; one address
// holds at most its share of the line and of the places at work, and freed places go round the
// addresses in turn, so a flood from one address neither makes everyone else wait behind it nor
// fills every turn of the event loop while they are at work.

declare module "fastify" {
  interface FastifyContextConfig {
    /** Not counted against the limit: long-lived or streamed (the WebSocket upgrade, uploads). */
    admission?: false;
  }
  interface FastifyRequest {
    admission: Ticket | null;
  }
  interface FastifyInstance {
    admission: Admission;
  }
}

export interface AdmissionLimits {
  /** Requests at work at once (MAX_CONCURRENT_REQUESTS). */
  limit: number;
  /** Requests at work at once from one address (MAX_CONCURRENT_PER_ADDRESS). */
  limitPerAddress: number;
  /** Requests in line (arrived, not at work yet), all addresses together (REQUEST_QUEUE_LIMIT). */
  queueLimit: number;
  /** Requests in line from one address (REQUEST_QUEUE_PER_ADDRESS). */
  queuePerAddress: number;
}

export interface AdmissionOptions extends AdmissionLimits {
  /** Told how long each request that had to wait for a place waited (the metrics' histogram). */
  onWaited?: (seconds: number) => void;
}

/** What a client is told to wait before it asks again when the line is full. */
export const BUSY_RETRY_AFTER_SECONDS = 5;

/** One request's way through the door: in line from its arrival, then waiting for a place, then at work. */
export class Ticket {
  state: "line" | "waiting" | "inside" | "done" = "line";
  admit: () => void = () => undefined;
  constructor(readonly address: string) {}
}

/**
 * A counting gate with a bounded line: `arrive` joins the line (or says which line is full), `enter`
 * resolves when a place is free and the address is under its share, `release` gives back whatever
 * the ticket holds. Freed places go to the waiting addresses in turn, first come first served within each.
 */
export class Admission {
  private inside = 0;
  private readonly insideByAddress = new Map<string, number>();
  private inLine = 0;
  private readonly lineByAddress = new Map<string, number>();
  /** Tickets waiting for a place, per address; the map's order is the order of turns. */
  private readonly waiting = new Map<string, Ticket[]>();

  constructor(readonly limits: AdmissionLimits) {}

  get inFlight(): number {
    return this.inside;
  }

  /** Requests that have arrived and are not at work yet. */
  get lineLength(): number {
    return this.inLine;
  }

  /** Requests whose body has arrived, waiting for a place. */
  get queued(): number {
    let count = 0;
    for (const tickets of this.waiting.values()) count += tickets.length;
    return count;
  }

  /** A place in the line, or which line is full: everyone's ("all") or this address's share ("address"). */
  arrive(address: string): Ticket | { full: "all" | "address" } {
    if (this.inLine >= this.limits.queueLimit) return { full: "all" };
    const mine = this.lineByAddress.get(address) ?? 0;
    if (mine >= this.limits.queuePerAddress) return { full: "address" };
    this.inLine++;
    this.lineByAddress.set(address, mine + 1);
    return new Ticket(address);
  }

  enter(ticket: Ticket): Promise<void> | null {
    if (ticket.state !== "line") return null;
    if (this.inside < this.limits.limit && this.hasRoom(ticket.address)) {
      this.admit(ticket);
      return null;
    }
    ticket.state = "waiting";
    const turn = new Promise<void>((resolve) => (ticket.admit = resolve));
    const tickets = this.waiting.get(ticket.address);
    if (tickets) tickets.push(ticket);
    else this.waiting.set(ticket.address, [ticket]);
    return turn;
  }

  release(ticket: Ticket): void {
    const state = ticket.state;
    ticket.state = "done";
    if (state === "inside") this.passOn(ticket.address);
    else if (state === "waiting") {
      const tickets = this.waiting.get(ticket.address) ?? [];
      tickets.splice(tickets.indexOf(ticket), 1);
      if (tickets.length === 0) this.waiting.delete(ticket.address);
      this.leaveLine(ticket.address);
    } else if (state === "line") this.leaveLine(ticket.address);
  }

  private hasRoom(address: string): boolean {
    return (this.insideByAddress.get(address) ?? 0) < this.limits.limitPerAddress;
  }

  private admit(ticket: Ticket): void {
    this.leaveLine(ticket.address);
    ticket.state = "inside";
    this.inside++;
    this.insideByAddress.set(ticket.address, (this.insideByAddress.get(ticket.address) ?? 0) + 1);
    ticket.admit();
  }

  /**
   * A freed place goes to the first address in turn that is under its share of the places; that
   * address then goes to the back. The one place freed can admit one request at most.
   */
  private passOn(leaving: string): void {
    this.inside--;
    const mine = (this.insideByAddress.get(leaving) ?? 1) - 1;
    if (mine === 0) this.insideByAddress.delete(leaving);
    else this.insideByAddress.set(leaving, mine);
    for (const [address, tickets] of this.waiting) {
      if (!this.hasRoom(address)) continue;
      const next = tickets.shift();
      this.waiting.delete(address);
      if (tickets.length > 0) this.waiting.set(address, tickets);
      if (next) this.admit(next);
      return;
    }
  }

  private leaveLine(address: string): void {
    this.inLine--;
    const mine = (this.lineByAddress.get(address) ?? 1) - 1;
    if (mine === 0) this.lineByAddress.delete(address);
    else this.lineByAddress.set(address, mine);
  }
}

const BUSY_MESSAGES = {
  all: `The server is busy. Please try again in ${BUSY_RETRY_AFTER_SECONDS} seconds.`,
  address: `Too many requests from your network are waiting. Please try again in ${BUSY_RETRY_AFTER_SECONDS} seconds.`,
};

export default fp<AdmissionOptions>(
  async (app, { onWaited, ...limits }) => {
    const admission = new Admission(limits);
    app.decorate("admission", admission);
    app.decorateRequest("admission", null);
    // On arrival, before the body is read: the line is bounded by what has arrived, not only by
    // what has been read, and a request turned away here is never read into memory.
    app.addHook("onRequest", async (request, reply) => {
      if (request.routeOptions.config.admission === false) return;
      const ticket = admission.arrive(request.ip);
      if (!(ticket instanceof Ticket)) {
        reply.header("retry-after", String(BUSY_RETRY_AFTER_SECONDS));
        throw new HttpError(503, BUSY_MESSAGES[ticket.full]);
      }
      request.admission = ticket;
    });
    // A place is taken once the body has been read: a client that sends its body slowly holds
    // none meanwhile (only its place in the line, until REQUEST_TIMEOUT_MS cuts it off).
    app.addHook("preValidation", async (request) => {
      if (!request.admission) return;
      const turn = admission.enter(request.admission);
      if (!turn) return;
      const start = onWaited ? performance.now() : 0;
      await turn;
      onWaited?.((performance.now() - start) / 1000);
    });
    const release = (request: { admission: Ticket | null }) => {
      if (!request.admission) return;
      admission.release(request.admission);
      request.admission = null;
    };
    // The place is for the work, not the transfer: it is given back when the answer is ready
    // (onSend), so a client that reads a photo slowly holds none. onResponse and onRequestAbort
    // catch what never reached onSend (a client gone mid-handler, or while in line).
    app.addHook("onSend", async (request, _reply, payload) => {
      release(request);
      return payload;
    });
    app.addHook("onResponse", async (request) => release(request));
    app.addHook("onRequestAbort", async (request) => release(request));
  },
  { name: "admission" },
);
