import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { Message } from "@shared/chat";
import { mergeMessage } from "./get-messages";

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
