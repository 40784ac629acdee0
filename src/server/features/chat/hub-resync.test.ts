import type { WebSocket } from "ws";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../../test/create-test-app.js";
import type { Database } from "../../db/client.js";
import { ChatHub, type Connection } from "./hub.js";

// When the database's LISTEN connection comes back after a loss, pushes sent in between are gone;
// the hub asks every socket to reconnect so each client refetches (the real loss is exercised on
// PostgreSQL by test/faults/database-outage.faults.ts).

const t = await useTestApp();

function fakeConnection(userId: string, closes: number[]): Connection {
  const socket = { readyState: 1, close: (code: number) => closes.push(code), send: () => undefined } as unknown as WebSocket;
  return { socket, userId, sessionId: "s", role: "user", taskId: null, access: null, notifications: false, alive: true };
}

describe("chat hub after the LISTEN connection is restored", () => {
  it("closes every room and bell socket once with 1012 so clients reconnect and refetch", async () => {
    const restored: (() => void)[] = [];
    const database: Database = { ...t.app.ctx.database, onListenerRestored: (callback) => void restored.push(callback) };
    const hub = new ChatHub({ ...t.app.ctx, database });
    await hub.start();
    const closes: number[] = [];
    const inRoom = fakeConnection("u1", closes);
    const both = fakeConnection("u2", closes);
    hub.joinRoom(inRoom, "00000000-0000-4000-8000-000000000001", "participant");
    hub.joinRoom(both, "00000000-0000-4000-8000-000000000001", "participant");
    hub.subscribeNotifications(both);
    hub.subscribeNotifications(fakeConnection("u3", closes));

    expect(restored).toHaveLength(1);
    for (const callback of restored) callback();
    expect(closes).toEqual([1012, 1012, 1012]);
    await hub.stop();
  });
});
