import WebSocket from "ws";

// The one way the suites open /ws and wait for its frames: every frame is buffered as it arrives, so
// a test waits for the next one (of a type, or any) without racing the server, and a refused
// upgrade answers with its HTTP status instead of a socket.

export type Frame = { type: string } & Record<string, unknown>;

export interface TestSocket {
  socket: WebSocket;
  /** Frames received and not yet taken by next(). */
  frames: Frame[];
  /** The next frame of `type` (any type when omitted), taken from the buffer; throws after `timeoutMs`. */
  next(type?: string, timeoutMs?: number): Promise<Frame>;
  send(frame: unknown): void;
  /** The close code, once the socket closes. */
  closed(): Promise<number>;
  close(): void;
}

/** Opens `url` with these headers: the socket, or the HTTP status the upgrade was refused with. */
export async function openTestSocket(url: string, headers: Record<string, string>): Promise<TestSocket | { refused: number }> {
  const socket = new WebSocket(url, { headers });
  const frames: Frame[] = [];
  let wake: (() => void) | null = null;
  socket.on("message", (data: WebSocket.RawData) => {
    frames.push(JSON.parse(String(data)) as Frame);
    wake?.();
  });
  const closed = new Promise<number>((resolve) => socket.once("close", (code) => resolve(code)));
  const opened = await new Promise<true | number>((resolve, reject) => {
    socket.once("open", () => resolve(true));
    socket.once("unexpected-response", (_request, response) => {
      resolve(response.statusCode ?? 0);
      response.resume();
      socket.terminate();
    });
    // Terminating a refused handshake reports an error too, after the answer: only an error before it counts.
    socket.on("error", (error) => {
      if (socket.readyState !== WebSocket.CLOSED) reject(error);
    });
  });
  if (opened !== true) return { refused: opened };
  return {
    socket,
    frames,
    async next(type, timeoutMs = 3000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const index = frames.findIndex((f) => type === undefined || f.type === type);
        if (index >= 0) return frames.splice(index, 1)[0] as Frame;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no ${type ?? "frame"} frame within ${timeoutMs} ms; got ${JSON.stringify(frames)}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = null;
      }
    },
    send: (frame) => socket.send(typeof frame === "string" ? frame : JSON.stringify(frame)),
    closed: () => closed,
    close: () => socket.close(),
  };
}

/** openTestSocket for a test that expects the upgrade to succeed. */
export async function openSocketOrThrow(url: string, headers: Record<string, string>): Promise<TestSocket> {
  const opened = await openTestSocket(url, headers);
  if ("refused" in opened) throw new Error(`refused ${opened.refused}`);
  return opened;
}
