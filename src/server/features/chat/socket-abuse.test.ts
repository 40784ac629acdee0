import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { sessions } from "../../db/schema/users.js";
import { createUser, TEST_ORIGIN, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import { MAX_SOCKETS_PER_USER } from "./hub.js";
import { FRAMES_PER_SECOND, TOO_MANY_FRAMES, TOO_MANY_SOCKETS } from "./socket.js";

// No single account can slow everyone else down through the socket: frames are rate limited per
// socket and per user before they cost anything, a user holds a bounded number of sockets, and a
// socket dies with its session even if it never sent a frame. The sweep runs every ten minutes
// here, so only the session_ended notification and the expiry watch can close a socket. Every user
// here connects from 127.0.0.1 and the first test's 60 fetches stay open (keep-alive), so the cap on
// one address's connections is raised; it has its own test (src/server/plugins/slow-requests.test.ts).
const t = await useTestApp({ SWEEP_INTERVAL_MS: "600000", MAX_CONNECTIONS_PER_ADDRESS: "1000" });
let wsUrl = "";
let httpUrl = "";
beforeAll(async () => {
  httpUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
  wsUrl = `${httpUrl.replace("http://", "ws://")}/ws`;
});
const open: WebSocket[] = [];
afterAll(() => {
  for (const s of open) s.terminate();
});

interface TestSocket {
  socket: WebSocket;
  frames: { type: string; message?: string }[];
  closed: Promise<{ code: number; reason: string }>;
}

async function connect(user: TestUser): Promise<TestSocket> {
  const socket = new WebSocket(wsUrl, { headers: { origin: TEST_ORIGIN, cookie: user.cookie } });
  open.push(socket);
  const frames: TestSocket["frames"] = [];
  socket.on("message", (data: WebSocket.RawData) => frames.push(JSON.parse(String(data)) as TestSocket["frames"][number]));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once("close", (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  return { socket, frames, closed };
}

describe("socket abuse", () => {
  it("drops a flood of 30,000 frames before it costs a query, warns once, closes with 1008, and others are served meanwhile", async () => {
    const flooder = await createUser(t);
    const other = await createUser(t);
    const flood = await connect(flooder);
    const frame = JSON.stringify({ type: "subscribe_notifications" });
    const queries: Promise<number>[] = [];
    for (let i = 0; i < 30_000; i++) {
      flood.socket.send(frame);
      // Another user's requests go on while the frames arrive.
      if (i % 1_000 === 0) {
        queries.push(fetch(`${httpUrl}/api/health`).then((r) => r.status));
        queries.push(fetch(`${httpUrl}/api/tasks/open`, { headers: { cookie: other.cookie } }).then((r) => r.status));
      }
    }
    const { code } = await flood.closed;
    expect(code).toBe(1008);
    expect(await Promise.all(queries)).toEqual(queries.map(() => 200));
    const warnings = flood.frames.filter((f) => f.type === "error");
    expect(warnings).toEqual([{ type: "error", message: TOO_MANY_FRAMES }]);
    // Frames past the burst were dropped unanswered (the answers to the burst itself may or may not
    // have gone out before the close).
    expect(flood.frames.filter((f) => f.type === "notification").length).toBeLessThanOrEqual(FRAMES_PER_SECOND.socket * 2);
  });

  it(`refuses a user's ${MAX_SOCKETS_PER_USER + 1}th socket with a message and 1008, and takes it once one closes`, async () => {
    const user = await createUser(t);
    const sockets = [];
    for (let i = 0; i < MAX_SOCKETS_PER_USER; i++) sockets.push(await connect(user));
    const extra = await connect(user);
    expect((await extra.closed).code).toBe(1008);
    expect(extra.frames).toEqual([{ type: "error", message: TOO_MANY_SOCKETS }]);
    const first = sockets[0];
    if (!first) throw new Error("no socket");
    first.socket.close();
    await first.closed;
    const again = await connect(user);
    again.socket.send(JSON.stringify({ type: "subscribe_notifications" }));
    await expect.poll(() => again.frames.map((f) => f.type)).toEqual(["notification"]);
  });

  it("closes a socket that never sent a frame when its user signs out", async () => {
    const user = await createUser(t);
    const idle = await connect(user);
    const res = await t.app.inject({ method: "POST", url: "/api/auth/logout", headers: { cookie: user.cookie, origin: TEST_ORIGIN } });
    expect(res.statusCode).toBeLessThan(400);
    expect(await idle.closed).toEqual({ code: 1008, reason: "Session ended" });
  });

  it("closes a socket that never sent a frame when its session expires and is swept", async () => {
    const user = await createUser(t);
    const idle = await connect(user);
    const [row] = await t.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    if (!row) throw new Error("no session");
    t.clock.set(new Date(row.idleExpiresAt.getTime() + 1));
    await t.app.ctx.scheduler.runAll();
    expect(await idle.closed).toEqual({ code: 1008, reason: "Session ended" });
  });

  it("answers a chat frame with a NUL character with an error frame, not a failed insert", async () => {
    const user = await createUser(t);
    const s = await connect(user);
    s.socket.send(JSON.stringify({ type: "message", content: "a\u0000b" }));
    await expect.poll(() => s.frames).toEqual([{ type: "error", message: "content cannot contain a null character" }]);
  });
});
