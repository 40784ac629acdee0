import type { LightMyRequestResponse } from "fastify";
import { TEST_ORIGIN, type TestApp } from "./create-test-app.js";

// Test support: one browser, as a cookie jar over app.inject. What the server sets is kept, what it
// clears is dropped, and every request goes from the same address (`remoteAddress`), so a test can
// play several people, each in their own browser on their own network.

export class Browser {
  private readonly jar = new Map<string, string>();

  constructor(
    private readonly t: TestApp,
    readonly remoteAddress = "127.0.0.1",
  ) {}

  get(url: string): Promise<LightMyRequestResponse> {
    return this.send("GET", url);
  }

  post(url: string, payload: object = {}): Promise<LightMyRequestResponse> {
    return this.send("POST", url, payload);
  }

  delete(url: string): Promise<LightMyRequestResponse> {
    return this.send("DELETE", url);
  }

  /** Whether the session signs someone in, as a status: 200 while it does, 401 once it has ended (GET /api/auth/user answers null then). */
  async me(): Promise<number> {
    return (await this.get("/api/auth/user")).json() === null ? 401 : 200;
  }

  async send(method: "GET" | "POST" | "PATCH" | "DELETE", url: string, payload?: object): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { cookie: this.cookie() };
    if (method !== "GET") headers.origin = TEST_ORIGIN;
    const res = await this.t.app.inject({ method, url, headers, remoteAddress: this.remoteAddress, ...(payload === undefined ? {} : { payload }) });
    const raw = res.headers["set-cookie"];
    for (const line of Array.isArray(raw) ? raw : raw ? [raw] : []) {
      const [pair = "", ...attributes] = String(line).split(";");
      const [name = "", value = ""] = pair.split("=");
      if (attributes.some((a) => /max-age=0|expires=thu, 01 jan 1970/i.test(a.trim())) || value === "") this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return res;
  }

  private cookie(): string {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}
