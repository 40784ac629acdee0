import http from "node:http";
import net from "node:net";
import Fastify from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/create-test-app.js";
import admissionPlugin, { BUSY_RETRY_AFTER_SECONDS } from "./admission.js";

// Slow requests cannot hold the server (issue 27, docs/decisions/043-slow-requests-bounded.md): a
// body that does not arrive in time is cut off, one address holds a bounded number of connections
// and a bounded share of a bounded line, and freed places go round the addresses in turn. Each
// limit is tried over real sockets from distinct loopback addresses (127.0.0.2, .3, .4).

const TIMEOUT_MS = 500;
const slow = await useTestApp({ REQUEST_TIMEOUT_MS: String(TIMEOUT_MS) });
const slowUrl = new URL(await slow.app.listen({ port: 0, host: "127.0.0.1" }));
const limited = await useTestApp({ MAX_CONNECTIONS_PER_ADDRESS: "3", REQUEST_QUEUE_PER_ADDRESS: "2", REQUEST_QUEUE_LIMIT: "3" });
const limitedUrl = new URL(await limited.app.listen({ port: 0, host: "127.0.0.1" }));

interface RawSocket {
  socket: net.Socket;
  /** Everything the server sent, once it has closed the connection (or we did). */
  closed: Promise<string>;
}

/** A TCP connection from `localAddress`, for requests written by hand (a body that stalls). */
function connect(url: URL, localAddress: string): Promise<RawSocket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port), localAddress });
    let received = "";
    socket.on("data", (chunk: Buffer) => (received += chunk.toString()));
    const closed = new Promise<string>((done) => socket.once("close", () => done(received)));
    // A connection the server closes may see ECONNRESET; what it received is what counts.
    socket.on("error", () => undefined);
    socket.once("connect", () => resolve({ socket, closed }));
    socket.once("error", reject);
  });
}

/** A sign-in whose body announces 1,000 bytes and sends 10: it waits for the rest. */
function writeStalledBody(raw: RawSocket, url: URL): void {
  raw.socket.write(
    `POST /api/login HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"email":"`,
  );
}

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

describe("a body that does not arrive in time", () => {
  it("is cut off after REQUEST_TIMEOUT_MS with a 408 sentence, and its place in line is given back", async () => {
    const raw = await connect(slowUrl, "127.0.0.2");
    const sentAt = performance.now();
    writeStalledBody(raw, slowUrl);
    // Counted on arrival, while its body is still coming.
    await expect.poll(() => slow.app.admission.lineLength).toBe(1);
    const answer = await raw.closed;
    expect(performance.now() - sentAt).toBeGreaterThanOrEqual(TIMEOUT_MS);
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toEqual({
      message: "The request took too long to arrive. Check your connection and try again.",
    });
    await expect.poll(() => slow.app.admission.lineLength).toBe(0);
  });
});

describe("open connections per address", () => {
  it("closes a connection past MAX_CONNECTIONS_PER_ADDRESS unanswered, serves other addresses, and takes one again once one closes", async () => {
    const held = await Promise.all([1, 2, 3].map(() => connect(limitedUrl, "127.0.0.2")));
    await expect.poll(() => limited.app.connectionsByAddress.get("127.0.0.2")).toBe(3);
    const fourth = await connect(limitedUrl, "127.0.0.2");
    fourth.socket.write(`GET /api/health HTTP/1.1\r\nHost: ${limitedUrl.host}\r\n\r\n`);
    expect(await fourth.closed).toBe("");
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
