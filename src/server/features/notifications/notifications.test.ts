import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { emailOutbox } from "../../db/schema/site.js";
import { call, createUser, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import { taskAt } from "../../../../test/fixtures/factory.js";

const t = await useTestApp();

/** The provider claims a task of the poster's through the claim route, which tells the poster. */
const claimedTask = async (poster: TestUser, provider: TestUser) => (await taskAt(t, "claimed", { poster, provider })).task;

const mailsTo = (email: string) =>
  t.database.db.select().from(emailOutbox).where(and(eq(emailOutbox.to, email), eq(emailOutbox.kind, "task_claimed")));

describe("notifications", () => {
  it("tells the poster about a claim with the payment deadline, in-app and by e-mail", async () => {
    const poster = await createUser(t);
    const provider = await createUser(t, { verifiedProvider: true });
    const task = await claimedTask(poster, provider);

    const res = await call(t, poster, { url: "/api/notifications" });
    expect(res.statusCode).toBe(200);
    expect(res.json().unreadCount).toBe(1);
    expect(res.json().notifications[0]).toMatchObject({
      kind: "task_claimed",
      title: "Your task was claimed",
      taskId: task.id,
      read: false,
    });
    expect(res.json().notifications[0].body).toMatch(/Pay within 30 minutes to confirm/);
    expect(await mailsTo(poster.email)).toHaveLength(1);
    // The provider hears nothing about their own claim.
    expect((await call(t, provider, { url: "/api/notifications" })).json().unreadCount).toBe(0);
  });

  it("keeps the in-app notice but sends no e-mail when the kind is turned off", async () => {
    const poster = await createUser(t);
    const provider = await createUser(t, { verifiedProvider: true });
    const prefs = await call(t, poster, { method: "PUT", url: "/api/notifications/preferences", payload: { email: { task_claimed: false } } });
    expect(prefs.statusCode).toBe(200);
    expect(prefs.json().email).toMatchObject({ task_claimed: false, chat_message: true });
    await claimedTask(poster, provider);
    expect((await call(t, poster, { url: "/api/notifications" })).json().unreadCount).toBe(1);
    expect(await mailsTo(poster.email)).toHaveLength(0);

    const on = await call(t, poster, { method: "PUT", url: "/api/notifications/preferences", payload: { email: { task_claimed: true } } });
    expect(on.json().email.task_claimed).toBe(true);
    expect((await call(t, poster, { url: "/api/notifications/preferences" })).json().email.task_claimed).toBe(true);
  });

  it("marks some or all read, newest first, only the caller's", async () => {
    const poster = await createUser(t);
    const provider = await createUser(t, { verifiedProvider: true });
    const first = await claimedTask(poster, provider);
    t.clock.advance(1000);
    const second = await claimedTask(poster, provider);
    const list = (await call(t, poster, { url: "/api/notifications" })).json();
    expect(list.notifications.map((n: { taskId: string }) => n.taskId)).toEqual([second.id, first.id]);

    // Someone else's ids change nothing.
    await call(t, provider, { method: "POST", url: "/api/notifications/read", payload: { ids: [list.notifications[0].id] } });
    expect((await call(t, poster, { url: "/api/notifications" })).json().unreadCount).toBe(2);

    const one = await call(t, poster, { method: "POST", url: "/api/notifications/read", payload: { ids: [list.notifications[0].id] } });
    expect(one.json().unreadCount).toBe(1);
    const all = await call(t, poster, { method: "POST", url: "/api/notifications/read", payload: {} });
    expect(all.json().unreadCount).toBe(0);
  });

  it("refuses signed-out callers and bad input", async () => {
    expect((await call(t, null, { url: "/api/notifications" })).statusCode).toBe(401);
    expect((await call(t, null, { url: "/api/notifications/preferences" })).statusCode).toBe(401);
    const user = await createUser(t);
    const badKind = await call(t, user, { method: "PUT", url: "/api/notifications/preferences", payload: { email: { spam: false } } });
    expect(badKind.statusCode).toBe(400);
    const badIds = await call(t, user, { method: "POST", url: "/api/notifications/read", payload: { ids: ["x"] } });
    expect(badIds.statusCode).toBe(400);
    expect(badIds.json().message).toMatch(/ids must be UUIDs/);
  });
});
