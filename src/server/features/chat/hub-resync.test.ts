import { eq } from "drizzle-orm";
import type { WebSocket } from "ws";
import { describe, expect, it } from "vitest";
import { createUser, useTestApp } from "../../../../test/create-test-app.js";
import type { Database } from "../../db/client.js";
import { sessions } from "../../db/schema/users.js";
import { ChatHub, type Connection } from "./hub.js";

// When the database's LISTEN connection comes back after a loss, pushes sent in between are gone;
// the hub asks every socket to reconnect so each client refetches (the real loss is exercised on
// PostgreSQL by test/faults/database-outage.faults.ts).

const t = await useTestApp();

/** A socket stand-in for a real signed-in user, registered with the hub as an opened socket is. */
async function fakeConnection(hub: ChatHub, closes: number[]): Promise<Connection> {
  const user = await createUser(t);
  const [session] = await t.database.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, user.id));
  if (!session) throw new Error("no session");
  const socket = { readyState: 1, close: (code: number) => closes.push(code), send: () => undefined } as unknown as WebSocket;
  const conn: Connection = { socket, userId: user.id, sessionId: session.id, admin: false, taskId: null, access: null, notifications: false, alive: true };
  expect(hub.add(conn)).toBe(true);
  return conn;
}

describe("chat hub after the LISTEN connection is restored", () => {
  it("closes every socket once with 1012 so clients reconnect and refetch", async () => {
    const restored: (() => void)[] = [];
    const database: Database = { ...t.app.ctx.database, onListenerRestored: (callback) => void restored.push(callback) };
    const hub = new ChatHub({ ...t.app.ctx, database });
    await hub.start();
    const closes: number[] = [];
    const inRoom = await fakeConnection(hub, closes);
    const both = await fakeConnection(hub, closes);
    const idle = await fakeConnection(hub, closes);
    hub.joinRoom(inRoom, "00000000-0000-4000-8000-000000000001", "participant");
    hub.joinRoom(both, "00000000-0000-4000-8000-000000000001", "participant");
    hub.subscribeNotifications(both);
    hub.subscribeNotifications(await fakeConnection(hub, closes));

    expect(restored).toHaveLength(1);
    for (const callback of restored) callback();
    // Every socket, the one that never joined anything included.
    expect(idle.taskId).toBeNull();
    expect(closes).toEqual([1012, 1012, 1012, 1012]);
    await hub.stop();
  });
});
