import type { ServerFrame } from "@shared/chat";
import { readServerFrame, SESSION_ENDED_CLOSE } from "@shared/server-frames";

// The one realtime connection pattern of the app (chat and the notification bell): a WebSocket
// to /ws that says who it is on open, hands on only frames that match the shared contract, and
// reconnects by itself with backoff until it is closed on purpose or the page goes away.

/** Exponential backoff with jitter: 1 s, 2 s, 4 s … capped at 30 s. */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(30_000, 1000 * 2 ** Math.max(0, attempt));
  return Math.round(base * (0.75 + random() * 0.5));
}

/** The realtime endpoint on the page's own host, secure when the page is (docs/product.md#chat-and-notifications). */
export function socketUrl(location: Pick<Location, "protocol" | "host">): string {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
}

/** A server frame from raw socket text, or null for anything outside the contract. */
export function parseServerFrame(text: string): ServerFrame | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  return readServerFrame(data);
}

export interface RealtimeHandlers {
  /** Called on every (re)connect; `send` writes one JSON frame. */
  onOpen(send: (frame: object) => void): void;
  onFrame(frame: ServerFrame): void;
  onClose?(): void;
  /** The server closed the socket because the session ended; the connection stays closed. */
  onSessionEnded?(): void;
}

/** The server's close for an ended session (logout, expiry, signed out elsewhere). */
export function isSessionEnded(event: Pick<CloseEvent, "code" | "reason">): boolean {
  return event.code === SESSION_ENDED_CLOSE.code && event.reason === SESSION_ENDED_CLOSE.reason;
}

/** Opens the connection and keeps it open; the returned function closes it for good. */
export function connectRealtime(handlers: RealtimeHandlers): () => void {
  let socket: WebSocket | null = null;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;

  const stop = () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    socket?.close();
  };
  // Leaving the page (a logout navigation, say) closes the socket; reconnecting then would only
  // log a refused upgrade on the way out.
  const onPageHide = (event: PageTransitionEvent) => {
    if (!event.persisted) stop();
  };
  window.addEventListener("pagehide", onPageHide);

  const connect = () => {
    const current = new WebSocket(socketUrl(window.location));
    socket = current;
    current.onopen = () => handlers.onOpen((frame) => current.send(JSON.stringify(frame)));
    current.onmessage = (event: MessageEvent<string>) => {
      const frame = parseServerFrame(event.data);
      if (!frame) return;
      // A frame from the server means the connection works: the next drop starts from 1 s again.
      attempt = 0;
      handlers.onFrame(frame);
    };
    current.onclose = (event) => {
      handlers.onClose?.();
      if (stopped) return;
      // A reconnect would only be refused (401) with the ended session's cookie.
      if (isSessionEnded(event)) {
        stop();
        handlers.onSessionEnded?.();
        return;
      }
      timer = setTimeout(connect, reconnectDelay(attempt));
      attempt += 1;
    };
  };
  connect();

  return () => {
    window.removeEventListener("pagehide", onPageHide);
    stop();
  };
}
