import { describe, expect, it } from "vitest";
import { serverFrameSchema } from "./chat.js";
import { readServerFrame } from "./server-frames.js";

// The browser reads the socket's frames with readServerFrame, the server's tests and contract are
// serverFrameSchema: both must take, refuse and trim the same frames.
describe("readServerFrame agrees with serverFrameSchema", () => {
  const id = "00000000-0000-4000-8000-000000000001";
  const samples: unknown[] = [
    null, 3, "text", [], {}, { type: "shutdown" },
    { type: "auth_success" }, { type: "auth_success", extra: 1 },
    { type: "error", message: "Unauthorized" }, { type: "error" }, { type: "error", message: 5 },
    { type: "message", id, taskId: id, senderId: id, recipientId: id, content: "hi", createdAt: "2026-03-01T12:00:00.000Z" },
    { type: "message", id, taskId: id, senderId: id, recipientId: id, content: "hi", createdAt: "2026-03-01T12:00:00.000Z", read: true },
    { type: "message", id: "00000000-0000-4000-8000-0000000000m1", taskId: id, senderId: id, recipientId: id, content: "hi", createdAt: "x" },
    { type: "message", id, taskId: id, senderId: id, recipientId: id, content: 1, createdAt: "x" },
    { type: "message", id, taskId: id, senderId: id, recipientId: id, content: "hi" },
    { type: "notification", unreadCount: 3 }, { type: "notification", unreadCount: 0 }, { type: "notification", unreadCount: -2 },
    { type: "notification", unreadCount: 1.5 }, { type: "notification", unreadCount: 2 ** 53 }, { type: "notification", unreadCount: "3" }, { type: "notification" },
    { type: "task_updated", taskId: id, status: "claimed", event: "pay" }, { type: "task_updated", taskId: id, status: "teleported", event: "pay" },
    { type: "task_updated", taskId: "not-a-uuid", status: "open", event: "post" }, { type: "task_updated", taskId: id, status: "open" },
    { type: "task_updated", taskId: "00000000-0000-0000-0000-000000000000", status: "open", event: "x" },
    { type: "task_updated", taskId: "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF", status: "open", event: "x" },
    { type: "task_updated", taskId: "00000000-0000-9000-8000-000000000001", status: "open", event: "x" },
    { type: "task_updated", taskId: "00000000-0000-4000-c000-000000000001", status: "open", event: "x" },
    { type: "job_board_changed", removed: [], added: true }, { type: "job_board_changed", removed: [id, id], added: false },
    { type: "job_board_changed", removed: ["x"], added: false }, { type: "job_board_changed", removed: [id], added: "yes" }, { type: "job_board_changed", added: true },
  ];
  it.each(samples.map((sample) => [JSON.stringify(sample), sample]))("%s", (_, sample) => {
    const parsed = serverFrameSchema.safeParse(sample);
    expect(readServerFrame(sample)).toEqual(parsed.success ? parsed.data : null);
  });
});
