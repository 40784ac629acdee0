import { PassThrough } from "node:stream";
import Fastify from "fastify";
import WebSocket from "ws";
import { afterAll, describe, expect, it } from "vitest";
import { call, createUser, TEST_ORIGIN, useTestApp } from "../../../test/create-test-app.js";
import admissionPlugin, { Admission } from "./admission.js";

// Requests admitted in turn (docs/decisions/040-requests-admitted-in-turn.md): at most the limit at
// work, the rest waiting at the door in arrival order, and every place given back whatever the
// answer, so the gate never closes for good.

const t = await useTestApp({ MAX_CONCURRENT_REQUESTS: "1" });

describe("Admission", () => {
  it("lets the limit in at once, queues the rest in arrival order and hands each freed place to the next", async () => {
    const gate = new Admission(2);
    expect(gate.enter()).toBeNull();
    expect(gate.enter()).toBeNull();
    const order: string[] = [];
    const third = gate.enter()?.then(() => order.push("third"));
    const fourth = gate.enter()?.then(() => order.push("fourth"));
    expect([gate.inFlight, gate.queued]).toEqual([2, 2]);
    gate.leave();
    await third;
    expect(order).toEqual(["third"]);
    expect([gate.inFlight, gate.queued]).toEqual([2, 1]);
    gate.leave();
    await fourth;
    expect(order).toEqual(["third", "fourth"]);
    gate.leave();
    gate.leave();
    expect([gate.inFlight, gate.queued]).toEqual([0, 0]);
    expect(gate.enter()).toBeNull();
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
    await app.register(admissionPlugin, { limit: 1 });
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
