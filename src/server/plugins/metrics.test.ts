import { afterAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { emailOutbox } from "../db/schema/site.js";
import { createTestApp, createUser, TEST_ORIGIN, useTestApp } from "../../../test/create-test-app.js";

// /metrics (docs/operations.md): hidden without a token, refused without the right one, and each
// family an operator alerts on is there and moves when the thing it counts happens.

const TOKEN = "metrics-test-token-0123456789";
const t = await useTestApp({ METRICS_TOKEN: TOKEN, MAX_CONCURRENT_REQUESTS: "1" });

async function scrape(): Promise<string> {
  const res = await t.app.inject({ url: "/metrics", headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode).toBe(200);
  expect(res.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.body;
}

/** The value of one sample, `name{labels} value`, or undefined when the series is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split("\n")) {
    if (!line.startsWith(name)) continue;
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? "").matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return undefined;
}

describe("access", () => {
  it("answers 404 with no token configured, signed in as an admin or not", async () => {
    const off = await createTestApp();
    afterAll(() => off.close());
    const admin = await createUser(off, { role: "admin" });
    for (const headers of [{}, { cookie: admin.cookie }, { authorization: `Bearer ${TOKEN}` }]) {
      const res = await off.app.inject({ url: "/metrics", headers });
      expect(res.statusCode).toBe(404);
      expect(res.json<{ message: string }>().message).toMatch(/METRICS_TOKEN/);
    }
  });

  it("times no wait at the door with no token configured: nobody reads it", async () => {
    const off = await createTestApp({ MAX_CONCURRENT_REQUESTS: "1" });
    afterAll(() => off.close());
    const answers = await Promise.all(Array.from({ length: 4 }, () => off.app.inject({ url: "/robots.txt" })));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    const waits = (await off.app.ctx.metrics.admissionWait.get()).values.find((v) => v.metricName === "errandly_admission_wait_seconds_count");
    expect(waits?.value ?? 0).toBe(0);
  });

  it("answers 401 without the token or with another, and a session does not stand in for it", async () => {
    const admin = await createUser(t, { role: "admin" });
    for (const headers of [{}, { authorization: "Bearer wrong-token-wrong-token" }, { authorization: TOKEN }, { cookie: admin.cookie }]) {
      const res = await t.app.inject({ url: "/metrics", headers });
      expect(res.statusCode).toBe(401);
      expect(res.headers["www-authenticate"]).toMatch(/^Bearer/);
      expect(res.json<{ message: string }>().message).toMatch(/Authorization: Bearer/);
    }
  });
});

describe("families", () => {
  it("counts each request under its route pattern and status, not its raw address", async () => {
    const user = await createUser(t);
    const route = { method: "GET", route: "/api/messages/:taskId", status: "404" };
    const before = sample(await scrape(), "errandly_http_request_duration_seconds_count", route) ?? 0;
    for (let i = 0; i < 3; i++) {
      await t.app.inject({ url: `/api/messages/${crypto.randomUUID()}`, headers: { cookie: user.cookie } });
    }
    const text = await scrape();
    expect(sample(text, "errandly_http_request_duration_seconds_count", route)).toBe(before + 3);
    expect(text).not.toMatch(/route="\/api\/messages\/[0-9a-f]{8}-/);
    // An API address no route has (a page address would get the web app's index, built or not).
    await t.app.inject({ url: "/api/no-such-route-at-all" });
    expect(sample(await scrape(), "errandly_http_request_duration_seconds_count", { route: "unmatched", status: "404" })).toBeGreaterThan(0);
  });

  it("reports the admission line and times the requests that waited for a place", async () => {
    const text = await scrape();
    for (const state of ["line", "waiting", "working"]) expect(sample(text, "errandly_admission_requests", { state })).toBe(0);
    const before = sample(text, "errandly_admission_wait_seconds_count") ?? 0;
    // One place at work (MAX_CONCURRENT_REQUESTS=1): of four at once, three wait their turn.
    const answers = await Promise.all(Array.from({ length: 4 }, () => t.app.inject({ url: "/robots.txt" })));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    expect(sample(await scrape(), "errandly_admission_wait_seconds_count")).toBe(before + 3);
  });

  it("reports the database pool's connections", async () => {
    // Readiness asks the database; liveness does not (plugins/health.ts).
    await t.app.inject({ url: "/api/health/ready" });
    const text = await scrape();
    expect(sample(text, "errandly_db_pool_connections", { state: "total" })).toBeGreaterThan(0);
    expect(sample(text, "errandly_db_pool_connections", { state: "idle" })).toBeGreaterThanOrEqual(0);
    expect(sample(text, "errandly_db_pool_connections", { state: "waiting" })).toBe(0);
  });

  it("counts job runs and failures by job", async () => {
    t.app.ctx.scheduler.register("test:always-fails", () => Promise.reject(new Error("planned failure")));
    const before = await scrape();
    await t.app.ctx.scheduler.runAll();
    const after = await scrape();
    for (const job of ["mail:deliver", "test:always-fails"]) {
      expect(sample(after, "errandly_job_runs_total", { job })).toBe((sample(before, "errandly_job_runs_total", { job }) ?? 0) + 1);
    }
    expect(sample(after, "errandly_job_failures_total", { job: "test:always-fails" })).toBe(1);
    expect(sample(after, "errandly_job_failures_total", { job: "mail:deliver" })).toBeUndefined();
  });

  it("reports the e-mails not sent yet", async () => {
    const before = sample(await scrape(), "errandly_email_outbox_backlog", { status: "queued" });
    expect(before).toBe(0);
    await t.database.db.insert(emailOutbox).values([
      { to: "a@example.test", subject: "One", text: "One", kind: "test", status: "queued" },
      { to: "b@example.test", subject: "Two", text: "Two", kind: "test", status: "queued" },
      { to: "c@example.test", subject: "Sent", text: "Sent", kind: "test", status: "sent" },
    ]);
    const text = await scrape();
    expect(sample(text, "errandly_email_outbox_backlog", { status: "queued" })).toBe(2);
    expect(sample(text, "errandly_email_outbox_backlog", { status: "failed" })).toBe(0);
  });

  it("reports the open sockets", async () => {
    const user = await createUser(t);
    const url = (await t.app.listen({ port: 0, host: "127.0.0.1" })).replace("http://", "ws://");
    expect(sample(await scrape(), "errandly_open_sockets")).toBe(0);
    const socket = new WebSocket(`${url}/ws`, { headers: { origin: TEST_ORIGIN, cookie: user.cookie } });
    await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
    await expect.poll(async () => sample(await scrape(), "errandly_open_sockets")).toBe(1);
    socket.close();
    await expect.poll(async () => sample(await scrape(), "errandly_open_sockets")).toBe(0);
  });
});
