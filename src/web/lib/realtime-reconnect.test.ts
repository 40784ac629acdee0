// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { connectRealtime } from "./realtime";

// Whether the connection comes back by itself: after a drop it does; after the server closed it for
// an ended session it does not, and the app is told (docs/product.md#chat-and-notifications).

class FakeSocket {
  static instances: FakeSocket[] = [];
  onopen: (() => void) | null = null;
  onmessage: (() => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.instances.push(this);
  }
  send() {}
  close() {}
}

beforeEach(() => {
  FakeSocket.instances = [];
  vi.useFakeTimers();
  vi.stubGlobal("WebSocket", FakeSocket);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("connectRealtime", () => {
  it("reconnects after a dropped connection", () => {
    const onSessionEnded = vi.fn();
    const close = connectRealtime({ onOpen: () => {}, onFrame: () => {}, onSessionEnded });
    FakeSocket.instances[0]?.onclose?.({ code: 1006, reason: "" });
    vi.advanceTimersByTime(2_000);
    expect(FakeSocket.instances).toHaveLength(2);
    expect(onSessionEnded).not.toHaveBeenCalled();
    close();
  });

  it("stays closed after the server ended the session, and says so once", () => {
    const onSessionEnded = vi.fn();
    const close = connectRealtime({ onOpen: () => {}, onFrame: () => {}, onSessionEnded });
    FakeSocket.instances[0]?.onclose?.({ code: 1008, reason: "Session ended" });
    vi.advanceTimersByTime(120_000);
    expect(FakeSocket.instances).toHaveLength(1);
    expect(onSessionEnded).toHaveBeenCalledTimes(1);
    close();
  });
});
