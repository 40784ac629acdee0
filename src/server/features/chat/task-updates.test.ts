import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { buildApp } from "../../app.js";
import { parseEnv } from "../../config/env.js";
import { openDatabase } from "../../db/client.js";
import { call, createUser, openTestDatabase, TEST_ORIGIN, TestClock, type TestApp, type TestUser } from "../../../../test/create-test-app.js";
import { expire, makeOffer, pay, postOffersTask, postTask, taskAt, transition } from "../../../../test/fixtures/factory.js";

// The live task status (docs/decisions/025-live-task-status.md): who hears {type:"task_updated"}
// and {type:"job_board_changed"}, for transitions and for money and review events, and across two
// app instances on one database (the fan-out is LISTEN/NOTIFY, so the instance that made the
// change has no special part in it).

const { database, url, drop } = await openTestDatabase();
const second = await openDatabase({ databaseUrl: url, poolSize: 5 });
const clock = new TestClock();
const env = parseEnv({
  NODE_ENV: "test",
  LOG_LEVEL: "silent",
  PUBLIC_URL: TEST_ORIGIN,
  SEED_DEMO: "false",
  DATA_DIR: `/tmp/errandly-test-${randomUUID()}`,
});
const appA = await buildApp({ env, database, now: clock.now, logger: false });
const appB = await buildApp({ env, database: second, now: clock.now, logger: false });
const noop = async () => undefined;
/** Instance A makes every change; sockets are opened on A or B. */
const t: TestApp = { app: appA, clock, database, env, close: noop };

const wsUrls = { A: "", B: "" };
beforeAll(async () => {
  wsUrls.A = (await appA.listen({ port: 0, host: "127.0.0.1" })).replace("http://", "ws://");
  wsUrls.B = (await appB.listen({ port: 0, host: "127.0.0.1" })).replace("http://", "ws://");
});
afterAll(async () => {
  await appA.close();
  await appB.close();
  await database.close();
  await second.close();
  await drop();
});

type Frame = Record<string, unknown> & { type: string };

/** A socket on instance `on` that has sent only subscribe_notifications (as the header bell does). */
async function subscribed(user: TestUser, on: "A" | "B" = "A") {
  const socket = new WebSocket(`${wsUrls[on]}/ws`, { headers: { origin: TEST_ORIGIN, cookie: user.cookie } });
  const frames: Frame[] = [];
  const waiters: (() => void)[] = [];
  socket.on("message", (data: WebSocket.RawData) => {
    frames.push(JSON.parse(String(data)) as Frame);
    for (const w of waiters.splice(0)) w();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  /** The first buffered frame that matches, waiting up to timeoutMs for it. */
  const next = async (match: (f: Frame) => boolean, timeoutMs = 3000): Promise<Frame> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = frames.findIndex(match);
      if (index >= 0) return frames.splice(index, 1)[0] as Frame;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(frames)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  };
  socket.send(JSON.stringify({ type: "subscribe_notifications" }));
  await next((f) => f.type === "notification");
  return {
    frames,
    next,
    /** The task_updated frame for this task and event. */
    update: (taskId: string, event: string) => next((f) => f.type === "task_updated" && f.taskId === taskId && f.event === event),
    /** The first job-board frame that lists `taskId` as gone. */
    boardRemoved: (taskId: string) => next((f) => f.type === "job_board_changed" && Array.isArray(f.removed) && f.removed.includes(taskId)),
    close: () => socket.close(),
  };
}

describe("task_updated", () => {
  it("reaches the poster, the provider (also one who just lost the task) and admins, on the other instance too", async () => {
    const { task, poster, provider } = await taskAt(t, "claimed");
    const stranger = await createUser(t, { verifiedProvider: true });
    const admin = await createUser(t, { role: "admin" });
    const [posterA, providerB, strangerB, adminB] = await Promise.all([
      subscribed(poster, "A"),
      subscribed(provider, "B"),
      subscribed(stranger, "B"),
      subscribed(admin, "B"),
    ]);

    // The timer releases the provider: the task no longer names them, yet they are told.
    await expire(t, task);
    const expected = { type: "task_updated", taskId: task.id, status: "payment_expired", event: "expire" };
    expect(await posterA.update(task.id, "expire")).toEqual(expected);
    expect(await providerB.update(task.id, "expire")).toEqual(expected);
    expect(await adminB.update(task.id, "expire")).toEqual(expected);

    // Reactivated, the task is back on the board: everyone's board hears it, only insiders the update.
    await transition(t, "reactivate", task.id, poster);
    await posterA.update(task.id, "reactivate");
    const board = await strangerB.next((f) => f.type === "job_board_changed" && f.added === true);
    // Frames are coalesced per 250 ms: the claim's removal of this task (made just before these
    // sockets subscribed) may share the reactivation's window. Nothing else can be in it.
    expect(board.removed).toSatisfy((removed: unknown) => Array.isArray(removed) && removed.every((id) => id === task.id));
    expect(strangerB.frames.filter((f) => f.type === "task_updated")).toEqual([]);
    for (const s of [posterA, providerB, strangerB, adminB]) s.close();
  });

  it("pushes payment, start, completion, release, tip and review on sockets that only subscribed", async () => {
    const poster = await createUser(t);
    const provider = await createUser(t, { verifiedProvider: true });
    const [posterB, providerA] = await Promise.all([subscribed(poster, "B"), subscribed(provider, "A")]);
    const task = await postTask(t, poster);
    await posterB.update(task.id, "posted");
    await transition(t, "claim", task.id, provider);
    await posterB.update(task.id, "claim");

    // The provider's page moves from "Waiting for payment" to "Start task" on this frame.
    await pay(t, poster, task);
    expect(await providerA.update(task.id, "pay")).toMatchObject({ status: "claimed" });
    await transition(t, "start", task.id, provider);
    expect(await posterB.update(task.id, "start")).toMatchObject({ status: "in_progress" });
    // A budget under $100 is released on completion: a money event besides the transition.
    await transition(t, "complete", task.id, provider);
    expect(await posterB.update(task.id, "complete")).toMatchObject({ status: "completed" });
    expect(await providerA.update(task.id, "release")).toMatchObject({ status: "completed" });

    const tip = await call(t, poster, { method: "POST", url: `/api/tasks/${task.id}/tip`, payload: { amount: 5, idempotencyKey: randomUUID() } });
    expect(tip.statusCode).toBe(200);
    expect(await providerA.update(task.id, "tip")).toMatchObject({ status: "completed" });

    const review = await call(t, provider, { method: "POST", url: "/api/reviews", payload: { taskId: task.id, reviewedId: poster.id, rating: 5, comment: "Clear instructions" } });
    expect(review.statusCode).toBe(201);
    expect(await posterB.update(task.id, "review")).toMatchObject({ status: "completed" });
    posterB.close();
    providerA.close();
  });
});

describe("offers", () => {
  it("refresh the poster's task page when an offer is made, changed or withdrawn", async () => {
    const poster = await createUser(t);
    const provider = await createUser(t, { verifiedProvider: true });
    const posterB = await subscribed(poster, "B");
    const task = await postOffersTask(t, poster);
    await posterB.update(task.id, "posted");
    await makeOffer(t, provider, task.id);
    expect(await posterB.update(task.id, "offer")).toMatchObject({ status: "open" });
    await makeOffer(t, provider, task.id, { price: 45 });
    await posterB.update(task.id, "offer");
    expect((await call(t, provider, { method: "DELETE", url: `/api/tasks/${task.id}/offer` })).statusCode).toBe(200);
    await posterB.update(task.id, "offer");
    posterB.close();
  });
});

describe("job_board_changed", () => {
  it("tells every connected socket, on both instances, that a claimed task left the board", async () => {
    const { task } = await taskAt(t, "open");
    const watchers = await Promise.all([
      subscribed(await createUser(t, { verifiedProvider: true }), "A"),
      subscribed(await createUser(t, { verifiedProvider: true }), "B"),
      subscribed(await createUser(t), "B"),
    ]);
    const provider = await createUser(t, { verifiedProvider: true });
    await transition(t, "claim", task.id, provider);
    for (const w of watchers) {
      await w.boardRemoved(task.id);
      w.close();
    }
  });
});
