import http from "node:http";
import net from "node:net";
import { sql } from "drizzle-orm";
import Fastify from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { createUser, TEST_ORIGIN, useTestApp, type TestApp } from "../../../test/create-test-app.js";
import { openTestSocket } from "../../../test/test-socket.js";
import admissionPlugin, { BUSY_RETRY_AFTER_SECONDS } from "./admission.js";

// Slow requests cannot hold the server (issue 27, docs/decisions/043-slow-requests-bounded.md): a
// request that does not arrive in time is cut off, one address holds a bounded number of connections
// and a bounded share of a bounded line, and freed places go round the addresses in turn. Each
// limit is tried over real sockets from distinct loopback addresses (127.0.0.2 and up).
//
// Connections are closed on time (issue 40, item 8, docs/decisions/071-connections-closed-on-time.md):
// whatever their number, from one address or many, in line or waiting for a place, a connection
// whose headers have not arrived within HEADERS_TIMEOUT_MS or whose request has not within
// REQUEST_TIMEOUT_MS is cut off, never before, and by the server's clock at most LATE_MS after; a
// request that did arrive is not cut however long its answer or the connection lasts. The tests wait
// for sockets to close, never for a time; a moment that must lie past a deadline is the close of
// another connection the server cut at it. Only a flood's arrivals are spread out on a timer.

const TIMEOUT_MS = 1_000;
const HEADERS_TIMEOUT_MS = 300;
/**
 * How long past its deadline the server may cut a connection, by its own clock. It looks every 30 ms
 * here (app.ts: a tenth of the header timeout); the rest is for this machine, shared and often
 * loaded: with 500 connections arriving in this one process at a load average of 24, the server's
 * look came 1.4 s late. docs/benchmarks.md ("Slow requests") has the figure on a built server.
 */
const LATE_MS = 2_000;
/** Connections of one flood arrive over this long, not in one instant; under TIMEOUT_MS, so all are open at once. */
const ARRIVAL_SPREAD_MS = 600;

/** When the server took each connection and when it cut it off (its 408), by the client's address and port. */
type Cuts = Map<string, { taken: number; cut?: number }>;

async function listening(overrides: Record<string, string>): Promise<{ t: TestApp; url: URL; cuts: Cuts }> {
  const t = await useTestApp(overrides);
  const cuts: Cuts = new Map();
  t.app.server.on("connection", (socket: net.Socket) => cuts.set(`${socket.remoteAddress}:${socket.remotePort}`, { taken: performance.now() }));
  // Before the app's own handler, which answers 408 and destroys the socket (client-errors.ts).
  t.app.server.prependListener("clientError", (_error: Error, socket: net.Socket) => {
    const entry = cuts.get(`${socket.remoteAddress}:${socket.remotePort}`);
    if (entry) entry.cut ??= performance.now();
  });
  const url = new URL(await t.app.listen({ port: 0, host: "127.0.0.1" }));
  return { t, url, cuts };
}

const deadlines = { REQUEST_TIMEOUT_MS: String(TIMEOUT_MS), HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS) };
const { t: slow, url: slowUrl, cuts: slowCuts } = await listening(deadlines);
const { t: held, url: heldUrl, cuts: heldCuts } = await listening({ ...deadlines, MAX_CONCURRENT_REQUESTS: "1" });
/** A request's time far past its headers' (and LATE_MS): headers given the request's time, as decision 043 did, fail. */
const LONG_TIMEOUT_MS = 10_000;
const { url: headersFirstUrl, cuts: headersFirstCuts } = await listening({ REQUEST_TIMEOUT_MS: String(LONG_TIMEOUT_MS), HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS) });
const limited = await useTestApp({ MAX_CONNECTIONS_PER_ADDRESS: "3", REQUEST_QUEUE_PER_ADDRESS: "2", REQUEST_QUEUE_LIMIT: "3" });
const limitedUrl = new URL(await limited.app.listen({ port: 0, host: "127.0.0.1" }));

interface Closed {
  /** Everything the server sent before it closed the connection (or we did). */
  received: string;
  /** Milliseconds from just before the connection was asked for to its close: no shorter than the server had it. */
  openMs: number;
}

interface RawSocket {
  socket: net.Socket;
  /** This end's address and port: the server's name for the connection. */
  name: string;
  closed: Promise<Closed>;
}

/** A TCP connection from `localAddress`, for requests written by hand (a body that stalls). */
function connect(url: URL, localAddress: string): Promise<RawSocket> {
  return new Promise((resolve, reject) => {
    const asked = performance.now();
    const socket = net.connect({ host: url.hostname, port: Number(url.port), localAddress });
    let received = "";
    // Read everything: a socket left unread never sees the server's close.
    socket.on("data", (chunk: Buffer) => (received += chunk.toString()));
    const closed = new Promise<Closed>((done) => socket.once("close", () => done({ received, openMs: performance.now() - asked })));
    // A connection the server closes may see ECONNRESET; what it received is what counts.
    socket.on("error", () => undefined);
    socket.once("connect", () => resolve({ socket, name: `${socket.localAddress}:${socket.localPort}`, closed }));
    socket.once("error", reject);
  });
}

/** A sign-in whose body announces 1,000 bytes and sends 10: it waits for the rest. */
function writeStalledBody(raw: RawSocket, url: URL): void {
  raw.socket.write(
    `POST /api/auth/login HTTP/1.1\r\nHost: ${url.host}\r\nOrigin: ${TEST_ORIGIN}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"email":"`,
  );
}

/** Ways a header block stays incomplete: nothing at all, half a request line, no blank line, one header line every 50 ms. */
const INCOMPLETE_HEADERS = ["nothing", "half a line", "no blank line", "trickled"] as const;

function writeIncompleteHeaders(raw: RawSocket, url: URL, how: (typeof INCOMPLETE_HEADERS)[number]): void {
  if (how === "half a line") raw.socket.write("GET /robots.t");
  if (how === "no blank line") raw.socket.write(`GET /robots.txt HTTP/1.1\r\nHost: ${url.host}\r\n`);
  if (how === "trickled") {
    raw.socket.write(`GET /robots.txt HTTP/1.1\r\nHost: ${url.host}\r\n`);
    // The classic slow sender: always something new, never the end of the block.
    const trickle = setInterval(() => raw.socket.write(`X-Trickle: ${performance.now()}\r\n`), 50);
    raw.socket.once("close", () => clearInterval(trickle));
  }
}

/**
 * `count` connections from `addresses` in turn, opened evenly over ARRIVAL_SPREAD_MS (a flood
 * arriving, not one instant), each sending what `send` writes as soon as it is open.
 */
async function openOverTime(url: URL, addresses: string[], count: number, send: (raw: RawSocket) => void): Promise<RawSocket[]> {
  const gap = ARRIVAL_SPREAD_MS / count;
  const start = performance.now();
  const opening: Promise<RawSocket>[] = [];
  for (let i = 0; i < count; i++) {
    const at = start + i * gap;
    const opened = new Promise<void>((go) => setTimeout(go, Math.max(0, at - performance.now()))).then(() => connect(url, addresses[i % addresses.length] ?? ""));
    opening.push(
      opened.then((raw) => {
        send(raw);
        return raw;
      }),
    );
  }
  return Promise.all(opening);
}

/** The moment a connection the server cut at `deadline` closed: a point in time known to be past it. */
async function pastDeadline(url: URL, localAddress: string, deadline: "headers" | "request"): Promise<void> {
  const raw = await connect(url, localAddress);
  if (deadline === "request") writeStalledBody(raw, url);
  const { received } = await raw.closed;
  expect(received).toMatch(/^HTTP\/1\.1 408 /);
}

/**
 * Each was cut off by the server at `deadlineMs` (not before) and at most LATE_MS after, by the
 * server's clock, and the client saw it closed with an answer of `statuses` (a 503 first for those
 * turned away at the door, whose bodies are still due).
 */
async function expectCutOnTime(raws: RawSocket[], cuts: Cuts, deadlineMs: number, statuses = ["408"]): Promise<void> {
  const closed = await Promise.all(raws.map((raw) => raw.closed));
  for (const [i, { received, openMs }] of closed.entries()) {
    expect(statuses).toContain(received.slice(9, 12));
    expect(openMs).toBeGreaterThanOrEqual(deadlineMs);
    const { taken, cut = Number.POSITIVE_INFINITY } = cuts.get(raws[i]?.name ?? "") ?? { taken: Number.NaN };
    expect(cut - taken).toBeLessThanOrEqual(deadlineMs + LATE_MS);
  }
}

const TIMEOUT_SENTENCE = { message: "The request took too long to arrive. Check your connection and try again." };
const bodyOf = (answer: string) => answer.slice(answer.indexOf("\r\n\r\n") + 4);

function get(url: URL, localAddress: string, path: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: url.hostname, port: url.port, path, localAddress, agent: false }, (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on("error", reject);
    request.end();
  });
}

describe("a request that does not arrive in time", () => {
  it("is cut off at REQUEST_TIMEOUT_MS with a 408 sentence and leaves the line", async () => {
    const raw = await connect(slowUrl, "127.0.0.2");
    writeStalledBody(raw, slowUrl);
    // Counted on arrival, while its body is still coming.
    await expect.poll(() => slow.app.admission.lineLength).toBe(1);
    await expectCutOnTime([raw], slowCuts, TIMEOUT_MS);
    expect(JSON.parse(bodyOf((await raw.closed).received))).toEqual(TIMEOUT_SENTENCE);
    await expect.poll(() => slow.app.admission.lineLength).toBe(0);
  });

  it.each([
    [20, "127.0.0.3"],
    [64, "127.0.0.4"],
  ])("closes %i stalled or trickling bodies from one address on time, past the line's share too", async (count, address) => {
    const raws = await openOverTime(slowUrl, [address], count, (raw) => writeStalledBody(raw, slowUrl));
    // Half of them keep sending a byte every 50 ms, the body never complete.
    const trickles = raws.filter((_, i) => i % 2 === 1).map((raw) => setInterval(() => raw.socket.write("a"), 50));
    try {
      // Past the address's 32 places in line the server answers 503 at once (decision 043); those
      // connections too must close by the deadline.
      await expectCutOnTime(raws, slowCuts, TIMEOUT_MS, count > 32 ? ["408", "503"] : ["408"]);
    } finally {
      for (const trickle of trickles) clearInterval(trickle);
    }
    expect(slow.app.admission.lineLength).toBe(0);
  });

  it("closes connections whose headers have not all arrived at HEADERS_TIMEOUT_MS, 64 from one address", async () => {
    const raws = await Promise.all(Array.from({ length: 64 }, () => connect(headersFirstUrl, "127.0.0.5")));
    for (const [i, raw] of raws.entries()) writeIncompleteHeaders(raw, headersFirstUrl, INCOMPLETE_HEADERS[i % INCOMPLETE_HEADERS.length] ?? "nothing");
    await expectCutOnTime(raws, headersFirstCuts, HEADERS_TIMEOUT_MS);
    expect(JSON.parse(bodyOf((await raws[0]?.closed)?.received ?? ""))).toEqual(TIMEOUT_SENTENCE);
  });

  it("closes requests waiting for a place whose bodies have not arrived, and not the request at work whose body has", async () => {
    // The one place goes to a sign-in that then waits on the database (a lock the test holds).
    let unlock = () => undefined as void;
    const unlocked = new Promise<void>((resolve) => (unlock = resolve));
    const locked = new Promise<void>((lockTaken) => {
      void held.database.db.transaction(async (tx) => {
        await tx.execute(sql`lock table users in access exclusive mode`);
        lockTaken();
        await unlocked;
      });
    });
    await locked;
    const atWork = await connect(heldUrl, "127.0.0.6");
    const signIn = JSON.stringify({ email: "someone@example.test", password: "not the password" });
    atWork.socket.write(
      `POST /api/auth/login HTTP/1.1\r\nHost: ${heldUrl.host}\r\nOrigin: ${TEST_ORIGIN}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(signIn)}\r\nConnection: close\r\n\r\n${signIn}`,
    );
    await expect.poll(() => held.app.admission.inFlight).toBe(1);
    try {
      // A GET's body is never read, so the request goes straight to wait for a place; its body must
      // still arrive in time.
      const waiting = await openOverTime(heldUrl, ["127.0.0.7"], 8, (raw) =>
        raw.socket.write(`GET /robots.txt HTTP/1.1\r\nHost: ${heldUrl.host}\r\nContent-Length: 1000\r\n\r\nabc`),
      );
      await expect.poll(() => held.app.admission.queued).toBe(8);
      await expectCutOnTime(waiting, heldCuts, TIMEOUT_MS);
      expect(held.app.admission.queued).toBe(0);
    } finally {
      unlock();
    }
    // At work past the timeout, its request whole: it is answered.
    const { received } = await atWork.closed;
    expect(received).toMatch(/^HTTP\/1\.1 401 /);
  });

  it("closes 100 addresses' 5 stalled bodies each on time", async () => {
    const addresses = Array.from({ length: 100 }, (_, i) => `127.0.1.${i + 1}`);
    const raws = await openOverTime(slowUrl, addresses, 500, (raw) => writeStalledBody(raw, slowUrl));
    await expectCutOnTime(raws, slowCuts, TIMEOUT_MS);
    await expect.poll(() => slow.app.connectionsByAddress.size).toBe(0);
  });
});

describe("a connection whose request has arrived", () => {
  it("may send its body for longer than HEADERS_TIMEOUT_MS, within REQUEST_TIMEOUT_MS", async () => {
    const raw = await connect(headersFirstUrl, "127.0.0.8");
    const signIn = JSON.stringify({ email: "someone@example.test", password: "not the password" });
    raw.socket.write(
      `POST /api/auth/login HTTP/1.1\r\nHost: ${headersFirstUrl.host}\r\nOrigin: ${TEST_ORIGIN}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(signIn)}\r\nConnection: close\r\n\r\n${signIn.slice(0, 10)}`,
    );
    await pastDeadline(headersFirstUrl, "127.0.0.9", "headers");
    raw.socket.write(signIn.slice(10));
    expect((await raw.closed).received).toMatch(/^HTTP\/1\.1 401 /);
  });

  it("stays open between requests past both timeouts (keep-alive), and answers the next one", async () => {
    const raw = await connect(slowUrl, "127.0.0.10");
    let received = "";
    raw.socket.on("data", (chunk: Buffer) => (received += chunk.toString()));
    const statuses = () => [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => match[1]);
    const request = `GET /robots.txt HTTP/1.1\r\nHost: ${slowUrl.host}\r\n\r\n`;
    raw.socket.write(request);
    await expect.poll(statuses).toEqual(["200"]);
    await pastDeadline(slowUrl, "127.0.0.11", "request");
    raw.socket.write(request);
    await expect.poll(statuses).toEqual(["200", "200"]);
    raw.socket.destroy();
  });

  it("does not cut a long answer read slowly", async () => {
    const raw = await connect(slowUrl, "127.0.0.12");
    // Read nothing until the request deadline has passed, then all of it.
    raw.socket.pause();
    raw.socket.write(`GET /api/docs/json HTTP/1.1\r\nHost: ${slowUrl.host}\r\nConnection: close\r\n\r\n`);
    await pastDeadline(slowUrl, "127.0.0.13", "request");
    raw.socket.resume();
    const { received } = await raw.closed;
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    const length = Number(/content-length: (\d+)/i.exec(received)?.[1]);
    expect(Buffer.byteLength(bodyOf(received))).toBe(length);
  });

  it("does not cut an upgraded WebSocket", async () => {
    const user = await createUser(slow);
    const opened = await openTestSocket(`ws://${slowUrl.host}/ws`, { cookie: user.cookie, origin: TEST_ORIGIN });
    if ("refused" in opened) throw new Error(`the upgrade was refused with ${opened.refused}`);
    await pastDeadline(slowUrl, "127.0.0.14", "request");
    const pong = new Promise<void>((resolve) => opened.socket.once("pong", () => resolve()));
    opened.socket.ping();
    await pong;
    opened.close();
    await opened.closed();
  });
});

describe("open connections per address", () => {
  it("closes a connection past MAX_CONNECTIONS_PER_ADDRESS unanswered, serves other addresses, and takes one again once one closes", async () => {
    const held = await Promise.all([1, 2, 3].map(() => connect(limitedUrl, "127.0.0.2")));
    await expect.poll(() => limited.app.connectionsByAddress.get("127.0.0.2")).toBe(3);
    const fourth = await connect(limitedUrl, "127.0.0.2");
    fourth.socket.write(`GET /api/health HTTP/1.1\r\nHost: ${limitedUrl.host}\r\n\r\n`);
    expect((await fourth.closed).received).toBe("");
    expect((await get(limitedUrl, "127.0.0.3", "/api/health")).status).toBe(200);

    held[0]?.socket.destroy();
    await expect.poll(() => limited.app.connectionsByAddress.get("127.0.0.2")).toBe(2);
    expect((await get(limitedUrl, "127.0.0.2", "/api/health")).status).toBe(200);
    for (const raw of held) raw.socket.destroy();
    await expect.poll(() => limited.app.connectionsByAddress.size).toBe(0);
  });
});

describe("the line at the door", () => {
  it("answers 503 with Retry-After past one address's share and past the whole line, counting bodies still arriving", async () => {
    // robots.txt waits in the line like any page; the health checks do not (plugins/health.ts).
    const stalled = await Promise.all([connect(limitedUrl, "127.0.0.2"), connect(limitedUrl, "127.0.0.2")]);
    for (const raw of stalled) writeStalledBody(raw, limitedUrl);
    await expect.poll(() => limited.app.admission.lineLength).toBe(2);

    const overShare = await get(limitedUrl, "127.0.0.2", "/robots.txt");
    expect(overShare.status).toBe(503);
    expect(overShare.headers["retry-after"]).toBe(String(BUSY_RETRY_AFTER_SECONDS));
    expect(JSON.parse(overShare.body)).toEqual({
      message: `Too many requests from your network are waiting. Please try again in ${BUSY_RETRY_AFTER_SECONDS} seconds.`,
    });
    // Another address's share is its own.
    expect((await get(limitedUrl, "127.0.0.3", "/robots.txt")).status).toBe(200);

    const third = await connect(limitedUrl, "127.0.0.3");
    writeStalledBody(third, limitedUrl);
    stalled.push(third);
    await expect.poll(() => limited.app.admission.lineLength).toBe(3);
    const overLine = await get(limitedUrl, "127.0.0.4", "/robots.txt");
    expect(overLine.status).toBe(503);
    expect(overLine.headers["retry-after"]).toBe(String(BUSY_RETRY_AFTER_SECONDS));
    expect(JSON.parse(overLine.body)).toEqual({ message: `The server is busy. Please try again in ${BUSY_RETRY_AFTER_SECONDS} seconds.` });

    // A client that gives up leaves the line.
    for (const raw of stalled) raw.socket.destroy();
    await expect.poll(() => limited.app.admission.lineLength).toBe(0);
    expect((await get(limitedUrl, "127.0.0.4", "/robots.txt")).status).toBe(200);
  });
});

describe("two addresses", () => {
  it("take turns: a request from a second address goes in after one more of the first address's, not after all of them", async () => {
    const app = Fastify();
    afterAll(() => app.close());
    await app.register(admissionPlugin, { limit: 1, limitPerAddress: 100, queueLimit: 100, queuePerAddress: 100 });
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const order: string[] = [];
    app.get<{ Params: { name: string } }>("/work/:name", async (request) => {
      order.push(request.params.name);
      if (request.params.name === "a0") await held;
      return { ok: true };
    });
    const url = new URL(await app.listen({ port: 0, host: "127.0.0.1" }));

    const answers = [get(url, "127.0.0.2", "/work/a0")];
    await expect.poll(() => app.admission.inFlight).toBe(1);
    for (const [i, name] of ["a1", "a2", "a3"].entries()) {
      answers.push(get(url, "127.0.0.2", `/work/${name}`));
      await expect.poll(() => app.admission.queued).toBe(i + 1);
    }
    answers.push(get(url, "127.0.0.3", "/work/b1"));
    await expect.poll(() => app.admission.queued).toBe(4);
    release();
    expect((await Promise.all(answers)).map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect(order).toEqual(["a0", "a1", "b1", "a2", "a3"]);
  });
});
