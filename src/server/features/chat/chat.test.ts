import { beforeAll, describe, expect, it, vi } from "vitest";
import { and, eq } from "drizzle-orm";
import type pg from "pg";
import { openSocketOrThrow } from "../../../../test/test-socket.js";
import { messages, notifications } from "../../db/schema/chat.js";
import { emailOutbox } from "../../db/schema/site.js";
import { call, createUser, TEST_ORIGIN, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import { expire, taskAt, transition } from "../../../../test/fixtures/factory.js";
import { TOO_MANY_MESSAGES } from "./repository.js";

const t = await useTestApp();

/** A poster, their assigned provider and the claimed task between them. */
const claimedChat = () => taskAt(t, "claimed");

let baseUrl = "";
beforeAll(async () => {
  baseUrl = (await t.app.listen({ port: 0, host: "127.0.0.1" })).replace("http://", "ws://");
});

/** A socket of `user` on /ws (test/test-socket.ts buffers its frames); a refused upgrade throws "refused <status>". */
function openSocket(user: TestUser | null, origin = TEST_ORIGIN) {
  return openSocketOrThrow(`${baseUrl}/ws`, { origin, ...(user ? { cookie: user.cookie } : {}) });
}

describe("chat permissions on REST", () => {
  it("lets only the poster and the assigned provider read and write; admins read only", async () => {
    const poster = await createUser(t);
    const provider = await createUser(t, { verifiedProvider: true });
    const otherProvider = await createUser(t, { verifiedProvider: true });
    const stranger = await createUser(t);
    const admin = await createUser(t, { role: "admin" });
    const { task } = await taskAt(t, "claimed", { poster, provider });

    const post = (user: TestUser | null, content = "hello") =>
      call(t, user, { method: "POST", url: "/api/messages", payload: { taskId: task.id, content } });
    const list = (user: TestUser | null) => call(t, user, { url: `/api/messages/${task.id}` });

    expect((await post(null)).statusCode).toBe(401);
    expect((await list(null)).statusCode).toBe(401);
    for (const outsider of [stranger, otherProvider]) {
      const res = await post(outsider);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe("You don't have permission to view this chat");
      expect((await list(outsider)).statusCode).toBe(403);
    }
    const adminPost = await post(admin);
    expect(adminPost.statusCode).toBe(403);
    expect(adminPost.json().message).toBe("Admins can read this chat but not write in it");

    const fromPoster = await post(poster, "  Hi, are you on your way?  ");
    expect(fromPoster.statusCode).toBe(201);
    expect(fromPoster.json()).toMatchObject({ taskId: task.id, senderId: poster.id, recipientId: provider.id, content: "Hi, are you on your way?", read: false });
    t.clock.advance(1000);
    const fromProvider = await post(provider, "Yes, 10 minutes");
    expect(fromProvider.json()).toMatchObject({ senderId: provider.id, recipientId: poster.id });

    for (const reader of [poster, provider, admin]) {
      const res = await list(reader);
      expect(res.statusCode).toBe(200);
      expect(res.json().map((m: { content: string }) => m.content)).toEqual(["Hi, are you on your way?", "Yes, 10 minutes"]);
    }
    const stored = await t.database.db.select().from(messages).where(eq(messages.taskId, task.id));
    expect(stored).toHaveLength(2);
  });

  it("explains a task without a provider and a missing task", async () => {
    const { poster, task } = await taskAt(t, "open");
    const res = await call(t, poster, { url: `/api/messages/${task.id}` });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe("Chat will be available once a provider claims this task");
    const missing = await call(t, poster, { url: "/api/messages/00000000-0000-4000-8000-000000000000" });
    expect(missing.statusCode).toBe(404);
  });

  it("refuses bad input with 400 and stores nothing", async () => {
    const { poster, task } = await claimedChat();
    const cases: [unknown, RegExp][] = [
      [{ taskId: task.id, content: "   " }, /content is required/],
      [{ taskId: task.id, content: "x".repeat(2001) }, /content must be at most 2000/],
      [{ taskId: "nope", content: "hi" }, /taskId must be a UUID/],
      [{ taskId: task.id }, /content/],
    ];
    for (const [payload, message] of cases) {
      const res = await call(t, poster, { method: "POST", url: "/api/messages", payload: payload as object });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect(await t.database.db.select().from(messages).where(eq(messages.taskId, task.id))).toHaveLength(0);
    const bad = await call(t, poster, { url: "/api/messages/not-a-uuid" });
    expect(bad.statusCode).toBe(400);
  });

  it("accepts exactly 2000 characters and rate limits at 30 a minute", async () => {
    const { poster, task } = await claimedChat();
    const long = await call(t, poster, { method: "POST", url: "/api/messages", payload: { taskId: task.id, content: "y".repeat(2000) } });
    expect(long.statusCode).toBe(201);
    for (let i = 1; i < 30; i += 1) {
      const res = await call(t, poster, { method: "POST", url: "/api/messages", payload: { taskId: task.id, content: `m${i}` } });
      expect(res.statusCode).toBe(201);
    }
    const limited = await call(t, poster, { method: "POST", url: "/api/messages", payload: { taskId: task.id, content: "one more" } });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ message: TOO_MANY_MESSAGES });
    expect(limited.headers["retry-after"]).toBe("60");
    // Counted and refused in the one statement: the 31st was not stored.
    expect(await t.database.db.select().from(messages).where(eq(messages.taskId, task.id))).toHaveLength(30);
    t.clock.advance(61_000);
    const later = await call(t, poster, { method: "POST", url: "/api/messages", payload: { taskId: task.id, content: "later" } });
    expect(later.statusCode).toBe(201);
  });

  it("marks only the reader's own messages read", async () => {
    const { poster, provider, task } = await claimedChat();
    const a = (await call(t, poster, { method: "POST", url: "/api/messages", payload: { taskId: task.id, content: "to provider" } })).json();
    const b = (await call(t, provider, { method: "POST", url: "/api/messages", payload: { taskId: task.id, content: "to poster" } })).json();
    const res = await call(t, provider, { method: "PATCH", url: `/api/messages/${task.id}/read`, payload: { ids: [a.id, b.id] } });
    expect(res.json()).toEqual({ updated: 1 });
    const rows = await t.database.db.select().from(messages).where(eq(messages.taskId, task.id));
    expect(rows.find((r) => r.id === a.id)?.read).toBe(true);
    expect(rows.find((r) => r.id === b.id)?.read).toBe(false);
    const stranger = await createUser(t);
    expect((await call(t, stranger, { method: "PATCH", url: `/api/messages/${task.id}/read`, payload: {} })).statusCode).toBe(403);
  });
});

describe("chat socket", () => {
  it("refuses a socket from another origin or without a session", async () => {
    const poster = await createUser(t);
    await expect(openSocket(poster, "https://evil.example")).rejects.toThrow("refused 403");
    await expect(openSocket(null)).rejects.toThrow("refused 401");
  });

  it("applies the permission matrix to auth and message frames", async () => {
    const poster = await createUser(t);
    const provider = await createUser(t, { verifiedProvider: true });
    const otherProvider = await createUser(t, { verifiedProvider: true });
    const stranger = await createUser(t);
    const admin = await createUser(t, { role: "admin" });
    const { task } = await taskAt(t, "claimed", { poster, provider });

    for (const outsider of [stranger, otherProvider]) {
      const s = await openSocket(outsider);
      s.send({ type: "auth", taskId: task.id });
      expect((await s.next("error")).message).toBe("You don't have permission to view this chat");
      s.send({ type: "message", content: "let me in" });
      expect((await s.next("error")).message).toMatch(/auth message/);
      s.close();
    }

    const ps = await openSocket(poster);
    const vs = await openSocket(provider);
    const as = await openSocket(admin);
    for (const s of [ps, vs, as]) {
      s.send({ type: "auth", taskId: task.id });
      await s.next("auth_success");
    }
    as.send({ type: "message", content: "moderator here" });
    expect((await as.next("error")).message).toBe("Admins can read this chat but not write in it");

    ps.send({ type: "message", content: "  live hello  " });
    for (const s of [ps, vs, as]) {
      const frame = await s.next("message");
      expect(frame).toMatchObject({ type: "message", taskId: task.id, senderId: poster.id, recipientId: provider.id, content: "live hello" });
      expect(typeof frame.id).toBe("string");
      expect(typeof frame.createdAt).toBe("string");
    }
    // Stored before it was sent on.
    const stored = await t.database.db.select().from(messages).where(eq(messages.taskId, task.id));
    expect(stored.map((m) => m.content)).toEqual(["live hello"]);

    // A REST post reaches the sockets too.
    await call(t, provider, { method: "POST", url: "/api/messages", payload: { taskId: task.id, content: "via rest" } });
    expect((await ps.next("message")).content).toBe("via rest");
    for (const s of [ps, vs, as]) s.close();
  });

  it("answers bad frames with an error and keeps the socket open", async () => {
    const { poster, task } = await claimedChat();
    const s = await openSocket(poster);
    s.send("not json {");
    expect((await s.next("error")).message).toMatch(/not JSON/);
    s.send({ type: "shout" });
    await s.next("error");
    s.send({ type: "auth", taskId: "nope" });
    expect((await s.next("error")).message).toMatch(/taskId must be a UUID/);
    s.send({ type: "auth", taskId: task.id });
    await s.next("auth_success");
    s.send({ type: "message", content: "   " });
    expect((await s.next("error")).message).toMatch(/content is required/);
    s.send({ type: "message", content: "z".repeat(2001) });
    expect((await s.next("error")).message).toMatch(/at most 2000/);
    s.send({ type: "message", content: "still here" });
    expect((await s.next("message")).content).toBe("still here");
    // 4,000 bytes: too long to ride in the NOTIFY payload, so it is read back by id.
    const long = "é".repeat(2000);
    s.send({ type: "message", content: long });
    expect((await s.next("message")).content).toBe(long);
    s.close();
  });

  it("tells a sender to try again when the database could not be reached, and stores nothing", async () => {
    const { poster, task } = await claimedChat();
    const s = await openSocket(poster);
    s.send({ type: "auth", taskId: task.id });
    await s.next("auth_success");
    // The pool's wait ran out, as under overload behind PgBouncer (bench:chat at 2,000 msg/s).
    // The pool every statement of the app goes through (src/server/db/prepared.ts reaches it so too).
    const pool = (t.database.db as unknown as { session: { client: pg.Pool } }).session.client;
    const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
    const spy = vi.spyOn(pool, "query").mockImplementation(((config: unknown, ...rest: unknown[]) =>
      JSON.stringify(config).includes("insert into messages")
        ? Promise.reject(new Error("timeout exceeded when trying to connect"))
        : query(config, ...rest)) as typeof pool.query);
    try {
      s.send({ type: "message", content: "lost in the queue?" });
      expect((await s.next("error")).message).toBe("Service temporarily unavailable. Please try again shortly.");
    } finally {
      spy.mockRestore();
    }
    expect(await t.database.db.select().from(messages).where(eq(messages.taskId, task.id))).toEqual([]);
    s.send({ type: "message", content: "sent again" });
    expect((await s.next("message")).content).toBe("sent again");
    s.close();
  });

  it("closes the room to a provider who was released", async () => {
    const { provider, task } = await claimedChat();
    const s = await openSocket(provider);
    s.send({ type: "auth", taskId: task.id });
    await s.next("auth_success");
    // The claim's payment window runs out and the sweeper releases the provider.
    expect((await expire(t, task)).providerId).toBeNull();
    s.send({ type: "message", content: "anyone?" });
    expect((await s.next("error")).message).toBe("You don't have permission to view this chat");
    expect(await t.database.db.select().from(messages).where(eq(messages.taskId, task.id))).toHaveLength(0);
    s.close();
  });

  it("never shows a released provider the next provider's conversation, live or in history", async () => {
    const { poster, provider: first, task } = await claimedChat();
    const released = await openSocket(first);
    released.send({ type: "auth", taskId: task.id });
    await released.next("auth_success");
    // Posted once the socket is in the room and taken from it here, so its frame (delivered after the
    // NOTIFY, which may come after the 201) cannot be mistaken for the next provider's below.
    const old = await call(t, poster, { method: "POST", url: "/api/messages", payload: { taskId: task.id, content: "Door code is 1234" } });
    expect(old.statusCode).toBe(201);
    expect((await released.next("message")).content).toBe("Door code is 1234");

    // The claim expires and another provider takes the task; the first socket is still in the room.
    const second = await createUser(t, { verifiedProvider: true });
    await expire(t, task);
    expect(await transition(t, "reactivate", task.id, poster)).not.toBeNull();
    expect(await transition(t, "claim", task.id, second)).not.toBeNull();
    const current = await openSocket(second);
    current.send({ type: "auth", taskId: task.id });
    await current.next("auth_success");

    const secret = await call(t, poster, { method: "POST", url: "/api/messages", payload: { taskId: task.id, content: "New code is 9876" } });
    expect(secret.statusCode).toBe(201);
    expect((await current.next("message")).content).toBe("New code is 9876");
    await expect(released.next("message", 500)).rejects.toThrow(/no message frame/);

    const history = await call(t, second, { url: `/api/messages/${task.id}` });
    expect(history.json().map((m: { content: string }) => m.content)).toEqual(["New code is 9876"]);
    released.close();
    current.close();
  });

  it("closes a socket whose session ended", async () => {
    const { provider, task } = await claimedChat();
    const s = await openSocket(provider);
    s.send({ type: "auth", taskId: task.id });
    await s.next("auth_success");
    const closed = s.closed();
    expect((await call(t, provider, { method: "POST", url: "/api/auth/logout" })).statusCode).toBe(200);
    // A scheduled job re-checks the sessions of open sockets; run it now.
    await t.app.ctx.scheduler.runAll();
    expect(await closed).toBe(1008);
  });

  it("pushes the unread notification count to a subscribed socket", async () => {
    const { poster, provider, task } = await taskAt(t, "paid");
    const s = await openSocket(poster);
    s.send({ type: "subscribe_notifications" });
    // The claim's notice and the payment's receipt are waiting already.
    expect((await s.next("notification")).unreadCount).toBe(2);
    expect(await transition(t, "start", task.id, provider)).not.toBeNull();
    expect((await s.next("notification")).unreadCount).toBe(3);
    s.close();
  });
});

describe("notices for unseen chat messages", () => {
  it("tells an away recipient once, e-mails at most every 15 minutes, and not when the message was seen", async () => {
    const { poster, provider, task } = await claimedChat();
    const send = (content: string) => call(t, poster, { method: "POST", url: "/api/messages", payload: { taskId: task.id, content } });
    const chatNotices = () =>
      t.database.db.select().from(notifications).where(and(eq(notifications.userId, provider.id), eq(notifications.kind, "chat_message")));
    const chatMails = () => t.database.db.select().from(emailOutbox).where(and(eq(emailOutbox.to, provider.email), eq(emailOutbox.kind, "chat_message")));

    const seen = (await send("seen right away")).json();
    await call(t, provider, { method: "PATCH", url: `/api/messages/${task.id}/read`, payload: { ids: [seen.id] } });
    t.clock.advance(3 * 60_000);
    await t.app.ctx.scheduler.runAll();
    expect(await chatNotices()).toHaveLength(0);

    await send("x".repeat(80));
    t.clock.advance(60_000);
    await t.app.ctx.scheduler.runAll();
    expect(await chatNotices()).toHaveLength(0);
    t.clock.advance(90_000);
    await t.app.ctx.scheduler.runAll();
    const notices = await chatNotices();
    expect(notices).toHaveLength(1);
    expect(notices[0]?.body).toBe(`${"x".repeat(60)}...`);
    expect(await chatMails()).toHaveLength(1);
    // The same unseen streak is not told twice.
    await send("second");
    t.clock.advance(3 * 60_000);
    await t.app.ctx.scheduler.runAll();
    expect(await chatNotices()).toHaveLength(1);

    // Read, then a new message 5 minutes later: a new in-app notice but no second e-mail yet.
    await call(t, provider, { method: "PATCH", url: `/api/messages/${task.id}/read`, payload: {} });
    await send("third");
    t.clock.advance(3 * 60_000);
    await t.app.ctx.scheduler.runAll();
    expect(await chatNotices()).toHaveLength(2);
    expect(await chatMails()).toHaveLength(1);

    // After 15 minutes a new streak e-mails again.
    await call(t, provider, { method: "PATCH", url: `/api/messages/${task.id}/read`, payload: {} });
    t.clock.advance(16 * 60_000);
    await send("fourth");
    t.clock.advance(3 * 60_000);
    await t.app.ctx.scheduler.runAll();
    expect(await chatNotices()).toHaveLength(3);
    expect(await chatMails()).toHaveLength(2);
  });
});
