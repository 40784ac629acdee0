import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";

// What a client gets when its request never reached a route: it took longer than REQUEST_TIMEOUT_MS
// to arrive, or its headers longer than HEADERS_TIMEOUT_MS (docs/decisions/043-slow-requests-bounded.md,
// 071-connections-closed-on-time.md), its headers were too large, or it was not HTTP. Fastify's own answers ("Client Timeout") are not sentences and differ in shape from every
// other error; these are `{message}` like the rest, written straight to the socket, which is then closed.

const ANSWERS: Record<string, { status: number; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: "The request took too long to arrive. Check your connection and try again." },
  HPE_HEADER_OVERFLOW: { status: 431, message: "The request's headers are too large. Clear this site's cookies and try again." },
};
const MALFORMED = { status: 400, message: "The request could not be read. Reload the page and try again." };

export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection is already gone (https://nodejs.org/api/http.html#event-clienterror).
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const { status, message } = ANSWERS[error.code ?? ""] ?? MALFORMED;
  const body = JSON.stringify({ message });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
