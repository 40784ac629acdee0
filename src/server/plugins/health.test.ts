import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { queryRows } from "../db/client.js";
import { SERVICE_RESTART_CLOSE } from "../../shared/server-frames.js";
import { createTestApp, createUser, TEST_ORIGIN, useTestApp } from "../../../test/create-test-app.js";
import { NOT_READY } from "./health.js";

// Liveness and readiness as a load balancer reads them, and a shutdown that tells sockets to
// reconnect (docs/deploy.md, "Health" and "Rolling restart").

const t = await useTestApp();

describe("health", () => {
  it("answers liveness and readiness with 200 on a migrated database", async () => {
    const alive = await t.app.inject({ url: "/api/health" });
    expect(alive.statusCode).toBe(200);
    expect(alive.json()).toEqual({ status: "ok" });
    const ready = await t.app.inject({ url: "/api/health/ready" });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: "ready" });
  });

  it("answers readiness 503 when a migration this build ships is missing from the database", async () => {
    const [last] = await queryRows<{ hash: string; created_at: string }>(
      t.database.db,
      sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations) returning hash, created_at`,
    );
    if (!last) throw new Error("no migration recorded in the template database");
    try {
      const ready = await t.app.inject({ url: "/api/health/ready" });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ reason: "migrations", message: NOT_READY.migrations });
      // Liveness does not ask the database: the process is fine, it just must not get traffic.
      expect((await t.app.inject({ url: "/api/health" })).statusCode).toBe(200);
    } finally {
      await t.database.db.execute(sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${last.hash}, ${last.created_at})`);
    }
    expect((await t.app.inject({ url: "/api/health/ready" })).statusCode).toBe(200);
  });

  it("answers readiness 503 once draining starts, and keeps serving requests meanwhile", async () => {
    const own = await createTestApp();
    try {
      own.app.health.startDraining();
      const ready = await own.app.inject({ url: "/api/health/ready" });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ reason: "draining", message: NOT_READY.draining });
      expect((await own.app.inject({ url: "/api/health" })).statusCode).toBe(200);
      expect((await own.app.inject({ url: "/api/tasks/open" })).statusCode).toBe(200);
    } finally {
      await own.close();
    }
  });

  it("closes open sockets with 1012 (service restart) when the app closes, so clients reconnect elsewhere", async () => {
    const own = await createTestApp();
    const user = await createUser(own);
    const url = await own.app.listen({ port: 0, host: "127.0.0.1" });
    const socket = new WebSocket(`${url.replace("http://", "ws://")}/ws`, { headers: { origin: TEST_ORIGIN, cookie: user.cookie } });
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      socket.once("close", (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
    await own.close();
    expect(await closed).toEqual(SERVICE_RESTART_CLOSE);
  });
});
