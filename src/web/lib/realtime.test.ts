import { describe, expect, it } from "vitest";
import { isSessionEnded, parseServerFrame, reconnectDelay, socketUrl } from "./realtime";

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

describe("parseServerFrame", () => {
  it("passes frames of the contract and drops anything else", () => {
    expect(parseServerFrame('{"type":"notification","unreadCount":3}')).toEqual({ type: "notification", unreadCount: 3 });
    expect(parseServerFrame("not json")).toBeNull();
    expect(parseServerFrame('{"type":"notification"}')).toBeNull();
    expect(parseServerFrame('{"type":"shutdown"}')).toBeNull();
    const update = { type: "task_updated", taskId: "00000000-0000-4000-8000-000000000001", status: "claimed", event: "pay" };
    expect(parseServerFrame(JSON.stringify(update))).toEqual(update);
    expect(parseServerFrame(JSON.stringify({ ...update, status: "teleported" }))).toBeNull();
    expect(parseServerFrame('{"type":"job_board_changed","removed":[],"added":true}')).toEqual({ type: "job_board_changed", removed: [], added: true });
  });
});

describe("isSessionEnded", () => {
  it("is the server's close for an ended session only, not other policy closes or drops", () => {
    expect(isSessionEnded({ code: 1008, reason: "Session ended" })).toBe(true);
    expect(isSessionEnded({ code: 1008, reason: "Too many frames" })).toBe(false);
    expect(isSessionEnded({ code: 1008, reason: "Unauthorized" })).toBe(false);
    expect(isSessionEnded({ code: 1006, reason: "" })).toBe(false);
    expect(isSessionEnded({ code: 1001, reason: "Session ended" })).toBe(false);
  });
});
