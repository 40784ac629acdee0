import net from "node:net";
import type { Check } from "../report.js";

// Item 8: connections whose request never fully arrives. Raw sockets from their own loopback
// addresses (127.0.1.x and 127.0.2.x, apart from every other actor's) send part of a body or part
// of a header block and stall; each notes when the server closed it and what it answered. The
// server runs with its default timeouts (REQUEST_TIMEOUT_MS 60 s, HEADERS_TIMEOUT_MS 20 s), so the
// check runs beside the others and is judged when it ends.

const REQUEST_TIMEOUT_S = 60;
const HEADERS_TIMEOUT_S = 20;
/** How long past its timeout a connection may stay open: the server looks every 250 ms, on a loaded event loop. */
const LATE_S = 2;
const ANNOUNCED = 1_048_000;
const SENT = 100_000;

interface Closed {
  group: string;
  openS: number;
  outcome: string;
  deadlineS: number;
}

function stall(port: number, localAddress: string, group: string, deadlineS: number, send: (socket: net.Socket) => void): Promise<Closed> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port, localAddress });
    let answer = "";
    let openedAt = 0;
    socket.on("data", (chunk: Buffer) => (answer ||= chunk.toString("latin1", 0, 12)));
    socket.on("error", () => undefined);
    socket.once("connect", () => {
      openedAt = performance.now();
      send(socket);
    });
    // Past every deadline a still-open socket is the failure being looked for: close it and say so.
    const giveUp = setTimeout(() => socket.destroy(new Error("still open")), (deadlineS + 15) * 1000);
    socket.once("close", () => {
      clearTimeout(giveUp);
      const openS = openedAt ? (performance.now() - openedAt) / 1000 : 0;
      resolve({ group, openS, outcome: answer ? `answered ${answer.slice(9, 12)}` : "closed unanswered", deadlineS });
    });
  });
}

function body(port: number, origin: string): (socket: net.Socket) => void {
  return (socket) => {
    socket.write(
      `POST /api/contact HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${origin}\r\nContent-Type: application/json\r\nContent-Length: ${ANNOUNCED}\r\n\r\n` +
        `{"name":"${"x".repeat(SENT - 10)}`,
    );
  };
}

const HEADER_STALLS: ((socket: net.Socket, port: number) => void)[] = [
  () => undefined,
  (socket) => socket.write("GET /robots.t"),
  (socket, port) => socket.write(`GET /robots.txt HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`),
  (socket, port) => {
    socket.write(`GET /robots.txt HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
    const trickle = setInterval(() => socket.write("X-Trickle: 1\r\n"), 1000);
    socket.once("close", () => clearInterval(trickle));
  },
];

export interface SlowRun {
  closed: Closed[];
  /** A request from another address while they stalled. */
  otherServedMs: number;
  otherStatus: number;
}

/** Opens every stalled connection now; resolves once the server has closed them all (about 62 s). */
export async function startSlowConnections(port: number, origin: string): Promise<SlowRun> {
  const waits: Promise<Closed>[] = [];
  const bodies = (address: string, group: string, n: number) => {
    for (let i = 0; i < n; i += 1) waits.push(stall(port, address, group, REQUEST_TIMEOUT_S, body(port, origin)));
  };
  bodies("127.0.1.1", "1 body from one address", 1);
  bodies("127.0.1.2", "20 bodies from one address", 20);
  bodies("127.0.1.3", "64 bodies from one address", 64);
  for (let a = 1; a <= 40; a += 1) bodies(`127.0.2.${a}`, "3 bodies from each of 40 addresses", 3);
  for (let i = 0; i < 64; i += 1) {
    const variant = HEADER_STALLS[i % HEADER_STALLS.length];
    waits.push(stall(port, "127.0.1.4", "64 incomplete header blocks from one address", HEADERS_TIMEOUT_S, (s) => variant?.(s, port)));
  }
  await new Promise((r) => setTimeout(r, 2000));
  const started = performance.now();
  const other = await fetch(`http://127.0.0.1:${port}/api/tasks/open`).then((r) => r.status, () => 0);
  const otherServedMs = performance.now() - started;
  return { closed: await Promise.all(waits), otherServedMs, otherStatus: other };
}

export function judgeSlowConnections(check: Check, run: SlowRun): void {
  const groups = [...new Set(run.closed.map((c) => c.group))];
  for (const group of groups) {
    const closed = run.closed.filter((c) => c.group === group);
    const deadline = closed[0]?.deadlineS ?? REQUEST_TIMEOUT_S;
    const longest = Math.max(...closed.map((c) => c.openS));
    const outcomes = new Map<string, number>();
    for (const c of closed) outcomes.set(c.outcome, (outcomes.get(c.outcome) ?? 0) + 1);
    const early = closed.filter((c) => c.outcome === "answered 408" && c.openS < deadline - 1).length;
    check.expect(
      `${group}: closed within ${deadline} s + ${LATE_S} s`,
      longest <= deadline + LATE_S && early === 0,
      `longest open ${longest.toFixed(1)} s; ${[...outcomes].map(([o, n]) => `${n} ${o}`).join(", ")}${early ? `; ${early} cut before the timeout` : ""}`,
    );
  }
  check.expect(
    "(control) another address is served while they stall",
    run.otherStatus === 200 && run.otherServedMs < 2000,
    `GET /api/tasks/open answered ${run.otherStatus} in ${run.otherServedMs.toFixed(0)} ms`,
  );
}
