import http from "node:http";
import WebSocket from "ws";

// The probe's only way into the server: HTTP and WebSocket from outside, as a browser or curl
// would send them. A Browser keeps its cookies (the session, the second step's and the sign-up's)
// and connects from a loopback address of its own, so the per-address limits of one actor do not
// fall on another (all of 127.0.0.0/8 reaches the server on 127.0.0.1).

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text: string;
  json<T = Record<string, unknown>>(): T;
}

export interface RequestOptions {
  json?: unknown;
  body?: Buffer;
  contentType?: string;
  headers?: Record<string, string>;
  /** Send no Origin header even on a write (curl's way; judged by its credentials alone). */
  noOrigin?: boolean;
}

export class Browser {
  readonly cookies = new Map<string, string>();
  private readonly agent: http.Agent;

  /** `base` is where requests go (http://127.0.0.1:PORT); `origin` is the site's own (PUBLIC_URL's). */
  constructor(
    readonly base: string,
    readonly origin: string,
    readonly localAddress = "127.0.0.1",
  ) {
    this.agent = new http.Agent({ keepAlive: true, localAddress, maxSockets: 8 });
  }

  get sessionToken(): string | undefined {
    return this.cookies.get("errandly_session");
  }

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  /** Another browser with this one's cookies, from another address (a stolen cookie, a second tab). */
  clone(localAddress = this.localAddress): Browser {
    const copy = new Browser(this.base, this.origin, localAddress);
    for (const [k, v] of this.cookies) copy.cookies.set(k, v);
    return copy;
  }

  get(path: string, options: RequestOptions = {}): Promise<Answer> {
    return this.request("GET", path, options);
  }

  post(path: string, json?: unknown, options: RequestOptions = {}): Promise<Answer> {
    return this.request("POST", path, { ...options, json: json ?? options.json });
  }

  put(path: string, json?: unknown, options: RequestOptions = {}): Promise<Answer> {
    return this.request("PUT", path, { ...options, json: json ?? options.json });
  }

  patch(path: string, json?: unknown, options: RequestOptions = {}): Promise<Answer> {
    return this.request("PATCH", path, { ...options, json: json ?? options.json });
  }

  delete(path: string, json?: unknown, options: RequestOptions = {}): Promise<Answer> {
    return this.request("DELETE", path, { ...options, json: json ?? options.json });
  }

  request(method: string, path: string, options: RequestOptions = {}): Promise<Answer> {
    const url = new URL(path, this.base);
    const headers: Record<string, string> = { accept: "application/json, text/html;q=0.9, */*;q=0.8", ...options.headers };
    if (this.cookies.size > 0) headers.cookie = this.cookieHeader;
    if (method !== "GET" && method !== "HEAD" && !options.noOrigin) headers.origin ??= this.origin;
    let payload: Buffer | undefined = options.body;
    if (options.json !== undefined) {
      payload = Buffer.from(JSON.stringify(options.json));
      headers["content-type"] = "application/json";
    } else if (payload && options.contentType) {
      headers["content-type"] = options.contentType;
    }
    if (payload) headers["content-length"] = String(payload.length);
    return new Promise((resolve, reject) => {
      const req = http.request(url, { method, headers, agent: this.agent, timeout: 30_000 }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", reject);
        res.on("end", () => {
          this.keepCookies(res.headers["set-cookie"]);
          const body = Buffer.concat(chunks);
          const text = body.toString("utf8");
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            text,
            json<T>() {
              return JSON.parse(text) as T;
            },
          });
        });
      });
      req.on("timeout", () => req.destroy(new Error(`${method} ${path}: no answer within 30 s`)));
      req.on("error", reject);
      req.end(payload);
    });
  }

  private keepCookies(setCookies: string[] | undefined): void {
    for (const line of setCookies ?? []) {
      const [pair = "", ...attributes] = line.split(";");
      const eq = pair.indexOf("=");
      if (eq < 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const gone = attributes.some((a) => {
        const [k = "", v = ""] = a.trim().split("=");
        return (k.toLowerCase() === "max-age" && Number(v) <= 0) || (k.toLowerCase() === "expires" && Date.parse(v) < Date.now());
      });
      if (gone || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** A WebSocket to /ws with this browser's cookies and our Origin; frames are collected. */
  socket(): Promise<LiveSocket> {
    const ws = new WebSocket(this.base.replace(/^http/, "ws") + "/ws", {
      headers: { origin: this.origin, cookie: this.cookieHeader },
      localAddress: this.localAddress,
    });
    const live = new LiveSocket(ws);
    return new Promise((resolve, reject) => {
      ws.once("open", () => resolve(live));
      ws.once("unexpected-response", (_req, res) => reject(new Error(`socket refused with ${res.statusCode}`)));
      ws.once("error", reject);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

export class LiveSocket {
  readonly frames: Record<string, unknown>[] = [];
  closed = false;

  constructor(private readonly ws: WebSocket) {
    ws.on("message", (data) => {
      try {
        this.frames.push(JSON.parse(String(data)) as Record<string, unknown>);
      } catch {
        this.frames.push({ type: "unparsable", raw: String(data) });
      }
    });
    ws.on("close", () => (this.closed = true));
    ws.on("error", () => undefined);
  }

  send(frame: unknown): void {
    this.ws.send(JSON.stringify(frame));
  }

  /** The first frame from index `from` on (by default: from now) that `match` accepts, or null after `ms`. */
  async next(match: (frame: Record<string, unknown>) => boolean, ms = 3000, from = this.frames.length): Promise<Record<string, unknown> | null> {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      const found = this.frames.slice(from).find(match);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 25));
    }
    return null;
  }

  close(): void {
    this.ws.close();
  }
}
