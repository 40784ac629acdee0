import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { openDatabase, type Database } from "../../src/server/db/client.js";
import { tasks } from "../../src/server/db/schema/tasks.js";
import { users } from "../../src/server/db/schema/users.js";
import { createSession } from "../../src/server/features/auth/sessions.js";
import { startServer, type ServerProcess } from "./server-process.js";
import { testPostgres, type PostgresDatabase } from "../postgres-cluster.js";

// Two real server processes on one PostgreSQL: a message posted to one reaches a socket held by
// the other, through LISTEN/NOTIFY and nothing else, on a throwaway PostgreSQL from the embedded
// binaries (a fresh database on DATABASE_URL's server when set).

let postgres: PostgresDatabase | null = null;
let database: Database | null = null;
const instances: ServerProcess[] = [];

beforeAll(async () => {
  postgres = await testPostgres();
  // One after the other: the first one migrates the empty database.
  instances.push(await startServer({ databaseUrl: postgres.url }));
  instances.push(await startServer({ databaseUrl: postgres.url }));
  database = await openDatabase({ databaseUrl: postgres.url, poolSize: 2 });
}, 180_000);

afterAll(async () => {
  for (const instance of instances) {
    await instance.stop();
    instance.cleanup();
  }
  await database?.close();
  await postgres?.destroy();
}, 60_000);

async function signedInUser(db: Database, role: "user" | "provider") {
  const [user] = await db.db
    .insert(users)
    .values({ email: `${role}-${randomUUID().slice(0, 8)}@example.test`, firstName: "Cross", lastName: role, role, passwordHash: null, emailVerifiedAt: new Date() })
    .returning();
  if (!user) throw new Error("user not inserted");
  const token = await createSession(db.db, user.id, { idleDays: 7, absoluteDays: 30 }, new Date());
  return { id: user.id, cookie: `errandly_session=${token}` };
}

describe("chat across two server processes", () => {
  it("delivers a message posted on instance A to a socket on instance B", async () => {
    if (!database) throw new Error("database not opened");
    const [a, b] = instances;
    if (!a || !b) throw new Error("instances not started");
    const poster = await signedInUser(database, "user");
    const provider = await signedInUser(database, "provider");
    const [task] = await database.db
      .insert(tasks)
      .values({
        userId: poster.id,
        providerId: provider.id,
        title: "Cross-instance errand",
        description: "Proves the fan-out",
        category: "errands",
        budgetCents: 2500,
        urgentFeeCents: 0,
        serviceFeeCents: 250,
        totalCents: 2750,
        providerShareCents: 2125,
        platformCommissionCents: 375,
        status: "claimed",
      })
      .returning();
    if (!task) throw new Error("task not inserted");

    // The provider listens on B.
    const socket = new WebSocket(`${b.url.replace("http", "ws")}/ws`, { headers: { cookie: provider.cookie, origin: b.url } });
    const frames: { type: string; content?: string; senderId?: string }[] = [];
    const received = new Promise<void>((resolveReceived, reject) => {
      const timer = setTimeout(() => reject(new Error(`no message on B; frames: ${JSON.stringify(frames)}`)), 10_000);
      socket.on("message", (data: WebSocket.RawData) => {
        const frame = JSON.parse(String(data)) as { type: string; content?: string; senderId?: string };
        frames.push(frame);
        if (frame.type === "message") {
          clearTimeout(timer);
          resolveReceived();
        }
      });
    });
    await new Promise<void>((r, reject) => {
      socket.once("open", () => r());
      socket.once("error", reject);
    });
    socket.send(JSON.stringify({ type: "auth", taskId: task.id }));
    await expect.poll(() => frames.some((f) => f.type === "auth_success"), { timeout: 5000 }).toBe(true);

    // The poster posts on A.
    const res = await fetch(`${a.url}/api/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: poster.cookie, origin: a.url },
      body: JSON.stringify({ taskId: task.id, content: "hello from instance A" }),
    });
    expect(res.status).toBe(201);
    await received;
    expect(frames.find((f) => f.type === "message")).toMatchObject({ content: "hello from instance A", senderId: poster.id });
    socket.close();
  });
});
