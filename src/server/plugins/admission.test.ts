import { PassThrough } from "node:stream";
import Fastify from "fastify";
import WebSocket from "ws";
import { afterAll, describe, expect, it } from "vitest";
import { call, createUser, TEST_ORIGIN, useTestApp } from "../../../test/create-test-app.js";
import admissionPlugin, { Admission, Ticket } from "./admission.js";

// Requests admitted in turn (docs/decisions/040-requests-admitted-in-turn.md): at most the limit at
// work, the rest waiting at the door in arrival order, and every place given back whatever the
// answer, so the gate never closes for good.

const t = await useTestApp({ MAX_CONCURRENT_REQUESTS: "1" });

describe("Admission", () => {
  const limits = { limit: 2, limitPerAddress: 100, queueLimit: 100, queuePerAddress: 100 };
  const ticket = (gate: Admission, address = "127.0.0.2"): Ticket => {
    const arrived = gate.arrive(address);
    if (!(arrived instanceof Ticket)) throw new Error(`the line refused ${address}`);
    return arrived;
  };

  it("lets the limit in at once, queues the rest in arrival order and hands each freed place to the next", async () => {
    const gate = new Admission(limits);
    const [first, second, third, fourth] = [ticket(gate), ticket(gate), ticket(gate), ticket(gate)];
    expect(gate.enter(first)).toBeNull();
    expect(gate.enter(second)).toBeNull();
    const order: string[] = [];
    const thirdIn = gate.enter(third)?.then(() => order.push("third"));
    const fourthIn = gate.enter(fourth)?.then(() => order.push("fourth"));
    expect([gate.inFlight, gate.queued]).toEqual([2, 2]);
    gate.release(first);
    await thirdIn;
    expect(order).toEqual(["third"]);
    expect([gate.inFlight, gate.queued]).toEqual([2, 1]);
    gate.release(second);
    await fourthIn;
    expect(order).toEqual(["third", "fourth"]);
    gate.release(third);
    gate.release(fourth);
    expect([gate.inFlight, gate.queued, gate.lineLength]).toEqual([0, 0, 0]);
    expect(gate.enter(ticket(gate))).toBeNull();
  });

  it("counts a request in line from its arrival, before its body is read, and bounds the line overall and per address", () => {
    const gate = new Admission({ limit: 1, limitPerAddress: 100, queueLimit: 3, queuePerAddress: 2 });
    const a = [ticket(gate, "127.0.0.2"), ticket(gate, "127.0.0.2")];
    expect(gate.lineLength).toBe(2);
    expect(gate.arrive("127.0.0.2")).toEqual({ full: "address" });
    const b = ticket(gate, "127.0.0.3");
    expect(gate.arrive("127.0.0.4")).toEqual({ full: "all" });
    // Leaving the line without working (a body cut off, a refusal) frees the place in it.
    gate.release(b);
    expect(gate.arrive("127.0.0.4")).toBeInstanceOf(Ticket);
    // Going to work leaves the line too.
    expect(gate.enter(a[0] as Ticket)).toBeNull();
    expect(gate.arrive("127.0.0.2")).toBeInstanceOf(Ticket);
  });

  it("passes freed places round the waiting addresses in turn, so one address cannot keep another waiting", () => {
    const gate = new Admission({ limit: 1, limitPerAddress: 100, queueLimit: 100, queuePerAddress: 100 });
    const working = ticket(gate, "127.0.0.2");
    void gate.enter(working);
    const waiting = new Map<string, Ticket>();
    for (const name of ["a1", "a2", "a3", "b1", "b2"]) {
      const waiter = ticket(gate, name.startsWith("a") ? "127.0.0.2" : "127.0.0.3");
      waiting.set(name, waiter);
      void gate.enter(waiter);
    }
    const order: string[] = [];
    let current = working;
    while (waiting.size > 0) {
      gate.release(current);
      const next = [...waiting].find(([, waiter]) => waiter.state === "inside");
      if (!next) throw new Error("a freed place went to nobody");
      order.push(next[0]);
      waiting.delete(next[0]);
      current = next[1];
    }
    expect(order).toEqual(["a1", "b1", "a2", "b2", "a3"]);
  });

  it("keeps one address to its share of the places at work, so the rest stay for other addresses", () => {
    const gate = new Admission({ limit: 3, limitPerAddress: 2, queueLimit: 100, queuePerAddress: 100 });
    const [a1, a2, a3] = [ticket(gate, "127.0.0.2"), ticket(gate, "127.0.0.2"), ticket(gate, "127.0.0.2")];
    expect(gate.enter(a1)).toBeNull();
    expect(gate.enter(a2)).toBeNull();
    // A place is free, but not for an address at its share.
    void gate.enter(a3);
    expect(a3.state).toBe("waiting");
    const b = ticket(gate, "127.0.0.3");
    expect(gate.enter(b)).toBeNull();
    // A place freed by another address does not let it past its share either; one of its own does.
    gate.release(b);
    expect(a3.state).toBe("waiting");
    gate.release(a1);
    expect(a3.state).toBe("inside");
    expect([gate.inFlight, gate.queued]).toEqual([2, 0]);
  });

  it("gives back whatever a ticket holds: a place at work, a wait, or a place in line", () => {
    const gate = new Admission({ limit: 1, limitPerAddress: 100, queueLimit: 100, queuePerAddress: 100 });
    const [inside, waiting, inLine] = [ticket(gate), ticket(gate), ticket(gate)];
    void gate.enter(inside);
    void gate.enter(waiting);
    expect([gate.inFlight, gate.queued, gate.lineLength]).toEqual([1, 1, 2]);
    gate.release(waiting);
    gate.release(inLine);
    expect([gate.inFlight, gate.queued, gate.lineLength]).toEqual([1, 0, 0]);
    gate.release(inside);
    gate.release(inside);
    expect([gate.inFlight, gate.queued, gate.lineLength]).toEqual([0, 0, 0]);
  });
});

describe("the admission plugin", () => {
  it("answers many requests at once through a gate of one, and gives every place back whatever the answer", async () => {
    const user = await createUser(t);
    const requests = [
      ...Array.from({ length: 8 }, () => call(t, null, { url: "/api/tasks/open" })),
      ...Array.from({ length: 4 }, () => call(t, user, { url: "/api/auth/user" })),
      // 400, 404, 401: refusals leave too.
      call(t, null, { url: "/api/tasks/open?pageSize=0" }),
      call(t, null, { url: "/api/tasks/00000000-0000-4000-8000-000000000000" }),
      call(t, null, { url: "/api/tasks/my-tasks" }),
      call(t, user, { method: "POST", url: "/api/tasks", payload: { title: "" } }),
    ];
    const statuses = (await Promise.all(requests)).map((r) => r.statusCode);
    expect(statuses.slice(0, 12)).toEqual(Array.from({ length: 12 }, () => 200));
    expect(statuses.slice(12)).toEqual([400, 404, 401, 400]);
    expect([t.app.admission.inFlight, t.app.admission.queued]).toEqual([0, 0]);
  });

  it("does not count an open WebSocket, so a page's socket never holds the gate", async () => {
    const user = await createUser(t);
    const url = await t.app.listen({ port: 0, host: "127.0.0.1" });
    const socket = new WebSocket(`${url.replace("http", "ws")}/ws`, { headers: { origin: TEST_ORIGIN, cookie: user.cookie } });
    afterAll(() => socket.close());
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
    expect((await fetch(`${url}/api/tasks/open`)).status).toBe(200);
    expect(t.app.admission.inFlight).toBe(0);
  });
});

describe("a slow reader", () => {
  it("holds no place while its answer streams: the place is given back when the answer is ready", async () => {
    const app = Fastify();
    await app.register(admissionPlugin, { limit: 1, limitPerAddress: 100, queueLimit: 100, queuePerAddress: 100 });
    const body = new PassThrough();
    app.get("/stream", async (_request, reply) => reply.type("text/plain").send(body));
    app.get("/quick", async () => ({ ok: true }));
    await app.ready();
    body.write("first part, the rest when the client reads on");
    const streaming = app.inject({ url: "/stream" });
    // The stream has not ended, yet the only place is free again.
    const quick = await app.inject({ url: "/quick" });
    expect(quick.statusCode).toBe(200);
    expect(app.admission.inFlight).toBe(0);
    body.end();
    expect((await streaming).body).toBe("first part, the rest when the client reads on");
    await app.close();
  });
});
