import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { Message } from "@shared/chat";
import { mergeMessage, reconnectDelay, socketUrl } from "./messages";

const message = (id: string, createdAt: string): Message => ({
  id,
  taskId: "00000000-0000-4000-8000-000000000000",
  senderId: "00000000-0000-4000-8000-000000000001",
  recipientId: "00000000-0000-4000-8000-000000000002",
  content: id,
  read: false,
  createdAt,
});

describe("mergeMessage", () => {
  it("keeps one copy of a message delivered twice", () => {
    const a = message("a", "2026-01-01T10:00:00.000Z");
    expect(mergeMessage(mergeMessage([], a), a)).toHaveLength(1);
  });

  it("orders by creation time whatever the arrival order", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1, maxLength: 20 }), (times) => {
        const list = times.reduce<Message[]>((acc, t) => mergeMessage(acc, message(`m${t}`, new Date(t * 1000).toISOString())), []);
        const sorted = [...times].sort((x, y) => x - y).map((t) => `m${t}`);
        expect(list.map((m) => m.id)).toEqual(sorted);
      }),
    );
  });
});

describe("reconnectDelay", () => {
  it("doubles from 1 s and stops at 30 s, within the jitter", () => {
    expect(reconnectDelay(0, () => 0.5)).toBe(1000);
    expect(reconnectDelay(3, () => 0.5)).toBe(8000);
    expect(reconnectDelay(20, () => 0.5)).toBe(30_000);
    expect(reconnectDelay(2, () => 0)).toBe(3000);
    expect(reconnectDelay(2, () => 1)).toBe(5000);
  });
});

describe("socketUrl", () => {
  it("uses wss on a secure page", () => {
    expect(socketUrl({ protocol: "https:", host: "errandly.app" })).toBe("wss://errandly.app/ws");
    expect(socketUrl({ protocol: "http:", host: "localhost:3000" })).toBe("ws://localhost:3000/ws");
  });
});
